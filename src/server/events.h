/*
 * Server-Sent Events: GET /api/games/ID/events, on the streams of stream.h (which also watches
 * for clients that hang up and sends the keep-alives: a comment after 15 s without an event).
 * The module observes the game service: when a game changes, its new state (one message,
 * shared by every stream of the game) is queued for each of the game's streams.  A stream
 * holds a reference to its game, let go of when it ends.  events_start starts stream.c too.
 */
#ifndef STARFISH_SERVER_EVENTS_H
#define STARFISH_SERVER_EVENTS_H

#include <microhttpd.h>

#include "game_service.h"

#define EVENTS_KEEPALIVE_MS 15000

/* Observes the game service and starts the watching thread (at start). */
bool events_start(void);
/* A stream of g's states for a request on connection c (the stream holds a reference to g
 * of its own).  NULL with *status and message set when it cannot be opened. */
struct MHD_Response *events_open(LiveGame *g, struct MHD_Connection *c, GameStatus *status, char *message,
                                 size_t len);
/* Ends every stream, and every stream opened from now on at once (shutdown). */
void events_close_all(void);
/* Has events_close_all been called? */
bool events_closed(void);
/* How many streams are open. */
int events_count(void);
/* Stops the watching thread (after the HTTP daemon has stopped). */
void events_stop(void);

#endif
