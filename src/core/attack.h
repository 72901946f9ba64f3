/* Building a variant's attack tables from its geometry and movement patterns (see variant.h). */
#ifndef STARFISH_ATTACK_H
#define STARFISH_ATTACK_H

#include "variant.h"

/* Builds every table of v from its patterns, pieces and zones (variant_build calls it once
 * pattern_mask, start_cell and the zones are known); false with a message on a defect. */
bool attack_build(Variant *v, char *err, size_t errlen);

#endif
