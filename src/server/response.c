#include "response.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"

#define JSON_TYPE "application/json; charset=utf-8"
/* The buffer libmicrohttpd copies a stream through when it cannot send chunks (HTTP/1.0), per
 * stream: its events are small. */
#define STREAM_BLOCK 1024

/* The answer when memory runs out, made at start: it needs no memory to send. */
static struct MHD_Response *no_memory;
static const char no_memory_body[] = "{\"error\":\"out of memory\"}";

bool response_start(void)
{
    no_memory = MHD_create_response_from_buffer(sizeof no_memory_body - 1, (void *)no_memory_body,
                                                MHD_RESPMEM_PERSISTENT);
    return no_memory && response_headers(no_memory, JSON_TYPE, "no-store", NULL);
}

void response_stop(void)
{
    if (no_memory)
        MHD_destroy_response(no_memory);
    no_memory = NULL;
}

/* 503 {"error": "out of memory"}, from the response made at start. */
static enum MHD_Result send_no_memory(struct MHD_Connection *c)
{
    return MHD_queue_response(c, MHD_HTTP_SERVICE_UNAVAILABLE, no_memory);
}

bool response_headers(struct MHD_Response *r, const char *type, const char *cache, const char *disposition)
{
    static const char *const security[][2] = {
        /* Scripts, styles, images and connections from this server only; no inline script,
         * no framing, no plugins.  Style attributes are allowed (the UI sets a few). */
        {"Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; "
                                    "style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
                                    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"},
        {"X-Content-Type-Options", "nosniff"},
        {"Referrer-Policy", "no-referrer"}, /* invite links carry tokens */
        {"X-Frame-Options", "DENY"},
    };
    bool ok = MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type) == MHD_YES &&
              MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, cache) == MHD_YES &&
              (!disposition || MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_DISPOSITION, disposition) == MHD_YES);
    for (size_t i = 0; ok && i < sizeof security / sizeof security[0]; i++)
        ok = MHD_add_response_header(r, security[i][0], security[i][1]) == MHD_YES;
    return ok;
}

/* A response with a malloc'ed text (taken over); NULL when memory runs out. */
static struct MHD_Response *text_response(char *text, const char *type, const char *disposition)
{
    struct MHD_Response *r = text ? MHD_create_response_from_buffer(strlen(text), text, MHD_RESPMEM_MUST_FREE) : NULL;
    if (!r) {
        free(text);
        return NULL;
    }
    if (!response_headers(r, type, "no-store", disposition)) {
        MHD_destroy_response(r);
        return NULL;
    }
    return r;
}

struct MHD_Response *http_json_response(json_t *body)
{
    return text_response(util_json_text(body), JSON_TYPE, NULL);
}

enum MHD_Result http_send(struct MHD_Connection *c, unsigned status, struct MHD_Response *r)
{
    if (!r)
        return send_no_memory(c);
    enum MHD_Result ret = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ret;
}

struct MHD_Response *http_empty_response(void)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    if (r && !response_headers(r, JSON_TYPE, "no-store", NULL)) {
        MHD_destroy_response(r);
        r = NULL;
    }
    return r;
}

struct MHD_Response *http_with_header(struct MHD_Response *r, const char *header, const char *value)
{
    if (r && MHD_add_response_header(r, header, value) != MHD_YES) {
        MHD_destroy_response(r);
        r = NULL;
    }
    return r;
}

enum MHD_Result http_json(struct MHD_Connection *c, unsigned status, json_t *body)
{
    return http_send(c, status, http_json_response(body));
}

/* {"error": message} as text; NULL when memory runs out. */
static char *error_text(const char *message)
{
    json_t *body = json_pack("{s:s}", "error", message);
    if (!body) /* a message with bytes that are not UTF-8 (or no memory): say it without them */
        body = json_pack("{s:s}", "error", "bad request");
    return util_json_text(body);
}

/* The error response for a message made from fmt and ap, with one more header if `header`
 * is not NULL; NULL when memory runs out. */
static struct MHD_Response *error_response(const char *header, const char *value, const char *fmt, va_list ap)
{
    char message[512];
    vsnprintf(message, sizeof message, fmt, ap);
    struct MHD_Response *r = text_response(error_text(message), JSON_TYPE, NULL);
    if (r && header && MHD_add_response_header(r, header, value) != MHD_YES) {
        MHD_destroy_response(r);
        r = NULL;
    }
    return r;
}

enum MHD_Result http_error(struct MHD_Connection *c, unsigned status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct MHD_Response *r = error_response(NULL, NULL, fmt, ap);
    va_end(ap);
    return http_send(c, status, r);
}

enum MHD_Result http_error_header(struct MHD_Connection *c, unsigned status, const char *header, const char *value,
                                  const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct MHD_Response *r = error_response(header, value, fmt, ap);
    va_end(ap);
    return http_send(c, status, r);
}

enum MHD_Result http_too_many(struct MHD_Connection *c, int retry_s, const char *fmt, ...)
{
    char seconds[16];
    snprintf(seconds, sizeof seconds, "%d", retry_s);
    va_list ap;
    va_start(ap, fmt);
    struct MHD_Response *r = error_response(MHD_HTTP_HEADER_RETRY_AFTER, seconds, fmt, ap);
    va_end(ap);
    return http_send(c, MHD_HTTP_TOO_MANY_REQUESTS, r);
}

enum MHD_Result http_refuse(struct MHD_Connection *c, unsigned status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    struct MHD_Response *r = error_response(MHD_HTTP_HEADER_CONNECTION, "close", fmt, ap);
    va_end(ap);
    return r ? http_send(c, status, r) : MHD_NO; /* closing is what matters */
}

enum MHD_Result http_text(struct MHD_Connection *c, unsigned status, const char *content_type, char *text,
                          const char *disposition)
{
    return http_send(c, status, text_response(text, content_type, disposition));
}

enum MHD_Result http_method_not_allowed(struct MHD_Connection *c, const char *allow)
{
    struct MHD_Response *r = text_response(error_text("method not allowed"), JSON_TYPE, NULL);
    if (r && MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow) != MHD_YES) {
        MHD_destroy_response(r);
        r = NULL;
    }
    return http_send(c, MHD_HTTP_METHOD_NOT_ALLOWED, r);
}


/* A streamed response's reader and end, wrapped to count the streams libmicrohttpd still
 * holds: at shutdown the daemon stops only when they have sent their last events. */
typedef struct {
    MHD_ContentReaderCallback read;
    MHD_ContentReaderFreeCallback done;
    void *cls;
} StreamBody;

static atomic_int streams_held;

static ssize_t stream_body_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    StreamBody *b = cls;
    return b->read(b->cls, pos, buf, max);
}

static void stream_body_done(void *cls)
{
    StreamBody *b = cls;
    b->done(b->cls);
    free(b);
    atomic_fetch_sub(&streams_held, 1);
}

struct MHD_Response *http_stream_response(const char *type, MHD_ContentReaderCallback reader, void *cls,
                                          MHD_ContentReaderFreeCallback done)
{
    StreamBody *b = malloc(sizeof *b);
    if (!b) {
        done(cls);
        return NULL;
    }
    *b = (StreamBody){reader, done, cls};
    atomic_fetch_add(&streams_held, 1);
    struct MHD_Response *r =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, STREAM_BLOCK, stream_body_read, b, stream_body_done);
    if (r && response_headers(r, type, "no-cache, no-store", NULL) &&
        MHD_add_response_header(r, "X-Accel-Buffering", "no") == MHD_YES)
        return r;
    if (r)
        MHD_destroy_response(r); /* calls stream_body_done */
    else
        stream_body_done(b);
    return NULL;
}

int http_streams_held(void)
{
    return atomic_load(&streams_held);
}

ssize_t http_stream_idle(struct MHD_Connection *c, bool ended, bool *suspended)
{
    if (ended)
        return MHD_CONTENT_READER_END_OF_STREAM;
    *suspended = true;
    MHD_suspend_connection(c);
    return 0;
}

/*
 * A stream's connection keeps libmicrohttpd's memory pool (HTTP_CONNECTION_MEMORY: the request
 * head must fit in it) for as long as it lasts.  Answering, libmicrohttpd zeroes the half it
 * read the request into and makes the rest the buffer that the stream's reader writes into:
 * every page of it ends up resident, though a stream's events then take a few hundred bytes
 * of it.  The reader may write anything into that buffer, zeroes too: the whole pages of it go
 * back to the system (MADV_DONTNEED: they read as zeroes, and come back when written), which
 * makes a waiting stream's pool cost a page or so instead of four.
 */
void http_stream_trim(char *buf, size_t max)
{
    static uintptr_t page;
    if (!page)
        page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = ((uintptr_t)buf + page - 1) & ~(page - 1), to = ((uintptr_t)buf + max) & ~(page - 1);
    if (to > from)
        madvise((void *)from, to - from, MADV_DONTNEED);
}
