/*
 * Sets of cells (bitboards): bit c of word c / 64 stands for cell c.  A board of n cells needs
 * (n + 63) / 64 words: one for the 8x8 board and the 37-cell star, three for Megastar's 182
 * cells.  CellSet is the stored form, wide enough for every board (a position keeps its sets
 * in it); the rules core's hot paths work on sets of exactly the width their board needs
 * (setw.h, one instantiation per width), and the rest of the program uses these helpers.
 */
#ifndef STARFISH_CELLSET_H
#define STARFISH_CELLSET_H

#include <stdbool.h>
#include <stdint.h>

#include "../geometry/geometry.h"

#define SET_WORDS_MAX 3
#define SET_CELLS_MAX (64 * SET_WORDS_MAX)

typedef struct CellSet {
    uint64_t w[SET_WORDS_MAX];
} CellSet;

static inline bool cellset_has(const CellSet *s, Cell c)
{
    return s->w[c >> 6] >> (c & 63) & 1;
}

/* Adds c when it is missing, removes it when it is there. */
static inline void cellset_flip(CellSet *s, Cell c)
{
    s->w[c >> 6] ^= 1ull << (c & 63);
}

static inline int cellset_count(const CellSet *s)
{
    int n = 0;
    for (int i = 0; i < SET_WORDS_MAX; i++)
        n += __builtin_popcountll(s->w[i]);
    return n;
}

static inline CellSet cellset_and(const CellSet *a, const CellSet *b)
{
    CellSet r;
    for (int i = 0; i < SET_WORDS_MAX; i++)
        r.w[i] = a->w[i] & b->w[i];
    return r;
}

static inline CellSet cellset_or(const CellSet *a, const CellSet *b)
{
    CellSet r;
    for (int i = 0; i < SET_WORDS_MAX; i++)
        r.w[i] = a->w[i] | b->w[i];
    return r;
}

/* a without the cells of b. */
static inline CellSet cellset_minus(const CellSet *a, const CellSet *b)
{
    CellSet r;
    for (int i = 0; i < SET_WORDS_MAX; i++)
        r.w[i] = a->w[i] & ~b->w[i];
    return r;
}

/* The lowest cell of s that is >= from, or NO_CELL. */
static inline Cell cellset_next(const CellSet *s, int from)
{
    for (int i = from >> 6; i < SET_WORDS_MAX; i++) {
        uint64_t w = s->w[i] & (i == from >> 6 ? ~0ull << (from & 63) : ~0ull);
        if (w)
            return (Cell)(64 * i + __builtin_ctzll(w));
    }
    return NO_CELL;
}

/* The cells of s into cells[] (room for SET_CELLS_MAX), lowest first; returns how many.  Faster
 * than CELLSET_EACH where a loop's body is short. */
static inline int cellset_list(const CellSet *s, Cell *cells)
{
    int n = 0;
    for (int i = 0; i < SET_WORDS_MAX; i++)
        for (uint64_t w = s->w[i]; w; w &= w - 1)
            cells[n++] = (Cell)(64 * i + __builtin_ctzll(w));
    return n;
}

/* for (Cell c = ...) over the cells of a set, lowest first. */
#define CELLSET_EACH(c, s) for (Cell c = cellset_next((s), 0); c != NO_CELL; c = cellset_next((s), c + 1))

#endif
