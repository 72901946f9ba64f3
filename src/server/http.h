/*
 * HTTP with libmicrohttpd: one thread per connection (event streams block their own thread
 * only), request bodies up to 64 KiB (413 beyond), routing of /api/ to api.c and of every
 * other path to the static files of the web directory (GET and HEAD only, content types by
 * extension, no way out of the directory).
 */
#ifndef STARFISH_SERVER_HTTP_H
#define STARFISH_SERVER_HTTP_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>

#define HTTP_BODY_MAX (64 * 1024)

/* Starts listening on host:port (port 0: any free port, written to *bound_port). */
bool http_start(const char *host, int port, const char *web_dir, int *bound_port, char *err, size_t errlen);
/* Stops the daemon and waits for every connection thread. */
void http_stop(void);

#endif
