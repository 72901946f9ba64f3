/*
 * The bot's HTTP, through libcurl: a server (its base URL and the bearer token), requests
 * that answer at once (form bodies, as lichess's clients send them), and NDJSON streams read
 * an object at a time.  Every call is the calling thread's own (no handle is shared), so
 * game threads talk to the server side by side.
 *
 * A stream is driven by stream_pump, which waits for the stream's data, or for another file
 * (a game's engine), whichever comes first: a game thread reads its stream while its engine
 * thinks.  Empty lines are keep-alives; a stream silent for STREAM_STALL_SECONDS (no line,
 * no keep-alive) counts as dropped.  A line that is not a JSON object is logged and skipped.
 */
#ifndef STARFISH_BOT_HTTP_H
#define STARFISH_BOT_HTTP_H

#include <curl/curl.h>
#include <jansson.h>
#include <stdbool.h>

#include "../util/text.h"

#define STREAM_STALL_SECONDS 30  /* lichess and ours send a keep-alive every 7 s or less */
#define REQUEST_SECONDS 30       /* a request that answers at once, at most */
#define CONNECT_SECONDS 10
#define STREAM_LINE_MAX (4 << 20) /* a line longer than this ends the stream */
#define RATE_LIMIT_SECONDS 60.0   /* after a 429, lichess asks for a minute without requests */

typedef struct BotConn {
    char base[512];               /* the server's URL, without a trailing slash */
    struct curl_slist *headers;   /* Authorization: Bearer, Accept (read only once made) */
} BotConn;

/* Once, before any thread: libcurl's global state. */
bool http_global_init(void);
void http_global_free(void);

bool conn_init(BotConn *c, const char *server, const char *token, char *err, size_t errlen);
void conn_free(BotConn *c);

/*
 * method PATH with an application/x-www-form-urlencoded body (form; NULL: none, "" for an
 * empty one), within REQUEST_SECONDS.  Returns the HTTP status, with the body in *body when
 * given; 0 when no answer came (err says why: the server unreachable, a timeout).
 */
long http_call(const BotConn *c, const char *method, const char *path, const char *form, Text *body, char *err,
               size_t errlen);
/* GET PATH as JSON into *out (NULL when the answer is not JSON); the status as http_call. */
long http_get_json(const BotConn *c, const char *path, json_t **out, char *err, size_t errlen);
/* What went wrong, for the log: the server's {"error"} (or the body's first bytes) after its
 * status, or err when no answer came. */
void http_describe(long status, const Text *body, const char *err, char *out, size_t len);

typedef enum { STREAM_OPEN, STREAM_ENDED, STREAM_FAILED } StreamState;

typedef struct BotStream {
    CURL *easy;
    CURLM *multi;
    char what[96];      /* for the log: "the event stream", "game ID's stream" */
    Text partial;       /* the end of the data not yet a whole line */
    Text error_body;    /* the body of an answer that is not 200 */
    json_t **queue;     /* objects read but not yet taken */
    int head, count, cap;
    bool too_long;      /* a line over STREAM_LINE_MAX */
    StreamState state;
    long status;        /* the HTTP status, once known */
    char err[256];      /* why it failed (STREAM_FAILED) */
} BotStream;

/* Starts GET PATH (nothing is read yet) on a stream that starts zeroed, or was closed, or ran
 * before (it is closed first); false with err when curl cannot even start it. */
bool stream_open(BotStream *s, const BotConn *c, const char *path, const char *what, char *err, size_t errlen);
/* Waits up to timeout_ms for the stream's data or for fd (-1: none) to be readable (*fd_ready
 * then true), reads what came and returns the stream's state.  A closed stream (never opened,
 * or ended) only waits for fd. */
StreamState stream_pump(BotStream *s, int fd, int timeout_ms, bool *fd_ready);
/* The next object read (the caller owns it), or NULL. */
json_t *stream_next(BotStream *s);
/* Ends the transfer and frees everything; the stream may be opened again after. */
void stream_close(BotStream *s);
bool stream_is_open(const BotStream *s);
/* The HTTP status of an open stream once its head came (0 before). */
long stream_status(BotStream *s);

/* Small readers of lichess's JSON: "" / 0 / false when a key is missing or of another type;
 * a key may be a path ("challenger.id"). */
const char *json_text(json_t *o, const char *path);
long long json_number(json_t *o, const char *path);
bool json_flag(json_t *o, const char *path);
json_t *json_at(json_t *o, const char *path);

#endif
