/*
 * Cell sets of exactly SET_W 64-bit words, for code instantiated once per width (rules_impl.h):
 * a translation unit defines SET_W (1 or 3) and includes this file.  With SET_W 1 every
 * operation is one machine instruction on one word, so boards of up to 64 cells pay nothing
 * for the wide sets Megastar needs.  Tables of sets are arrays of SET_W-word entries.
 */
#ifndef SET_W
#error "define SET_W (words per set) before including setw.h"
#endif

#include "cellset.h"

typedef struct {
    uint64_t w[SET_W];
} Set;

#define SET_EACH_WORD(i) for (int i = 0; i < SET_W; i++)

static inline Set set_none(void)
{
    Set r;
    SET_EACH_WORD(i) r.w[i] = 0;
    return r;
}

/* The first SET_W words of a stored set. */
static inline Set set_load(const CellSet *s)
{
    Set r;
    SET_EACH_WORD(i) r.w[i] = s->w[i];
    return r;
}

/* The stored form of a set (the words beyond SET_W empty). */
static inline CellSet set_store(Set s)
{
    CellSet r = {{0}};
    SET_EACH_WORD(i) r.w[i] = s.w[i];
    return r;
}

/* Entry i of a table of sets (SET_W words each). */
static inline Set set_at(const uint64_t *table, int i)
{
    Set r;
    SET_EACH_WORD(k) r.w[k] = table[(size_t)i * SET_W + (size_t)k];
    return r;
}

static inline Set set_bit(Cell c)
{
    Set r = set_none();
    r.w[c >> 6] = 1ull << (c & 63);
    return r;
}

static inline Set set_and(Set a, Set b)
{
    SET_EACH_WORD(i) a.w[i] &= b.w[i];
    return a;
}

static inline Set set_or(Set a, Set b)
{
    SET_EACH_WORD(i) a.w[i] |= b.w[i];
    return a;
}

/* a without the cells of b. */
static inline Set set_minus(Set a, Set b)
{
    SET_EACH_WORD(i) a.w[i] &= ~b.w[i];
    return a;
}

static inline bool set_any(Set a)
{
    uint64_t any = 0;
    SET_EACH_WORD(i) any |= a.w[i];
    return any != 0;
}

static inline bool set_has(Set a, Cell c)
{
    return a.w[c >> 6] >> (c & 63) & 1;
}

static inline int set_count(Set a)
{
    int n = 0;
    SET_EACH_WORD(i) n += __builtin_popcountll(a.w[i]);
    return n;
}

/* More than one cell? */
static inline bool set_several(Set a)
{
    if (SET_W == 1)
        return (a.w[0] & (a.w[0] - 1)) != 0;
    return set_count(a) > 1;
}

/* The lowest and the highest cell of a set that is not empty. */
static inline Cell set_lowest(Set a)
{
    for (int i = 0; i < SET_W - 1; i++)
        if (a.w[i])
            return (Cell)(64 * i + __builtin_ctzll(a.w[i]));
    return (Cell)(64 * (SET_W - 1) + __builtin_ctzll(a.w[SET_W - 1]));
}

static inline Cell set_highest(Set a)
{
    for (int i = SET_W - 1; i > 0; i--)
        if (a.w[i])
            return (Cell)(64 * i + 63 - __builtin_clzll(a.w[i]));
    return (Cell)(63 - __builtin_clzll(a.w[0]));
}

/* Removes and returns the lowest cell of a set that is not empty. */
static inline Cell set_pop(Set *a)
{
    for (int i = 0; i < SET_W - 1; i++)
        if (a->w[i]) {
            Cell c = (Cell)(64 * i + __builtin_ctzll(a->w[i]));
            a->w[i] &= a->w[i] - 1;
            return c;
        }
    Cell c = (Cell)(64 * (SET_W - 1) + __builtin_ctzll(a->w[SET_W - 1]));
    a->w[SET_W - 1] &= a->w[SET_W - 1] - 1;
    return c;
}

