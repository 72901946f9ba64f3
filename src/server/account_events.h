/*
 * An account's events, in lichess's shapes: GET /api/stream/event, NDJSON (a JSON object a
 * line, an empty line as a keep-alive every 7 s), on the streams of stream.h.  Its games'
 * starts and ends (gameStart, gameFinish) and the challenges it sends and receives
 * (challenge, challengeCanceled, challengeDeclined).  On connecting, its games that go on are
 * announced again (gameStart).  An event published on one instance reaches the account's
 * streams on every instance (relay.h).
 */
#ifndef STARFISH_SERVER_ACCOUNT_EVENTS_H
#define STARFISH_SERVER_ACCOUNT_EVENTS_H

#include <jansson.h>
#include <microhttpd.h>

#include "account_service.h"

#define ACCOUNT_EVENTS_KEEPALIVE_MS 7000

/* Observes the game service (gameStart, gameFinish), at start; false when it cannot. */
bool account_events_start(void);
/* An event for account user_id (taken over: freed), to its streams on every instance. */
void account_events_publish(const char *user_id, json_t *event);
/* The stream of the principal's events for a request on connection c; NULL with *status (401,
 * 503) and err set when it cannot be opened. */
struct MHD_Response *account_events_open(const Principal *p, struct MHD_Connection *c, unsigned *status, char *err,
                                         size_t len);
/* The accounts with a stream open on this instance (an account once a stream; *ids malloc'ed);
 * false when memory runs out. */
typedef char UserIdText[USER_ID_MAX + 1];
bool account_events_online(UserIdText **ids, int *n);
/* How many accounts' streams are open. */
int account_events_count(void);
/* Is an account's stream open on this instance? */
bool account_events_listening(const char *user_id);

#endif
