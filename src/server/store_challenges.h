/*
 * Challenges in the store (store_challenges.c), on any backend: an account's invitation to a
 * game, to another account or open to anyone logged in, until it is accepted (its id becomes
 * the game's: store_insert_game marks it so in the game's transaction), declined or canceled.
 */
#ifndef STARFISH_SERVER_STORE_CHALLENGES_H
#define STARFISH_SERVER_STORE_CHALLENGES_H

#include <stdbool.h>
#include <stdint.h>

#include "store.h"

#define CHALLENGE_REASON_MAX 32

typedef struct ChallengeRow {
    char id[STORE_ID_MAX + 1];
    char challenger[USER_ID_MAX + 1], challenger_name[USER_ID_MAX + 1];
    char dest[USER_ID_MAX + 1], dest_name[USER_ID_MAX + 1]; /* "": an open challenge */
    BotKind challenger_bot, dest_bot;
    char variant[32];
    bool rated;
    bool has_clock;
    int limit_s, increment_s;
    int days; /* correspondence; 0: none */
    char color[8]; /* the challenger's: "white", "black" or "random" */
    char fen[FEN_MAX]; /* "": the variant's start */
    char status[12];   /* "created", "canceled", "declined", "accepted" */
    char decline_reason[CHALLENGE_REASON_MAX];
    int64_t created_ms;
} ChallengeRow;

/* A new challenge (its id unused by any game or challenge: store_id_taken and
 * store_challenge_id_taken); STORE_CONFLICT when the id is taken meanwhile. */
StoreResult store_challenge_insert(Store *s, const ChallengeRow *c);
/* Is the id a challenge's?  (true on an error, to stay safe) */
bool store_challenge_id_taken(Store *s, const char *id);
/* The challenge with that id: 1 found, 0 not, -1 error. */
int store_challenge_get(Store *s, const char *id, ChallengeRow *c);
/* The open challenges that account user_id sent or received, newest first (*rows malloc'ed). */
bool store_challenges_of(Store *s, const char *user_id, ChallengeRow **rows, int *n);
/* Ends an open challenge: `status` "declined" (with a reason) or "canceled"; STORE_CONFLICT when
 * it is no longer open. */
StoreResult store_challenge_end(Store *s, const char *id, const char *status, const char *reason);

#endif
