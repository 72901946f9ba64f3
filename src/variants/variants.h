/* Every variant file exports one definition function; registry.c lists them. */
#ifndef STARFISH_VARIANTS_H
#define STARFISH_VARIANTS_H

#include "../core/variant.h"

VariantDef chess_definition(void);
VariantDef starvation_definition(void);

#endif
