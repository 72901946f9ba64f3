/*
 * HTTP with libmicrohttpd: a fixed pool of HTTP_THREADS threads, each with its own epoll, for
 * every connection (event streams and requests that wait for the engine are suspended
 * meanwhile, holding no thread); request framing checked (framing.c); the per-address
 * connection limit (limits.c); request bodies up to 64 KiB (413 beyond); routing of /metrics
 * to metrics.c, of /api/ to api.c and of every other path to the static files of the web
 * directory (GET and HEAD only, content types by extension, no way out of the directory); and
 * when a request ends, its count and duration in the metrics and its line in the log.
 */
#ifndef STARFISH_SERVER_HTTP_H
#define STARFISH_SERVER_HTTP_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>

#define HTTP_BODY_MAX (64 * 1024)
#define HTTP_THREADS 4
/* Each connection's buffers, from which its request head must fit (431 beyond). */
#define HTTP_CONNECTION_MEMORY (16 * 1024)

/* What the HTTP daemon is told at start. */
typedef struct HttpOptions {
    const char *host; /* an IPv4 address */
    int port;         /* 0: any free port */
    const char *web_dir;
    int timeout_s;       /* a connection idle this long (a stalled client) is closed */
    int max_connections; /* open at once, from all addresses */
} HttpOptions;

/* Starts listening (the port bound written to *bound_port). */
bool http_start(const HttpOptions *o, int *bound_port, char *err, size_t errlen);
/* Stops the daemon, once the ended streams have sent their last events (or a few seconds
 * have passed), and waits for every connection thread. */
void http_stop(void);

#endif
