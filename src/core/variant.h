/* Building a Variant from a VariantDef (the types are in tables.h). */
#ifndef STARFISH_VARIANT_H
#define STARFISH_VARIANT_H

#include "tables.h"

/* Builds (once) and returns the variant for a definition; NULL with a message on a defect. */
const Variant *variant_build(const VariantDef *def);
/* The piece type with that upper-case letter, or 0. */
int variant_type_of_letter(const Variant *v, char upper);

#endif
