/* The implemented variants, built once, on first use. */
#include <pthread.h>
#include <string.h>

#include "registry.h"
#include "variants.h"

static VariantDef (*const definitions[])(void) = {
    chess_definition,
    starvation_definition,
    square_says_definition,
    square_says_reversed_definition,
    starchess_definition,
    starchess_ludii_definition,
    megastar_definition,
};

#define NVARIANTS ((int)(sizeof definitions / sizeof definitions[0]))
_Static_assert(NVARIANTS <= VARIANTS_MAX, "VARIANTS_MAX holds every variant");

static VariantDef defs[NVARIANTS];
static const Variant *built[NVARIANTS];

static void build_all(void)
{
    for (int i = 0; i < NVARIANTS; i++) {
        defs[i] = definitions[i]();
        built[i] = variant_build(&defs[i]);
    }
}

static void ensure_built(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, build_all);
}

int variant_count(void)
{
    return NVARIANTS;
}

const Variant *variant_at(int i)
{
    ensure_built();
    return i >= 0 && i < NVARIANTS ? built[i] : NULL;
}

/* The index of the named variant, or -1. */
static int index_of(const char *name)
{
    ensure_built();
    for (int i = 0; i < NVARIANTS; i++)
        if (strcmp(defs[i].name, name) == 0)
            return i;
    return -1;
}

const Variant *variant_by_name(const char *name)
{
    int i = index_of(name);
    return i < 0 ? NULL : built[i];
}

bool variant_install_tables(const char *name, const EndgameTables *tables)
{
    int i = index_of(name);
    if (i >= 0)
        defs[i].tables = tables;
    return i >= 0;
}
