/*
 * Seeks and the lobby: an account looks for an opponent of a variant, a clock (or days a move)
 * and a rated flag, within a rating range and a colour.  A seek that meets a compatible one
 * (another account's, each in the other's range, colours that fit) pairs with it at once: the
 * game starts and both accounts hear gameStart; otherwise it waits in the lobby, a real-time
 * one while its request stays open, a correspondence one until paired or canceled.  Every
 * instance shares the seeks (the store takes a paired seek out in one statement) and the
 * lobby's news (relay.h: the topic "lobby").
 */
#ifndef STARFISH_SERVER_SEEK_SERVICE_H
#define STARFISH_SERVER_SEEK_SERVICE_H

#include <jansson.h>

#include "account_service.h"
#include "store_seeks.h"

#define SEEK_ALIVE_MS 20000  /* a real-time seek not renewed this long is gone (its instance died) */
#define SEEK_RENEW_MS 5000   /* how often an instance renews its real-time seeks */
#define SEEK_MESSAGE_MAX 200

typedef enum SeekStatus {
    SEEK_OK,
    SEEK_BAD,       /* options the rules refuse (400) */
    SEEK_DENIED,    /* not logged in (401) */
    SEEK_NOT_FOUND, /* no such seek open (404) */
    SEEK_FAILED,    /* the store failed, or memory or randomness ran out (503) */
} SeekStatus;

typedef struct SeekOptions {
    const Variant *v;
    bool rated;
    bool has_clock;
    int limit_s, increment_s;
    int days;          /* correspondence: 1, 2, 3, 5, 7, 10 or 14; 0: a clock */
    const char *color; /* "white", "black" or "random" */
    int rating_min, rating_max; /* 0: any */
} SeekOptions;

void seek_start(Store *store);
/* p seeks: *paired when a compatible seek was there (the game started, its id in game_id);
 * else the seek waits, in *k.  A real-time seek is alive while its request stays open: the
 * caller says seek_abandoned when it ends. */
SeekStatus seek_create(const Principal *p, const SeekOptions *o, SeekRow *k, bool *paired,
                       char game_id[STORE_ID_MAX + 1], char *message);
/* p takes another account's waiting seek id (the lobby's one click): the game starts. */
SeekStatus seek_accept(const Principal *p, const char *id, char game_id[STORE_ID_MAX + 1], char *message);
/* p cancels its seek id. */
SeekStatus seek_cancel(const Principal *p, const char *id, char *message);
/* Is seek id still waiting (not paired, canceled or gone)? */
bool seek_waits(const char *id);
/* A real-time seek's request ended (its client left): the seek goes, if still there. */
void seek_abandoned(const char *id, const char *user_id);
/* The lobby: the waiting seeks as JSON, oldest first; NULL when the store fails. */
json_t *seek_lobby_json(void);
/* For the clock thread: renews this instance's real-time seeks and drops the others' that
 * died (every SEEK_RENEW_MS at most). */
void seek_sweep(int64_t now);

#endif
