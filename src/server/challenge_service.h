/*
 * Challenges: an account invites another (or anyone logged in: an open challenge) to a game
 * of a variant, a clock or days a move, a colour, rated or not; the invited accepts (the game,
 * whose id is the challenge's, starts: both accounts hear gameStart), declines with a reason,
 * or the challenger cancels.  Each side hears of it on its event stream (challenge,
 * challengeDeclined, challengeCanceled), in lichess's shapes.  Answers in domain terms; the
 * HTTP layer (api_challenges.c) turns them into status codes.
 */
#ifndef STARFISH_SERVER_CHALLENGE_SERVICE_H
#define STARFISH_SERVER_CHALLENGE_SERVICE_H

#include <jansson.h>

#include "account_service.h"
#include "store_challenges.h"

typedef enum ChallengeStatus {
    CHALLENGE_OK,
    CHALLENGE_BAD,       /* options the rules refuse (400) */
    CHALLENGE_DENIED,    /* not logged in (401) */
    CHALLENGE_FORBIDDEN, /* not the account's challenge to answer (403) */
    CHALLENGE_NOT_FOUND, /* no such challenge or account (404) */
    CHALLENGE_CLOSED,    /* no longer open: accepted, declined or canceled (409) */
    CHALLENGE_FAILED,    /* the store failed, or memory or randomness ran out (503) */
} ChallengeStatus;

/* What a challenge asks for. */
typedef struct ChallengeOptions {
    const Variant *v;
    bool rated;
    bool has_clock;
    int limit_s, increment_s;
    int days;          /* correspondence: 1, 2, 3, 5, 7, 10 or 14; 0: none */
    const char *color; /* the challenger's: "white", "black" or "random" */
    const char *fen;   /* a casual game's start, or NULL */
} ChallengeOptions;

#define CHALLENGE_MESSAGE_MAX 200

/* Starts the service on a store. */
void challenge_start(Store *store);
/* A challenge from p to account `dest` (any case; NULL: open to anyone logged in) in *c. */
ChallengeStatus challenge_create(const Principal *p, const char *dest, const ChallengeOptions *o, ChallengeRow *c,
                                 char *message);
/* The challenge with that id. */
ChallengeStatus challenge_find(const char *id, ChallengeRow *c, char *message);
/* p accepts challenge id: the game (its id the challenge's) starts. */
ChallengeStatus challenge_accept(const Principal *p, const char *id, char *message);
/* p, challenged, declines (reason: lichess's key, "generic" when NULL); p, the challenger, cancels. */
ChallengeStatus challenge_decline(const Principal *p, const char *id, const char *reason, char *message);
ChallengeStatus challenge_cancel(const Principal *p, const char *id, char *message);
/* The open challenges p sent and received (*rows malloc'ed). */
ChallengeStatus challenge_list(const Principal *p, ChallengeRow **rows, int *n, char *message);
/* A challenge in lichess's shape (ChallengeJson), its direction as `viewer` (an account's id, or
 * NULL) sees it; NULL when memory runs out. */
json_t *challenge_json(const ChallengeRow *c, const char *viewer);

#endif
