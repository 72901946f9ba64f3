/*
 * Server-Sent Events: GET /api/games/ID/events, on the streams of stream.h (which also watches
 * for clients that hang up and sends the keep-alives: a comment after 15 s without an event).
 * The module observes the game service: when a game changes, what changed (events_told.h: a
 * message per audience, shared by its streams) is queued for each of the game's streams.  A
 * stream holds a reference to its game, let go of when it ends.  events_start starts
 * stream.c too.
 */
#ifndef STARFISH_SERVER_EVENTS_H
#define STARFISH_SERVER_EVENTS_H

#include <microhttpd.h>

#include "game_service.h"

#define EVENTS_KEEPALIVE_MS 15000

/* Observes the game service and starts the watching thread (at start). */
bool events_start(void);
/* A stream of g's events for a request on connection c (the stream holds a reference to g of
 * its own): a player's, by its game token or its account (`user`, seated in g: NULL for
 * none), or else a spectator's.  NULL with *status and message set when it cannot be opened
 * (a token that is not a player's: GAME_NOT_A_PLAYER). */
struct MHD_Response *events_open(LiveGame *g, const char *token, const char *user, struct MHD_Connection *c,
                                 GameStatus *status, char *message, size_t len);
/* Ends every stream, and every stream opened from now on at once (shutdown). */
void events_close_all(void);
/* Has events_close_all been called? */
bool events_closed(void);
/* How many streams are open. */
int events_count(void);
/* Stops the watching thread (after the HTTP daemon has stopped). */
void events_stop(void);

#endif
