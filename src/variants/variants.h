/* Every variant file exports one definition function; registry.c lists them. */
#ifndef STARFISH_VARIANTS_H
#define STARFISH_VARIANTS_H

#include "../core/variant.h"

VariantDef chess_definition(void);
VariantDef starvation_definition(void);
VariantDef square_says_definition(void);
VariantDef square_says_reversed_definition(void);
VariantDef starchess_definition(void);
VariantDef starchess_ludii_definition(void);
VariantDef megastar_definition(void);

#endif
