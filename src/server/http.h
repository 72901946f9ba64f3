/*
 * HTTP with libmicrohttpd: one thread per connection (event streams block their own thread
 * only), request bodies up to 64 KiB (413 beyond), routing of /api/ to api.c and of every
 * other path to the static files of the web directory (GET and HEAD only, content types by
 * extension, no way out of the directory).
 */
#ifndef STARFISH_SERVER_HTTP_H
#define STARFISH_SERVER_HTTP_H

#include <jansson.h>
#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>

#define HTTP_BODY_MAX (64 * 1024)

/* Starts listening on host:port (port 0: any free port, written to *bound_port). */
bool http_start(const char *host, int port, const char *web_dir, int *bound_port, char *err, size_t errlen);
/* Refuses new event streams from now on (shutdown has begun). */
void http_begin_shutdown(void);
bool http_shutting_down(void);
/* Stops the daemon and waits for every connection thread. */
void http_stop(void);

/* Responses.  http_json takes over `body`. */
enum MHD_Result http_json(struct MHD_Connection *c, unsigned status, json_t *body);
enum MHD_Result http_error(struct MHD_Connection *c, unsigned status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Sends a text that the response takes over (freed with free()). */
enum MHD_Result http_text(struct MHD_Connection *c, unsigned status, const char *content_type, char *text,
                          const char *disposition);
/* 405 with the Allow header. */
enum MHD_Result http_method_not_allowed(struct MHD_Connection *c, const char *allow);

#endif
