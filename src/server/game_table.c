#include "game_table.h"

#include <string.h>

#include "util.h"

#define BUCKETS 4096

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static LiveGame *buckets[BUCKETS]; /* chains through LiveGame.next */
static int count;

static LiveGame **bucket_of(const char *id)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)id; *p; p++)
        h = (h ^ *p) * 16777619u;
    return &buckets[h % BUCKETS];
}

void table_hold(LiveGame *g)
{
    atomic_fetch_add(&g->refs, 1);
}

void table_release(LiveGame *g)
{
    /* Stamped before the reference goes, so that an evictor seeing no reference sees it. */
    atomic_store(&g->used_ms, clock_ms());
    atomic_fetch_sub(&g->refs, 1);
}

/* The game with that id (the table locked), or NULL. */
static LiveGame *find_locked(const char *id)
{
    LiveGame *g = *bucket_of(id);
    while (g && strcmp(g->id, id) != 0)
        g = g->next;
    return g;
}

LiveGame *table_find(const char *id)
{
    pthread_mutex_lock(&lock);
    LiveGame *g = find_locked(id);
    if (g)
        table_hold(g);
    pthread_mutex_unlock(&lock);
    return g;
}

LiveGame *table_add(LiveGame *g)
{
    pthread_mutex_lock(&lock);
    LiveGame *there = find_locked(g->id);
    if (!there) {
        LiveGame **b = bucket_of(g->id);
        g->next = *b;
        *b = g;
        count++;
        there = g;
    }
    table_hold(there);
    pthread_mutex_unlock(&lock);
    return there;
}

void table_each(void (*fn)(LiveGame *g, void *ctx), void *ctx)
{
    pthread_mutex_lock(&lock);
    for (int b = 0; b < BUCKETS; b++)
        for (LiveGame *g = buckets[b]; g; g = g->next)
            fn(g, ctx);
    pthread_mutex_unlock(&lock);
}

/* The reference count is read first: with none left and the table locked nobody else can
 * reach g, so can_go reads the rest without g's lock. */
int table_evict(bool (*can_go)(const LiveGame *g, void *ctx), void *ctx)
{
    int evicted = 0;
    pthread_mutex_lock(&lock);
    for (int b = 0; b < BUCKETS; b++)
        for (LiveGame **p = &buckets[b]; *p;) {
            LiveGame *g = *p;
            if (atomic_load(&g->refs) == 0 && can_go(g, ctx)) {
                *p = g->next;
                live_free(g);
                evicted++;
            } else {
                p = &g->next;
            }
        }
    count -= evicted;
    pthread_mutex_unlock(&lock);
    return evicted;
}

int table_size(void)
{
    pthread_mutex_lock(&lock);
    int n = count;
    pthread_mutex_unlock(&lock);
    return n;
}

void table_free_all(void)
{
    pthread_mutex_lock(&lock);
    for (int b = 0; b < BUCKETS; b++)
        while (buckets[b]) {
            LiveGame *g = buckets[b];
            buckets[b] = g->next;
            live_free(g);
        }
    count = 0;
    pthread_mutex_unlock(&lock);
}
