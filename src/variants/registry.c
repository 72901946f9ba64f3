/* The implemented variants, built once, on first use. */
#include <pthread.h>
#include <string.h>

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

const Variant *variant_by_name(const char *name)
{
    ensure_built();
    for (int i = 0; i < NVARIANTS; i++)
        if (strcmp(built[i]->def->name, name) == 0)
            return built[i];
    return NULL;
}
