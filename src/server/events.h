/*
 * Server-Sent Events: GET /api/games/ID/events.  Each stream is a subscriber to one game; the
 * module observes the game service and, when a game changes, queues its new state (one
 * message, shared by every subscriber of the game) for each of the game's subscribers.  A
 * subscriber has an eventfd that wakes its connection thread; the stream is produced by an
 * MHD callback that waits (thread-per-connection) until there is something to send, writes
 * a keep-alive comment every 15 s, and ends as soon as the client hangs up (POLLRDHUP on its
 * socket), when the subscriber is freed and lets go of its game.
 */
#ifndef STARFISH_SERVER_EVENTS_H
#define STARFISH_SERVER_EVENTS_H

#include <microhttpd.h>

#include "game_service.h"

#define EVENTS_KEEPALIVE_MS 15000

/* Observes the game service (at start). */
bool events_start(void);
/* A stream of g's states for a request (the stream holds a reference to g of its own); sock
 * is the client's socket (to notice a hang-up), or -1.  NULL with *status and message set
 * when it cannot be opened. */
struct MHD_Response *events_open(LiveGame *g, int sock, GameStatus *status, char *message, size_t len);
/* Ends every stream, and every stream opened from now on at once (shutdown). */
void events_close_all(void);
/* Has events_close_all been called? */
bool events_closed(void);

#endif
