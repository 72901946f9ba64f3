/*
 * Whether a game's players are with it: lichess's opponentGone, and the claims it allows.
 *
 * A player is with a game while a stream of theirs for it is open, on whichever instance. The
 * instance that holds such a stream notes the time in the store when it opens and every
 * PRESENCE_EVERY_MS after; when its last one closes it leaves a time that runs out one round
 * later, unless a stream elsewhere renews it. A side unseen for PRESENCE_GONE_MS has gone.
 * Once it has been gone for the claim delay (serve --claim-after), its opponent may claim the
 * win, or a draw, in a game with a clock (service_claim, game_seats.c). Each round, the
 * streams here of a game whose opponent went or came back hear it (presence_observe).
 */
#ifndef STARFISH_SERVER_GAME_PRESENCE_H
#define STARFISH_SERVER_GAME_PRESENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "store.h"

#define PRESENCE_EVERY_MS 2000
#define PRESENCE_GONE_MS 6000
#define PRESENCE_CLAIM_AFTER_MS 20000 /* the default claim delay */

/* A side's streams of a game on this instance (one for them all). */
typedef struct Presence Presence;

/* What the streams here of `side` of game_id hear: their opponent has gone (and may be claimed
 * against in claim_in_s seconds, 0: now) or has come back. */
typedef void (*PresenceNews)(const char *game_id, int side, bool gone, int claim_in_s);

void presence_start(Store *store, int64_t claim_after_ms);
/* Adds a listener of the news (the board streams, the games' event streams). */
void presence_observe(PresenceNews news);
/* A stream of `side` in game_id (a game with a clock) opens; NULL when memory runs out. */
Presence *presence_enter(const char *game_id, int side);
/* The stream closes. */
void presence_leave(Presence *p);
/* A round, every PRESENCE_EVERY_MS (the clock thread calls it more often). */
void presence_sweep(int64_t now);
/* Whether `side` of game_id has gone (from the store), and from when a claim against it may be
 * made (*claim_at); -1 when the store cannot say. */
int presence_gone(const char *game_id, int side, int64_t now, int64_t *claim_at);

#endif
