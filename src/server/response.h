/*
 * HTTP responses of the server: JSON, errors as {"error": "..."}, texts.  Each one that
 * cannot be made for lack of memory is sent as 503 {"error": "out of memory"} instead, from a
 * response made at start that needs no memory to send.
 */
#ifndef STARFISH_SERVER_RESPONSE_H
#define STARFISH_SERVER_RESPONSE_H

#include <jansson.h>
#include <microhttpd.h>
#include <stdbool.h>

/* Makes the 503 kept for when memory runs out; false when it cannot. */
bool response_start(void);
void response_stop(void);

/* Adds the headers of every response of ours (content type, caching, ...); false when
 * memory ran out. */
bool response_headers(struct MHD_Response *r, const char *type, const char *cache, const char *disposition);
/* A JSON response made ready to send later (taken over: `body`), NULL when memory runs out;
 * http_send sends one (NULL: the 503) and lets go of it. */
struct MHD_Response *http_json_response(json_t *body);
enum MHD_Result http_send(struct MHD_Connection *c, unsigned status, struct MHD_Response *r);
/* An empty response (for 204), NULL when memory runs out. */
struct MHD_Response *http_empty_response(void);
/* r with one more header (NULL stays NULL; when the header cannot be added, r is let go of
 * and NULL returned). */
struct MHD_Response *http_with_header(struct MHD_Response *r, const char *header, const char *value);
/* http_json takes over `body`; http_text takes over `text` (freed with free()). */
enum MHD_Result http_json(struct MHD_Connection *c, unsigned status, json_t *body);
enum MHD_Result http_error(struct MHD_Connection *c, unsigned status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
enum MHD_Result http_text(struct MHD_Connection *c, unsigned status, const char *content_type, char *text,
                          const char *disposition);
/* An error with one more header (401 with WWW-Authenticate). */
enum MHD_Result http_error_header(struct MHD_Connection *c, unsigned status, const char *header, const char *value,
                                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* 429 with Retry-After: retry_s. */
enum MHD_Result http_too_many(struct MHD_Connection *c, int retry_s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* An error after which the connection is closed (its framing cannot be trusted). */
enum MHD_Result http_refuse(struct MHD_Connection *c, unsigned status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A streamed response of content type `type` (Server-Sent Events, NDJSON) whose text `reader`
 * gives (from cls, which `done` lets go of when the response ends); NULL when memory runs out,
 * `done` having been called. */
struct MHD_Response *http_stream_response(const char *type, MHD_ContentReaderCallback reader, void *cls,
                                          MHD_ContentReaderFreeCallback done);
/* How many streamed responses libmicrohttpd still holds (sending, or waiting to). */
int http_streams_held(void);
/* For an event stream's reader with nothing to send: the end of the stream, or 0 with the
 * connection suspended (and *suspended set) until there is more. */
ssize_t http_stream_idle(struct MHD_Connection *c, bool ended, bool *suspended);
/* Gives the whole pages of the reader's buffer (buf, max bytes: what it was handed to write
 * into) back to the system, for a stream that waits: see response.c. */
void http_stream_trim(char *buf, size_t max);
/* 405 with the Allow header. */
enum MHD_Result http_method_not_allowed(struct MHD_Connection *c, const char *allow);

#endif
