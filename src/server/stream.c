#include "stream.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "response.h"
#include "util.h"

#define QUEUE_SMALL 2 /* messages queued in the stream itself; more wait in a queue of QUEUE_MAX */
#define QUEUE_MAX 64   /* more waiting: a stalled reader, whose stream ends */
#define TRIM_AFTER 2048 /* a message this long written: the buffer is trimmed when the stream next waits */
#define BUCKETS 4096
#define WATCH_EVENTS 256

struct StreamMessage {
    atomic_int refs;
    size_t len;
    char text[];
};

struct Stream {
    pthread_mutex_t lock; /* what follows, up to `topic` */
    StreamMessage **queue; /* ring of pending messages: `small`, or QUEUE_MAX malloc'ed */
    StreamMessage *small[QUEUE_SMALL];
    int head, count, cap;
    StreamMessage *cur; /* the message being sent, and how far */
    size_t cur_off;
    bool closed;            /* the stream ends once its queue is sent */
    bool keepalive_due;     /* a keep-alive is to be sent */
    bool suspended;         /* its connection waits for something to send */
    bool trim_due;          /* libmicrohttpd's buffer is to be trimmed when it next waits */
    int64_t next_keepalive; /* monotonic ms */
    char topic[STREAM_TOPIC_MAX];
    const StreamKind *kind;
    void *owner;
    int audience;
    struct MHD_Connection *conn;
    int sock;
    bool open;                 /* in the table */
    bool dead;                 /* ended: freed by the watching thread (under table_lock) */
    struct Stream *next;       /* in its bucket of the table, or in the graveyard */
    struct Stream *to_resume;  /* in a list of connections to resume */
};

/* The streams by topic: a hash table of chains, with the watching thread's state. */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static Stream *buckets[BUCKETS];
static bool closing;         /* shutdown: streams end at once */
static Stream *graveyard;     /* ended streams the watching thread may still see */
static int watch_fd = -1;     /* epoll: the streams' sockets, for hang-ups */
static pthread_t watcher;
static bool watching, watcher_quit;

#define KINDS_MAX 8
static struct {
    const StreamKind *kind;
    int count;
} counts[KINDS_MAX]; /* open streams per kind (table_lock) */

static Stream **bucket_of(const char *topic)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)topic; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return &buckets[(h >> 20) & (BUCKETS - 1)];
}

/* The counter of a kind (table_lock held). */
static int *count_of(const StreamKind *kind)
{
    for (int i = 0; i < KINDS_MAX; i++) {
        if (counts[i].kind == kind)
            return &counts[i].count;
        if (!counts[i].kind) {
            counts[i].kind = kind;
            return &counts[i].count;
        }
    }
    return NULL;
}

StreamMessage *stream_message(const char *text, size_t len)
{
    StreamMessage *m = malloc(sizeof *m + len + 1);
    if (!m)
        return NULL;
    atomic_init(&m->refs, 1);
    m->len = len;
    memcpy(m->text, text, len);
    m->text[len] = 0;
    return m;
}

StreamMessage *stream_ref(StreamMessage *m)
{
    if (m)
        atomic_fetch_add(&m->refs, 1);
    return m;
}

void stream_unref(StreamMessage *m)
{
    if (m && atomic_fetch_sub(&m->refs, 1) == 1)
        free(m);
}

void *stream_owner(const Stream *s)
{
    return s->owner;
}

void stream_set_audience(Stream *s, int audience)
{
    s->audience = audience;
}

int stream_audience(const Stream *s)
{
    return s->audience;
}

/* ---- Waking streams ------------------------------------------------------------------------- */

/* Marks s to be resumed if it waits (s->lock held); the caller resumes the list it builds
 * once it holds no lock of this module (see resume_all). */
static void wake(Stream *s, Stream **list)
{
    if (!s->suspended)
        return;
    s->suspended = false;
    s->to_resume = *list;
    *list = s;
}

/* Resumes the connections of a list from wake.  A connection that is suspended cannot end,
 * so its stream is still there. */
static void resume_all(Stream *list)
{
    while (list) {
        Stream *s = list;
        list = s->to_resume;
        MHD_resume_connection(s->conn);
    }
}

/* Lets go of the messages that wait in s's queue (s->lock held, or nobody else's). */
static void drop_queue(Stream *s)
{
    while (s->count) {
        stream_unref(s->queue[s->head]);
        s->head = (s->head + 1) % s->cap;
        s->count--;
    }
}

/* Room for one more message in s's queue (s->lock held): a full small queue moves to a large
 * one.  False when the large one is full, a stalled reader, or there is no memory for it. */
static bool make_room(Stream *s)
{
    if (s->count < s->cap)
        return true;
    StreamMessage **large = s->cap < QUEUE_MAX ? malloc(QUEUE_MAX * sizeof *large) : NULL;
    if (!large)
        return false;
    for (int i = 0; i < s->count; i++)
        large[i] = s->queue[(s->head + i) % s->cap];
    s->queue = large;
    s->head = 0;
    s->cap = QUEUE_MAX;
    return true;
}

/* Queues m for s, or ends s (m NULL, or no room for m: a reader that far behind, which would
 * miss a message, is better off reading the whole state again when its client reconnects;
 * what waits is dropped, the message being sent is finished). */
static void push_locked(Stream *s, StreamMessage *m, Stream **list)
{
    pthread_mutex_lock(&s->lock);
    if (s->closed) {
        /* ended already: nothing more goes out */
    } else if (m && make_room(s)) {
        s->queue[(s->head + s->count) % s->cap] = stream_ref(m);
        s->count++;
    } else {
        if (m)
            drop_queue(s);
        s->closed = true;
    }
    wake(s, list);
    pthread_mutex_unlock(&s->lock);
}

/* The list of streams that a publisher's pushes woke (one per publishing thread). */
static _Thread_local Stream **publishing;

void stream_push(Stream *s, StreamMessage *m)
{
    Stream *list = NULL;
    push_locked(s, m, publishing ? publishing : &list);
    resume_all(list);
}

static void end_stream(Stream *s, Stream **list)
{
    pthread_mutex_lock(&s->lock);
    s->closed = true;
    wake(s, list);
    pthread_mutex_unlock(&s->lock);
}

bool stream_publish(const char *topic, void (*each)(Stream *s, void *ctx), void *ctx)
{
    Stream *list = NULL;
    bool any = false;
    pthread_mutex_lock(&table_lock);
    publishing = &list;
    for (Stream *s = *bucket_of(topic); s; s = s->next)
        if (strcmp(s->topic, topic) == 0) {
            any = true;
            each(s, ctx);
        }
    publishing = NULL;
    pthread_mutex_unlock(&table_lock);
    resume_all(list);
    return any;
}

bool stream_listened(const char *topic)
{
    pthread_mutex_lock(&table_lock);
    Stream *s = *bucket_of(topic);
    while (s && strcmp(s->topic, topic) != 0)
        s = s->next;
    pthread_mutex_unlock(&table_lock);
    return s != NULL;
}

void stream_close_all(void)
{
    Stream *list = NULL;
    pthread_mutex_lock(&table_lock);
    closing = true;
    for (int b = 0; b < BUCKETS; b++)
        for (Stream *s = buckets[b]; s; s = s->next)
            end_stream(s, &list);
    pthread_mutex_unlock(&table_lock);
    resume_all(list);
}

bool stream_closed(void)
{
    pthread_mutex_lock(&table_lock);
    bool closed = closing;
    pthread_mutex_unlock(&table_lock);
    return closed;
}

int stream_count(const StreamKind *kind)
{
    pthread_mutex_lock(&table_lock);
    int *n = count_of(kind);
    int count = n ? *n : 0;
    pthread_mutex_unlock(&table_lock);
    return count;
}

/* ---- The watching thread ------------------------------------------------------------------ */

/* Frees the streams that ended (table_lock held, by the watching thread between two batches
 * of events, or when it is gone). */
static void bury(void)
{
    while (graveyard) {
        Stream *s = graveyard;
        graveyard = s->next;
        pthread_mutex_destroy(&s->lock);
        free(s);
    }
}

/* Queues a keep-alive on the streams that have been quiet for their kind's interval. */
static void keep_alive(int64_t now, Stream **list)
{
    for (int b = 0; b < BUCKETS; b++)
        for (Stream *s = buckets[b]; s; s = s->next) {
            pthread_mutex_lock(&s->lock);
            if (now >= s->next_keepalive && !s->keepalive_due) {
                s->keepalive_due = true;
                wake(s, list);
            }
            pthread_mutex_unlock(&s->lock);
        }
}

static void *watch(void *arg)
{
    (void)arg;
    struct epoll_event events[WATCH_EVENTS];
    int64_t next_keepalive_sweep = clock_ms() + 1000;
    for (;;) {
        int n = epoll_wait(watch_fd, events, WATCH_EVENTS, 200);
        Stream *list = NULL;
        pthread_mutex_lock(&table_lock);
        for (int i = 0; i < n; i++) { /* a client hung up: its stream ends */
            Stream *s = events[i].data.ptr;
            if (!s->dead)
                end_stream(s, &list);
        }
        int64_t now = clock_ms();
        if (now >= next_keepalive_sweep) {
            keep_alive(now, &list);
            next_keepalive_sweep = now + 1000;
        }
        bury();
        bool quit = watcher_quit;
        pthread_mutex_unlock(&table_lock);
        resume_all(list);
        if (quit)
            return NULL;
    }
}

bool stream_start(void)
{
    watch_fd = epoll_create1(EPOLL_CLOEXEC);
    if (watch_fd < 0 || pthread_create(&watcher, NULL, watch, NULL) != 0)
        return false;
    watching = true;
    return true;
}

void stream_stop(void)
{
    if (watching) {
        pthread_mutex_lock(&table_lock);
        watcher_quit = true;
        pthread_mutex_unlock(&table_lock);
        pthread_join(watcher, NULL);
        watching = false;
    }
    pthread_mutex_lock(&table_lock);
    bury();
    pthread_mutex_unlock(&table_lock);
    if (watch_fd >= 0)
        close(watch_fd);
    watch_fd = -1;
}

/* ---- A stream ----------------------------------------------------------------------------- */

Stream *stream_new(const StreamKind *kind, struct MHD_Connection *c, const char *topic, void *owner)
{
    Stream *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    pthread_mutex_init(&s->lock, NULL);
    s->queue = s->small;
    s->cap = QUEUE_SMALL;
    s->trim_due = true; /* the request's buffer, zeroed: see http_stream_trim */
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    s->kind = kind;
    s->owner = owner;
    s->conn = c;
    s->sock = info ? info->connect_fd : -1;
    s->next_keepalive = clock_ms() + kind->keepalive_ms;
    snprintf(s->topic, sizeof s->topic, "%s", topic);
    return s;
}

/* Lets go of what a stream's queue holds, and of its large queue (its lock held, or nobody
 * else's). */
static void drain(Stream *s)
{
    drop_queue(s);
    stream_unref(s->cur);
    s->cur = NULL;
    if (s->queue != s->small)
        free(s->queue);
    s->queue = s->small;
    s->cap = QUEUE_SMALL;
}

void stream_discard(Stream *s)
{
    drain(s);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* MHD calls this when the response is done with (the client left or the stream ended),
 * before it closes the socket. */
static void on_free(void *cls)
{
    Stream *s = cls;
    pthread_mutex_lock(&table_lock);
    if (s->open) {
        for (Stream **p = bucket_of(s->topic); *p; p = &(*p)->next)
            if (*p == s) {
                *p = s->next;
                break;
            }
        int *n = count_of(s->kind);
        if (n)
            (*n)--;
        if (s->sock >= 0)
            epoll_ctl(watch_fd, EPOLL_CTL_DEL, s->sock, NULL);
    }
    s->dead = true;
    drain(s);
    void *owner = s->owner;
    const StreamKind *kind = s->kind;
    s->next = graveyard; /* freed by the watching thread, which may hold an event for it */
    graveyard = s;
    pthread_mutex_unlock(&table_lock);
    if (kind->ended)
        kind->ended(owner); /* last: what the stream held may go from now on */
}

/* Takes the next message to send, if any (s->lock held). */
static void next_message(Stream *s)
{
    if (s->cur || !s->count)
        return;
    s->cur = s->queue[s->head];
    s->cur_off = 0;
    s->head = (s->head + 1) % s->cap;
    s->count--;
}

/* Copies what there is to send into buf (s->lock held): 0 when there is nothing. */
static size_t take(Stream *s, char *buf, size_t max)
{
    next_message(s);
    size_t n = 0, keepalive = strlen(s->kind->keepalive);
    if (s->cur) {
        n = s->cur->len - s->cur_off < max ? s->cur->len - s->cur_off : max;
        memcpy(buf, s->cur->text + s->cur_off, n);
        s->cur_off += n;
        s->trim_due |= n >= TRIM_AFTER;
        if (s->cur_off == s->cur->len) {
            stream_unref(s->cur);
            s->cur = NULL;
        }
    } else if (s->keepalive_due && max >= keepalive) {
        n = keepalive;
        memcpy(buf, s->kind->keepalive, n);
    }
    if (n) {
        s->keepalive_due = false;
        s->next_keepalive = clock_ms() + s->kind->keepalive_ms;
    }
    return n;
}

/* MHD asks for more of the stream: what is queued, else the end, else the connection waits
 * (suspended until a message or the end resumes it), the pages of its buffer given back
 * after a large message. */
static ssize_t on_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    Stream *s = cls;
    pthread_mutex_lock(&s->lock);
    ssize_t n = (ssize_t)take(s, buf, max);
    if (!n && s->trim_due && !s->closed) {
        http_stream_trim(buf, max);
        s->trim_due = false;
    }
    if (!n)
        n = http_stream_idle(s->conn, s->closed, &s->suspended);
    pthread_mutex_unlock(&s->lock);
    return n;
}

void stream_join(Stream *s)
{
    pthread_mutex_lock(&table_lock);
    Stream **b = bucket_of(s->topic);
    s->next = *b;
    *b = s;
    s->open = true;
    int *n = count_of(s->kind);
    if (n)
        (*n)++;
    if (closing)
        s->closed = true;
    struct epoll_event ev = {.events = EPOLLRDHUP | EPOLLET, .data.ptr = s};
    if (s->sock >= 0)
        epoll_ctl(watch_fd, EPOLL_CTL_ADD, s->sock, &ev); /* without it, a hang-up shows at the next write */
    pthread_mutex_unlock(&table_lock);
}

struct MHD_Response *stream_response(Stream *s)
{
    return http_stream_response(s->kind->content_type, on_read, s, on_free); /* on failure, on_free ends it */
}
