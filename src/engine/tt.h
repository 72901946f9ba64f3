/*
 * The transposition table, shared by every search thread without locks.
 *
 * Entries come in buckets of TT_BUCKET, one bucket a 64-byte cache line.  An entry is two
 * 64-bit words: the data (move, score, depth, bound, generation packed together) and the
 * position's key XORed with the data.  A reader takes both words and accepts the entry only
 * when key ^ data gives back its key, so an entry torn by two threads writing at once reads
 * as a miss, never as another position's score (Hyatt and Mann's lockless hashing).
 * A new entry replaces the same position's, else the bucket's least valuable one: the
 * shallowest, counting each search it has aged as TT_AGE_WEIGHT plies.  Clearing the table
 * (a new game) takes constant time: it starts a new epoch, and entries of the old ones read
 * exactly as empty slots would.  The table sits on huge pages where the system gives them
 * (util/bigmem.c): probes land anywhere in it, and with 4 KB pages most missed the TLB too.
 */
#ifndef STARFISH_TT_H
#define STARFISH_TT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/types.h"

enum { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT };

#define TT_BUCKET 4
#define TT_AGE_WEIGHT 8

typedef struct {
    _Atomic uint64_t keyx, data;
} TTSlot;

typedef struct {
    TTSlot slot[TT_BUCKET];
} TTBucket;

typedef struct {
    TTBucket *buckets;  /* from bigmem_alloc */
    size_t mask;        /* bucket count - 1 (a power of two) */
    unsigned generation; /* of the current search, 6 bits */
    unsigned epoch;      /* counts the clears (8 bits): entries of other epochs are empty */
    bool touched;        /* every page written since the last resize (tt_touch) */
} TT;

/* What a probe finds. */
typedef struct {
    Move move;
    int score, depth, bound;
} TTEntry;

/* Resizes to the largest power of two of buckets fitting in `megabytes`; clears it. */
bool tt_resize(TT *tt, size_t megabytes);
void tt_clear(TT *tt);
/* Writes every page of the table once (the first time after a resize), so that the searches
 * which follow meet no page faults in it. */
void tt_touch(TT *tt);
void tt_free(TT *tt);
/* A new search: entries of earlier ones become older. */
void tt_new_search(TT *tt);
/* Asks the processor to bring the key's bucket into the cache: called as soon as a position's
 * key is known, so that the probe which follows finds it there. */
static inline void tt_prefetch(const TT *tt, uint64_t key)
{
    __builtin_prefetch(&tt->buckets[key & tt->mask]);
}
/* The entry of the position with this key, if the table has it. */
bool tt_probe(const TT *tt, uint64_t key, TTEntry *out);
void tt_store(TT *tt, uint64_t key, Move move, int score, int depth, int bound);
/* Per mille of a sample of entries written by the current search. */
int tt_hashfull(const TT *tt);

#endif
