/*
 * Seeks in the store (store_seeks.c), on any backend: accounts looking for an opponent.  A
 * pairing takes a seek out in one statement (DELETE ... RETURNING), so that of two seekers
 * reaching for one seek at once, on two instances, one gets it.
 */
#ifndef STARFISH_SERVER_STORE_SEEKS_H
#define STARFISH_SERVER_STORE_SEEKS_H

#include <stdbool.h>
#include <stdint.h>

#include "store.h"

typedef struct SeekRow {
    char id[STORE_ID_MAX + 1];
    char user[USER_ID_MAX + 1], username[USER_ID_MAX + 1];
    char variant[32];
    bool rated;
    bool has_clock;
    int limit_s, increment_s;
    int days;      /* correspondence; 0: none */
    char color[8]; /* the seeker's: "white", "black" or "random" */
    int rating;    /* the seeker's, in the variant */
    int rating_min, rating_max; /* the opponents it accepts; 0: any */
    int64_t created_ms;
    int64_t alive_ms; /* a real-time seek's last sign of life; 0: correspondence */
} SeekRow;

StoreResult store_seek_insert(Store *s, const SeekRow *k);
/* Takes out the oldest seek that pairs with k (another account's, alive since `alive_since`,
 * the same variant, clock or days and rated flag, each in the other's rating range, colours that
 * fit) into *match: 1 taken, 0 none, -1 error. */
int store_seek_take_match(Store *s, const SeekRow *k, int64_t alive_since, SeekRow *match);
/* Takes out seek id (any account's but `not_user`'s, alive since alive_since): 1 taken, 0
 * none, -1 error. */
int store_seek_take(Store *s, const char *id, const char *not_user, int64_t alive_since, SeekRow *match);
/* Takes out the account's seek id (its canceling, or its request's end): 1, 0 or -1. */
int store_seek_remove(Store *s, const char *id, const char *user_id);
/* Marks the seek alive at `now`; and removes the real-time seeks not alive since `before`
 * (*expired: how many). */
StoreResult store_seek_touch(Store *s, const char *id, int64_t now);
StoreResult store_seeks_expire(Store *s, int64_t before, long *expired);
/* Is seek id still waiting?  (true on an error: the caller keeps waiting, as the seek's
 * request would) */
bool store_seek_waits(Store *s, const char *id);
/* The seeks alive since alive_since, oldest first (*rows malloc'ed). */
bool store_seeks(Store *s, int64_t alive_since, SeekRow **rows, int *n);

#endif
