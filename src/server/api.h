/* The JSON API of docs/api.md (jansson): routing under /api/ and one handler per endpoint. */
#ifndef STARFISH_SERVER_API_H
#define STARFISH_SERVER_API_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/* Prepares what never changes (the variants' descriptions, the routes' metrics); false when
 * memory runs out. */
bool api_start(void);
/* Gives the metrics every route's path, their labels (api_start does). */
void api_routes_to_metrics(void);
/*
 * Answers a request under /api/ (the body is NUL-terminated, len bytes).  *state belongs to
 * the request (NULL at first): an endpoint that waits for the engine keeps its state there
 * and suspends the connection; libmicrohttpd calls again once the engine's answer resumes
 * it.  api_request_done frees the state when the request is over.  `client` is the client's
 * address (behind a trusted proxy, the one the proxy names; NULL when not known), for the
 * per-address limits and the login throttle; `https`: a trusted proxy says the client came
 * over TLS (the session cookie is then Secure, and the server's origin https).
 */
enum MHD_Result api_handle(struct MHD_Connection *c, const struct sockaddr *client, bool https, const char *method,
                           const char *url, const char *body, size_t len, void **state);
void api_request_done(void *state);

#endif
