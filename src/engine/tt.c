#include "tt.h"

#include <stdlib.h>
#include <string.h>

bool tt_resize(TT *tt, size_t megabytes)
{
    size_t bytes = megabytes ? megabytes << 20 : sizeof(TTEntry);
    size_t count = 1;
    while (count * 2 * sizeof(TTEntry) <= bytes)
        count *= 2;
    TTEntry *e = calloc(count, sizeof *e);
    if (!e)
        return false;
    free(tt->entries);
    tt->entries = e;
    tt->mask = count - 1;
    tt->generation = 0;
    return true;
}

void tt_clear(TT *tt)
{
    memset(tt->entries, 0, (tt->mask + 1) * sizeof(TTEntry));
    tt->generation = 0;
}

void tt_free(TT *tt)
{
    free(tt->entries);
    memset(tt, 0, sizeof *tt);
}

TTEntry *tt_probe(const TT *tt, uint64_t key, bool *found)
{
    TTEntry *e = &tt->entries[key & tt->mask];
    *found = e->bound != BOUND_NONE && e->check == (uint32_t)(key >> 32);
    return e;
}

void tt_store(TT *tt, uint64_t key, Move move, int score, int depth, int bound)
{
    TTEntry *e = &tt->entries[key & tt->mask];
    uint32_t check = (uint32_t)(key >> 32);
    /* Keep a deeper entry of the same search for another position. */
    if (e->check != check && e->generation == tt->generation && e->depth > depth && bound != BOUND_EXACT)
        return;
    if (move || e->check != check)
        e->move = move;
    e->check = check;
    e->score = (int16_t)score;
    e->depth = (int8_t)depth;
    e->bound = (uint8_t)bound;
    e->generation = tt->generation;
}
