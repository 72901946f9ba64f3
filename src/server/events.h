/*
 * Server-Sent Events: GET /api/games/ID/events.  Each subscriber has a queue of messages and
 * an eventfd that wakes its connection thread; the stream is produced by an MHD callback that
 * blocks (thread-per-connection) until there is something to send, writes a keep-alive
 * comment every 15 s, and ends as soon as the client hangs up (POLLRDHUP on its socket), when
 * the subscriber is unlinked from its game and freed (and lets go of its game).
 */
#ifndef STARFISH_SERVER_EVENTS_H
#define STARFISH_SERVER_EVENTS_H

#include <microhttpd.h>

#include "games.h"

#define EVENTS_KEEPALIVE_MS 15000

typedef struct Subscriber Subscriber;

/* Subscribes to g (g->lock held, by a holder of a reference) with `first` as the first
 * event's data; NULL on failure.  The subscriber holds a reference to g until it is freed.
 * sock is the client's socket (to notice a hang-up), or -1. */
Subscriber *events_subscribe(LiveGame *g, int sock, const char *first);
/* The streaming response for a subscriber; it owns the subscriber from then on. */
struct MHD_Response *events_response(Subscriber *s);
/* Sends `event: state` with data `json` to every subscriber of g (g->lock held). */
void events_publish(LiveGame *g, const char *json);
/* Ends every stream of g (g->lock held): at shutdown. */
void events_close(LiveGame *g);

#endif
