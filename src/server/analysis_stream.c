#include "analysis_stream.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "../core/movegen.h"
#include "response.h"
#include "util.h"

#define KEEPALIVE_MS 10000     /* a comment after this long without an event */
#define EVENT_MAX (64 * 1024)  /* one event's text */
#define PLACE_WAIT_MS 2000     /* how long a new stream waits for a hung-up search to end */

/* Text waiting to be sent. */
typedef struct Chunk {
    struct Chunk *next;
    size_t len, off;
    char text[];
} Chunk;

/* One stream: the search's thread and the response share it (two references). */
typedef struct Stream {
    pthread_mutex_t lock; /* what follows, up to `conn` */
    Chunk *head, *tail;
    bool finished;  /* the search is over: the stream ends once its queue is sent */
    bool suspended; /* the connection waits for something to send */
    bool gone;      /* libmicrohttpd is done with the response (the client left, or the end) */
    int refs;
    int64_t last_sent; /* monotonic ms of the last event queued */
    struct MHD_Connection *conn;
    int sock;
    Game game;
    Engine engine;
    pthread_t thread;
} Stream;

/* The searches running, for the limit and for shutdown. */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t table_empty = PTHREAD_COND_INITIALIZER;
static Stream *running[ANALYSIS_STREAMS];
static bool closing;

json_t *analysis_json(const Analysis *a)
{
    json_t *pv = json_array(), *pv_san = json_array();
    bool ok = true;
    for (int i = 0; i < a->npv; i++) {
        util_json_append(pv, json_string(a->pv[i]), &ok);
        util_json_append(pv_san, json_string(a->pv_san[i]), &ok);
    }
    json_t *result = json_pack("{s:o, s:o, s:i, s:o, s:o, s:o}", "score_cp",
                               a->has_score && !a->has_mate ? json_integer(a->score_cp) : json_null(), "mate",
                               a->has_mate ? json_integer(a->mate) : json_null(), "depth", a->depth, "pv", pv,
                               "pv_san", pv_san, "bestmove", a->best[0] ? json_string(a->best) : json_null());
    if (!ok) { /* a move left out: none of it */
        json_decref(result);
        return NULL;
    }
    return result;
}

int analysis_streams_count(void)
{
    int n = 0;
    pthread_mutex_lock(&table_lock);
    for (int i = 0; i < ANALYSIS_STREAMS; i++)
        n += running[i] != NULL;
    pthread_mutex_unlock(&table_lock);
    return n;
}

static void release(Stream *s)
{
    pthread_mutex_lock(&s->lock);
    bool last = --s->refs == 0;
    pthread_mutex_unlock(&s->lock);
    if (!last)
        return;
    while (s->head) {
        Chunk *c = s->head;
        s->head = c->next;
        free(c);
    }
    engine_free(&s->engine);
    game_free(&s->game);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* Queues `event` with `data` (or a comment when event is NULL) and wakes the connection. */
static void send_event(Stream *s, const char *event, const char *data)
{
    size_t max = strlen(data) + 64;
    Chunk *c = max < EVENT_MAX ? malloc(sizeof *c + max) : NULL;
    if (!c)
        return; /* memory ran out: this iteration is not told, the next one may be */
    c->next = NULL;
    c->off = 0;
    c->len = (size_t)(event ? snprintf(c->text, max, "event: %s\ndata: %s\n\n", event, data)
                            : snprintf(c->text, max, ": %s\n\n", data));
    pthread_mutex_lock(&s->lock);
    bool wake = s->suspended && !s->gone;
    if (s->gone) {
        free(c);
    } else {
        if (s->tail)
            s->tail->next = c;
        else
            s->head = c;
        s->tail = c;
        s->last_sent = clock_ms();
    }
    s->suspended = false;
    pthread_mutex_unlock(&s->lock);
    if (wake) /* a suspended connection cannot end meanwhile */
        MHD_resume_connection(s->conn);
}

/* Whether the client has hung up (its socket reads the end) or libmicrohttpd is done with it. */
static bool client_gone(Stream *s)
{
    char b;
    ssize_t n = s->sock >= 0 ? recv(s->sock, &b, 1, MSG_PEEK | MSG_DONTWAIT) : -1;
    pthread_mutex_lock(&s->lock);
    bool gone = s->gone || closing || n == 0 || (n < 0 && s->sock >= 0 && errno != EAGAIN && errno != EWOULDBLOCK);
    pthread_mutex_unlock(&s->lock);
    return gone;
}

/* Stops the search when the client is gone. */
static void watch_client(Stream *s)
{
    if (client_gone(s))
        atomic_store(&s->engine.stop, true);
}

/* The search's observer: each finished iteration is an event `info`. */
static void on_iteration(void *ctx, const Position *root, const SearchInfo *info)
{
    Stream *s = ctx;
    watch_client(s);
    json_t *lines = json_array();
    for (int i = 0; lines && i < info->nlines; i++) {
        Analysis a = {.depth = info->depth};
        engine_fill_analysis(root, &info->lines[i], &a);
        if (a.npv)
            snprintf(a.best, sizeof a.best, "%s", a.pv[0]);
        json_array_append_new(lines, analysis_json(&a));
    }
    json_t *o = lines ? json_pack("{s:i, s:i, s:I, s:I, s:o}", "depth", info->depth, "seldepth", info->seldepth,
                                  "nodes", (json_int_t)info->nodes, "time_ms", (json_int_t)(info->seconds * 1000),
                                  "lines", lines)
                      : NULL;
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    if (text)
        send_event(s, "info", text);
    free(text);
    json_decref(o);
}

/* Called about once a second during a long iteration: a keep-alive, and a look at the client. */
static void on_current_move(void *ctx, const Position *root, Move m, int number, int depth)
{
    (void)root, (void)m, (void)number, (void)depth;
    Stream *s = ctx;
    watch_client(s);
    pthread_mutex_lock(&s->lock);
    bool quiet = clock_ms() - s->last_sent >= KEEPALIVE_MS;
    pthread_mutex_unlock(&s->lock);
    if (quiet)
        send_event(s, NULL, "keep-alive");
}

static void *search_thread(void *arg)
{
    Stream *s = arg;
    Move legal[MAX_MOVES];
    if (game_status(&s->game).kind == RESULT_NONE && gen_legal(&s->game.pos, legal) > 0) {
        SearchObserver observer = {.iteration = on_iteration, .current_move = on_current_move, .ctx = s};
        SearchLimits limits = {.movetime = ANALYSIS_STREAM_MS};
        search_run(&s->engine, &s->game, &limits, &observer);
    }
    send_event(s, "done", "{}");
    pthread_mutex_lock(&s->lock);
    s->finished = true;
    bool wake = s->suspended && !s->gone;
    s->suspended = false;
    pthread_mutex_unlock(&s->lock);
    if (wake)
        MHD_resume_connection(s->conn);
    /* Last: shutdown waits for this, and stops the HTTP daemon only with no connection of
     * ours suspended. */
    pthread_mutex_lock(&table_lock);
    for (int i = 0; i < ANALYSIS_STREAMS; i++)
        if (running[i] == s)
            running[i] = NULL;
    pthread_cond_broadcast(&table_empty);
    pthread_mutex_unlock(&table_lock);
    release(s);
    return NULL;
}

/* libmicrohttpd asks for more of the stream: what is queued, else the end, else the
 * connection waits (suspended until an event or the end resumes it). */
static ssize_t on_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    Stream *s = cls;
    ssize_t n = 0;
    pthread_mutex_lock(&s->lock);
    while (s->head && (size_t)n < max) {
        Chunk *c = s->head;
        size_t k = c->len - c->off < max - (size_t)n ? c->len - c->off : max - (size_t)n;
        memcpy(buf + n, c->text + c->off, k);
        n += (ssize_t)k;
        c->off += k;
        if (c->off == c->len) {
            s->head = c->next;
            if (!s->head)
                s->tail = NULL;
            free(c);
        }
    }
    if (!n)
        n = http_stream_idle(s->conn, s->finished, &s->suspended);
    pthread_mutex_unlock(&s->lock);
    return n;
}

/* libmicrohttpd is done with the response: the search stops (if it still runs). */
static void on_free(void *cls)
{
    Stream *s = cls;
    pthread_mutex_lock(&s->lock);
    s->gone = true;
    pthread_mutex_unlock(&s->lock);
    atomic_store(&s->engine.stop, true);
    release(s);
}

/* Sleeps on table_empty (table_lock held) until it is signalled or the monotonic clock
 * reaches deadline_ms. */
static void wait_for_table(int64_t deadline_ms)
{
    int64_t left = deadline_ms - clock_ms();
    if (left <= 0)
        return;
    struct timespec until = clock_after_ns(CLOCK_REALTIME, left * 1000000);
    pthread_cond_timedwait(&table_empty, &table_lock, &until);
}

/* A free place among the running searches for s: false when there is none (or shutdown).
 * A search whose client has hung up gives its place: the analysis board opens a stream for
 * each position shown and closes the last, and a search notices its client's going only
 * about once a second, so a player stepping through moves would otherwise meet "busy". */
static bool take_place(Stream *s, char *err, size_t len)
{
    int64_t deadline = clock_ms() + PLACE_WAIT_MS;
    int place = -1;
    pthread_mutex_lock(&table_lock);
    for (;;) {
        bool ending = false;
        for (int i = 0; i < ANALYSIS_STREAMS; i++) {
            if (!running[i])
                place = i;
            else if (atomic_load(&running[i]->engine.stop) || client_gone(running[i])) {
                atomic_store(&running[i]->engine.stop, true);
                ending = true;
            }
        }
        if (closing || place >= 0 || !ending || clock_ms() >= deadline)
            break;
        wait_for_table(deadline);
    }
    bool ok = !closing && place >= 0;
    if (ok)
        running[place] = s;
    pthread_mutex_unlock(&table_lock);
    if (!ok)
        snprintf(err, len, closing ? "the server is shutting down"
                                   : "the engine is busy with %d analyses; try again when one ends",
                 ANALYSIS_STREAMS);
    return ok;
}

static void give_place(Stream *s)
{
    pthread_mutex_lock(&table_lock);
    for (int i = 0; i < ANALYSIS_STREAMS; i++)
        if (running[i] == s)
            running[i] = NULL;
    pthread_mutex_unlock(&table_lock);
}

static Stream *stream_new(Game *g, int lines, struct MHD_Connection *c)
{
    Stream *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (!engine_init(&s->engine, ANALYSIS_STREAM_HASH_MB)) {
        free(s);
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    s->conn = c;
    s->sock = info ? info->connect_fd : -1;
    s->engine.multipv = lines;
    s->engine.skill = 20;
    s->game = *g;
    memset(g, 0, sizeof *g);
    s->refs = 2;
    s->last_sent = clock_ms();
    return s;
}

struct MHD_Response *analysis_stream_open(Game *g, int lines, struct MHD_Connection *c, int *status, char *err,
                                          size_t len)
{
    *status = 503;
    Stream *s = stream_new(g, lines, c);
    if (!s) {
        snprintf(err, len, "out of memory");
        return NULL;
    }
    if (!take_place(s, err, len)) {
        s->refs = 1; /* neither a thread nor a response */
        release(s);
        return NULL;
    }
    /* on failure, on_free has run */
    struct MHD_Response *r = http_stream_response("text/event-stream; charset=utf-8", on_read, s, on_free);
    if (!r || pthread_create(&s->thread, NULL, search_thread, s) != 0) {
        give_place(s);
        if (r)
            MHD_destroy_response(r); /* on_free lets go of the response's reference */
        release(s);                  /* and this of the thread's */
        snprintf(err, len, "out of memory");
        return NULL;
    }
    pthread_detach(s->thread);
    return r;
}

void analysis_streams_close_all(void)
{
    pthread_mutex_lock(&table_lock);
    closing = true;
    for (int i = 0; i < ANALYSIS_STREAMS; i++)
        if (running[i])
            atomic_store(&running[i]->engine.stop, true);
    for (;;) {
        bool any = false;
        for (int i = 0; i < ANALYSIS_STREAMS; i++)
            any = any || running[i];
        if (!any)
            break;
        pthread_cond_wait(&table_empty, &table_lock);
    }
    pthread_mutex_unlock(&table_lock);
}
