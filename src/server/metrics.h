/*
 * The server's numbers for Prometheus: GET /metrics, in Prometheus's text format (version
 * 0.0.4).  Counters are counted as things happen (requests by route and status, their
 * durations, store errors, PostgreSQL pool use), with atomics and no lock; gauges are read
 * when the page is asked for (games live and stored, event streams, engine searches and
 * their queue, the process's memory, threads and CPU time).  docs/deploy.md says what each
 * means and what to alert on.
 *
 * Who may read it: with --metrics-token-file, whoever sends `Authorization: Bearer TOKEN`;
 * without, a client on this machine (a loopback address) whose request no proxy passed on
 * (no X-Forwarded-For, no Forwarded header), since a proxy on this machine would pass on the
 * world's requests from a loopback address.
 */
#ifndef STARFISH_SERVER_METRICS_H
#define STARFISH_SERVER_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#include "store.h"

/* The store whose games are counted (at start; NULL: none). */
void metrics_start(Store *store);
/* Reads the bearer token that opens /metrics to any address from a file (its first line);
 * false with err set when the file cannot be read or the token is shorter than 16 bytes. */
bool metrics_use_token_file(const char *path, char *err, size_t errlen);

/* Adds a route's pattern ("/api/games/{id}/moves": a {name} segment matches any one), at
 * start, before any request; `stream`: its answers are event streams (counted, not timed). */
void metrics_add_route(const char *pattern, bool stream);
/* The label of a request's route: the path's pattern ("/api/games/{id}/moves"), "static"
 * for the web client's files, "/api/other" for a path no route has.  A fixed set, so that no
 * client can make new series.  `target` is the raw request target (its query is ignored). */
const char *metrics_route(const char *target);
/* A request answered with `status` (0: none) in `seconds` from its start to its end; an event
 * stream's duration is its life, so streams are counted but not timed. */
void metrics_request(const char *route, unsigned status, double seconds);

/* A statement of the store failed (called where the stores log their errors). */
void metrics_store_error(void);
/* The PostgreSQL store's pool: its size, and a connection taken (+1) or given back (-1). */
void metrics_db_pool_size(int connections);
void metrics_db_pool_use(int change);

/* May this request read the metrics?  0 when it may, else the status to answer (401: a token
 * is needed and was not given right; 403: not from this machine). */
unsigned metrics_refusal(bool from_loopback, bool proxied, const char *authorization);
/* The page (malloc'ed), NULL when memory runs out. */
char *metrics_text(void);

#define METRICS_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

#endif
