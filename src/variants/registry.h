/* The registry of implemented variants (registry.c): every game by name, built once, on
 * first use.  Above the rules core: the core knows no variant by name. */
#ifndef STARFISH_REGISTRY_H
#define STARFISH_REGISTRY_H

#include "../core/variant.h"

#define VARIANTS_MAX 16 /* room enough for every variant: variant_count() <= VARIANTS_MAX */

const Variant *variant_by_name(const char *name);
int variant_count(void);
const Variant *variant_at(int i);
/* Gives the named variant what endgame tables know of it (VariantDef.tables); called once at
 * start-up, before any game is played.  False: no variant of that name. */
bool variant_install_tables(const char *name, const EndgameTables *tables);

#endif
