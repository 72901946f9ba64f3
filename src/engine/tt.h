/* The transposition table: one entry per bucket slot, replaced by depth and age. */
#ifndef STARFISH_TT_H
#define STARFISH_TT_H

#include <stddef.h>
#include <stdint.h>

#include "../core/types.h"

enum { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT };

typedef struct {
    uint32_t check; /* the key's high half, to tell positions sharing a slot apart */
    Move move;
    int16_t score;
    int8_t depth;
    uint8_t bound;
    uint16_t generation;
} TTEntry;

typedef struct {
    TTEntry *entries;
    size_t mask; /* entry count - 1 (a power of two) */
    uint16_t generation;
} TT;

/* Resizes to the largest power of two of entries fitting in `megabytes`; clears it. */
bool tt_resize(TT *tt, size_t megabytes);
void tt_clear(TT *tt);
void tt_free(TT *tt);
TTEntry *tt_probe(const TT *tt, uint64_t key, bool *found);
void tt_store(TT *tt, uint64_t key, Move move, int score, int depth, int bound);

#endif
