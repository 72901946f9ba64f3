#include "game_presence.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live_game.h"
#include "store_presence.h"
#include "util.h"

/* A side of a game with streams here, and what they were last told of its opponent. */
struct Presence {
    char game_id[GAME_ID_LEN + 1];
    int side;
    int streams;
    bool heard_gone;    /* what it heard last: gone, */
    bool heard_claim;   /* and the claim open */
    Presence *next;
};

static Store *store;
static int64_t claim_after_ms = PRESENCE_CLAIM_AFTER_MS;
#define LISTENERS_MAX 4
static PresenceNews listeners[LISTENERS_MAX];
static int nlisteners;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static Presence *present;
static _Atomic int64_t next_round;

void presence_start(Store *s, int64_t claim_after)
{
    store = s;
    claim_after_ms = claim_after;
}

void presence_observe(PresenceNews listener)
{
    if (nlisteners < LISTENERS_MAX) /* at start, before the clock thread's first round */
        listeners[nlisteners++] = listener;
}

static Presence *find(const char *game_id, int side)
{
    for (Presence *p = present; p; p = p->next)
        if (p->side == side && strcmp(p->game_id, game_id) == 0)
            return p;
    return NULL;
}

static void note(const char *game_id, int side, int64_t seen)
{
    PresenceMark mark = {game_id, side, seen};
    if (store_presence_note(store, &mark, 1) != STORE_OK)
        fprintf(stderr, "starfish: game %s: a player's presence was not noted (the store failed)\n", game_id);
}

Presence *presence_enter(const char *game_id, int side)
{
    pthread_mutex_lock(&lock);
    Presence *p = find(game_id, side);
    if (!p && (p = calloc(1, sizeof *p))) {
        snprintf(p->game_id, sizeof p->game_id, "%s", game_id);
        p->side = side;
        p->next = present;
        present = p;
    }
    if (p)
        p->streams++;
    pthread_mutex_unlock(&lock);
    if (p)
        note(game_id, side, util_now_ms());
    return p;
}

void presence_leave(Presence *p)
{
    char game_id[GAME_ID_LEN + 1];
    int side = p->side;
    pthread_mutex_lock(&lock);
    bool last = --p->streams == 0;
    if (last) {
        Presence **at = &present;
        while (*at != p)
            at = &(*at)->next;
        *at = p->next;
        memcpy(game_id, p->game_id, sizeof game_id);
        free(p);
    }
    pthread_mutex_unlock(&lock);
    if (last) /* gone a round from now, unless a stream on another instance renews it */
        note(game_id, side, util_now_ms() - PRESENCE_GONE_MS + PRESENCE_EVERY_MS);
}

/* Whether `side`, last seen as `seen` says (-1: never), is gone at `now`; *claim_at: when its
 * opponent may claim. */
static bool gone_from(const int64_t seen[2], int side, int64_t now, int64_t *claim_at)
{
    *claim_at = seen[side] + PRESENCE_GONE_MS + claim_after_ms;
    return seen[side] >= 0 && now - seen[side] > PRESENCE_GONE_MS;
}

int presence_gone(const char *game_id, int side, int64_t now, int64_t *claim_at)
{
    int64_t seen[2];
    if (!store_presence_read(store, game_id, seen))
        return -1;
    return gone_from(seen, side, now, claim_at);
}

/* What a round found of one side's opponent, and whether the side hears it. */
typedef struct Finding {
    char game_id[GAME_ID_LEN + 1];
    int side;
    bool gone;
    int claim_in_s;
} Finding;

/* The sides with streams here, copied (*n of them, malloc'ed; NULL when none or out of memory). */
static Finding *copy_present(int *n)
{
    pthread_mutex_lock(&lock);
    int count = 0;
    for (Presence *p = present; p; p = p->next)
        count++;
    Finding *f = count ? calloc((size_t)count, sizeof *f) : NULL;
    *n = f ? count : 0;
    int i = 0;
    for (Presence *p = present; f && p; p = p->next, i++) {
        memcpy(f[i].game_id, p->game_id, sizeof f[i].game_id);
        f[i].side = p->side;
    }
    pthread_mutex_unlock(&lock);
    return f;
}

static void renew(const Finding *f, int n, int64_t now)
{
    PresenceMark *marks = malloc((size_t)n * sizeof *marks);
    for (int i = 0; marks && i < n; i++)
        marks[i] = (PresenceMark){f[i].game_id, f[i].side, now};
    if (!marks || store_presence_note(store, marks, n) != STORE_OK)
        fprintf(stderr, "starfish: the players present were not noted (the store failed)\n");
    free(marks);
}

/* Whether the side heard its opponent's state already; if not, it is heard now. */
static bool heard_before(const Finding *f)
{
    pthread_mutex_lock(&lock);
    Presence *p = find(f->game_id, f->side);
    bool claim = f->gone && f->claim_in_s == 0;
    bool heard = !p || (p->heard_gone == f->gone && p->heard_claim == claim);
    if (!heard)
        p->heard_gone = f->gone, p->heard_claim = claim;
    pthread_mutex_unlock(&lock);
    return heard;
}

static int by_game(const void *a, const void *b)
{
    return strcmp(((const Finding *)a)->game_id, ((const Finding *)b)->game_id);
}

/* Reads the opponent of each side, and tells what changed: a game's row is read once a round,
 * however many of its sides stream here. */
static void tell(Finding *f, int n, int64_t now)
{
    qsort(f, (size_t)n, sizeof *f, by_game);
    int64_t seen[2];
    bool read = false;
    for (int i = 0; i < n; i++) {
        if (i == 0 || strcmp(f[i].game_id, f[i - 1].game_id) != 0)
            read = store_presence_read(store, f[i].game_id, seen);
        if (!read)
            continue;
        int64_t claim_at;
        f[i].gone = gone_from(seen, !f[i].side, now, &claim_at);
        f[i].claim_in_s = f[i].gone && claim_at > now ? (int)((claim_at - now + 999) / 1000) : 0;
        if (heard_before(&f[i]))
            continue;
        for (int l = 0; l < nlisteners; l++)
            listeners[l](f[i].game_id, f[i].side, f[i].gone, f[i].claim_in_s);
    }
}

void presence_sweep(int64_t now)
{
    int64_t due = atomic_load(&next_round);
    if (now < due || !atomic_compare_exchange_strong(&next_round, &due, now + PRESENCE_EVERY_MS))
        return;
    int n;
    Finding *f = copy_present(&n);
    if (!f)
        return;
    renew(f, n, now);
    tell(f, n, now);
    free(f);
}
