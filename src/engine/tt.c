#include "tt.h"

#include <string.h>

#include "../util/bigmem.h"

/* The data word: move (bits 0-23), score + 32768 (24-39), depth + 128 (40-47), bound
 * (48-49), generation (50-55), epoch (56-63). */
#define GENERATIONS 64
/* A stored result gives way to a shallower one for the same position only within this many
 * plies (quiescence stores results too, at depths 0 and below). */
#define TT_KEEP_DEEPER 3
#define EPOCHS 256

static uint64_t pack(Move move, int score, int depth, int bound, unsigned generation, unsigned epoch)
{
    return (uint64_t)(move & 0xffffff) | (uint64_t)(uint16_t)(score + 32768) << 24 |
           (uint64_t)(uint8_t)(depth + 128) << 40 | (uint64_t)bound << 48 | (uint64_t)generation << 50 |
           (uint64_t)epoch << 56;
}

/* A slot's two words as a cleared table would hold them: both zero when the slot was
 * written before the last tt_clear (another epoch). */
static void read_slot(const TT *tt, TTSlot *s, uint64_t *keyx, uint64_t *data)
{
    *data = atomic_load_explicit(&s->data, memory_order_relaxed);
    *keyx = atomic_load_explicit(&s->keyx, memory_order_relaxed);
    if (*data >> 56 != tt->epoch)
        *data = *keyx = 0;
}

static unsigned data_generation(uint64_t d)
{
    return (unsigned)(d >> 50) & (GENERATIONS - 1);
}

static int data_depth(uint64_t d)
{
    return (int)((d >> 40) & 255) - 128;
}

static int data_bound(uint64_t d)
{
    return (int)(d >> 48) & 3;
}

static TTBucket *bucket_of(const TT *tt, uint64_t key)
{
    return &tt->buckets[key & tt->mask];
}

bool tt_resize(TT *tt, size_t megabytes)
{
    size_t bytes = megabytes ? megabytes << 20 : sizeof(TTBucket);
    size_t count = 1;
    while (count * 2 * sizeof(TTBucket) <= bytes)
        count *= 2;
    /* Zero pages, written only when used (or by tt_touch): a new engine with a big table
     * starts at once. */
    TTBucket *buckets = bigmem_alloc(count * sizeof(TTBucket));
    if (!buckets)
        return false;
    tt_free(tt);
    tt->buckets = buckets;
    tt->mask = count - 1;
    tt->generation = tt->epoch = 0;
    tt->touched = false;
    return true;
}

/* In O(1): entries of earlier epochs read as empty.  Once in EPOCHS clears the epoch comes
 * round again, and the table is really emptied. */
void tt_clear(TT *tt)
{
    tt->epoch = (tt->epoch + 1) % EPOCHS;
    if (tt->epoch == 0)
        memset(tt->buckets, 0, (tt->mask + 1) * sizeof(TTBucket));
    tt->generation = 0;
}

/* The system gives a page its memory when it is first written, and that first write can be
 * slow: on a fresh virtual machine the first searches of a 16 MB table spent 20-75 ms in page
 * faults, one huge page zeroed per new bucket reached.  Front ends call this when they are
 * told to get ready (UCI's `isready`), so that no timed search pays it. */
void tt_touch(TT *tt)
{
    if (tt->touched)
        return;
    memset(tt->buckets, 0, (tt->mask + 1) * sizeof(TTBucket));
    tt->touched = true;
}

void tt_free(TT *tt)
{
    bigmem_free(tt->buckets, (tt->mask + 1) * sizeof(TTBucket));
    memset(tt, 0, sizeof *tt);
}

void tt_new_search(TT *tt)
{
    tt->generation = (tt->generation + 1) & (GENERATIONS - 1);
}

bool tt_probe(const TT *tt, uint64_t key, TTEntry *out)
{
    TTBucket *b = bucket_of(tt, key);
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t data, keyx;
        read_slot(tt, &b->slot[i], &keyx, &data);
        if ((keyx ^ data) != key || data_bound(data) == BOUND_NONE)
            continue;
        out->move = (Move)(data & 0xffffff);
        out->score = (int)((data >> 24) & 0xffff) - 32768;
        out->depth = data_depth(data);
        out->bound = data_bound(data);
        return true;
    }
    return false;
}

/* How much an entry is worth keeping: its depth, less its age in searches. */
static int worth(const TT *tt, uint64_t data)
{
    unsigned age = (tt->generation - data_generation(data)) & (GENERATIONS - 1);
    return data_bound(data) == BOUND_NONE ? -1000 : data_depth(data) - TT_AGE_WEIGHT * (int)age;
}

void tt_store(TT *tt, uint64_t key, Move move, int score, int depth, int bound)
{
    TTBucket *b = bucket_of(tt, key);
    TTSlot *victim = &b->slot[0];
    int victim_worth = 1 << 30;
    for (int i = 0; i < TT_BUCKET; i++) {
        TTSlot *s = &b->slot[i];
        uint64_t data, keyx;
        read_slot(tt, s, &keyx, &data);
        if ((keyx ^ data) == key) {
            /* The same position: a much deeper result of this search stays unless this one
             * is exact, and its move is kept if this has none. */
            if (bound != BOUND_EXACT && depth + TT_KEEP_DEEPER < data_depth(data) &&
                data_generation(data) == tt->generation)
                return;
            if (!move)
                move = (Move)(data & 0xffffff);
            victim = s;
            break;
        }
        int w = worth(tt, data);
        if (w < victim_worth) {
            victim = s;
            victim_worth = w;
        }
    }
    uint64_t data = pack(move, score, depth, bound, tt->generation, tt->epoch);
    atomic_store_explicit(&victim->data, data, memory_order_relaxed);
    atomic_store_explicit(&victim->keyx, key ^ data, memory_order_relaxed);
}

int tt_hashfull(const TT *tt)
{
    size_t buckets = tt->mask + 1 < 250 ? tt->mask + 1 : 250, used = 0;
    for (size_t i = 0; i < buckets; i++)
        for (int k = 0; k < TT_BUCKET; k++) {
            uint64_t data, keyx;
            read_slot(tt, &tt->buckets[i].slot[k], &keyx, &data);
            used += data_bound(data) != BOUND_NONE && data_generation(data) == tt->generation;
        }
    return (int)(used * 1000 / (buckets * TT_BUCKET));
}
