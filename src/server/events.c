#include "events.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "game_json.h"
#include "response.h"
#include "util.h"

#define QUEUE_MAX 64
#define BUCKETS 4096
#define WATCH_EVENTS 256

/* An event, shared by the queues of every subscriber it goes to. */
typedef struct Message {
    atomic_int refs;
    size_t len;
    char text[];
} Message;

typedef struct Subscriber {
    pthread_mutex_t lock; /* what follows, up to `game` */
    Message *queue[QUEUE_MAX]; /* ring of pending messages */
    int head, count;
    Message *cur; /* the message being sent, and how far */
    size_t cur_off;
    bool closed;           /* the stream ends once its queue is sent */
    bool keepalive_due;    /* a keep-alive comment is to be sent */
    bool suspended;        /* its connection waits for something to send */
    int64_t next_keepalive; /* monotonic ms */
    LiveGame *game;         /* a reference, given back when the stream ends */
    struct MHD_Connection *conn;
    int sock;
    bool dead;                    /* ended: freed by the watching thread (under table_lock) */
    struct Subscriber *next;      /* in its bucket of the table, or in the graveyard */
    struct Subscriber *to_resume; /* in a list of connections to resume */
} Subscriber;

/* The subscribers by game: a hash table of chains, with the watching thread's state. */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static Subscriber *buckets[BUCKETS];
static int streams;
static bool closing;         /* shutdown: streams end at once */
static Subscriber *graveyard; /* ended streams the watching thread may still see */
static int watch_fd = -1;     /* epoll: the streams' sockets, for hang-ups */
static pthread_t watcher;
static bool watching, watcher_quit;

static Subscriber **bucket_of(const LiveGame *g)
{
    uint64_t h = (uint64_t)(uintptr_t)g * 0x9E3779B97F4A7C15ull;
    return &buckets[h >> 52 & (BUCKETS - 1)];
}

static Message *message_new(const char *json)
{
    static const char head[] = "event: state\ndata: ", tail[] = "\n\n";
    size_t n = strlen(json), len = sizeof head - 1 + n + sizeof tail - 1;
    Message *m = malloc(sizeof *m + len + 1);
    if (!m)
        return NULL;
    atomic_init(&m->refs, 1);
    m->len = len;
    snprintf(m->text, len + 1, "%s%s%s", head, json, tail);
    return m;
}

/* g's state as an event (g's lock held); NULL when memory runs out. */
static Message *state_message(LiveGame *g)
{
    char *text = util_json_text(game_json(g, -1));
    Message *m = text ? message_new(text) : NULL;
    free(text);
    return m;
}

static void message_unref(Message *m)
{
    if (m && atomic_fetch_sub(&m->refs, 1) == 1)
        free(m);
}

/* ---- Waking streams ------------------------------------------------------------------------- */

/* Marks s to be resumed if it waits (s->lock held); the caller resumes the list it builds
 * once it holds no lock of this module (see resume_all). */
static void wake(Subscriber *s, Subscriber **list)
{
    if (!s->suspended)
        return;
    s->suspended = false;
    s->to_resume = *list;
    *list = s;
}

/* Resumes the connections of a list from wake.  A connection that is suspended cannot end,
 * so its subscriber is still there. */
static void resume_all(Subscriber *list)
{
    while (list) {
        Subscriber *s = list;
        list = s->to_resume;
        MHD_resume_connection(s->conn);
    }
}

/* Queues m (a reference of its own) for s, or ends the stream when m is NULL (memory ran
 * out: the client reconnects rather than miss a state). */
static void push(Subscriber *s, Message *m, Subscriber **list)
{
    pthread_mutex_lock(&s->lock);
    if (!m) {
        s->closed = true;
    } else {
        if (s->count == QUEUE_MAX) { /* a stalled reader: drop the oldest, the newest is complete */
            message_unref(s->queue[s->head]);
            s->head = (s->head + 1) % QUEUE_MAX;
            s->count--;
        }
        atomic_fetch_add(&m->refs, 1);
        s->queue[(s->head + s->count) % QUEUE_MAX] = m;
        s->count++;
    }
    wake(s, list);
    pthread_mutex_unlock(&s->lock);
}

static void end_stream(Subscriber *s, Subscriber **list)
{
    pthread_mutex_lock(&s->lock);
    s->closed = true;
    wake(s, list);
    pthread_mutex_unlock(&s->lock);
}

static bool has_subscribers(const LiveGame *g)
{
    pthread_mutex_lock(&table_lock);
    Subscriber *s = *bucket_of(g);
    while (s && s->game != g)
        s = s->next;
    pthread_mutex_unlock(&table_lock);
    return s != NULL;
}

/* The observer: g changed (its lock held); its state goes to each of its subscribers. */
static void on_changed(void *ctx, LiveGame *g)
{
    (void)ctx;
    if (!has_subscribers(g))
        return;
    Message *m = state_message(g);
    Subscriber *list = NULL;
    pthread_mutex_lock(&table_lock);
    for (Subscriber *s = *bucket_of(g); s; s = s->next)
        if (s->game == g)
            push(s, m, &list);
    pthread_mutex_unlock(&table_lock);
    message_unref(m);
    resume_all(list);
}

void events_close_all(void)
{
    Subscriber *list = NULL;
    pthread_mutex_lock(&table_lock);
    closing = true;
    for (int b = 0; b < BUCKETS; b++)
        for (Subscriber *s = buckets[b]; s; s = s->next)
            end_stream(s, &list);
    pthread_mutex_unlock(&table_lock);
    resume_all(list);
}

bool events_closed(void)
{
    pthread_mutex_lock(&table_lock);
    bool closed = closing;
    pthread_mutex_unlock(&table_lock);
    return closed;
}

int events_count(void)
{
    pthread_mutex_lock(&table_lock);
    int n = streams;
    pthread_mutex_unlock(&table_lock);
    return n;
}

/* ---- The watching thread ------------------------------------------------------------------ */

/* Frees the subscribers that ended (table_lock held, by the watching thread between two
 * batches of events, or when it is gone). */
static void bury(void)
{
    while (graveyard) {
        Subscriber *s = graveyard;
        graveyard = s->next;
        pthread_mutex_destroy(&s->lock);
        free(s);
    }
}

/* Queues a keep-alive on the streams that have been quiet for EVENTS_KEEPALIVE_MS. */
static void keep_alive(int64_t now, Subscriber **list)
{
    for (int b = 0; b < BUCKETS; b++)
        for (Subscriber *s = buckets[b]; s; s = s->next) {
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
        Subscriber *list = NULL;
        pthread_mutex_lock(&table_lock);
        for (int i = 0; i < n; i++) { /* a client hung up: its stream ends */
            Subscriber *s = events[i].data.ptr;
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

bool events_start(void)
{
    GameObserver o = {.changed = on_changed};
    watch_fd = epoll_create1(EPOLL_CLOEXEC);
    if (watch_fd < 0 || !service_observe(&o) || pthread_create(&watcher, NULL, watch, NULL) != 0)
        return false;
    watching = true;
    return true;
}

void events_stop(void)
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

/* Under g's lock (a GameCall's read): the first state goes out, and s joins the table, so
 * that no change falls between the two. */
static bool subscribe(void *ctx, LiveGame *g, int you)
{
    (void)you;
    Subscriber *s = ctx;
    Message *m = state_message(g);
    if (!m)
        return false;
    Subscriber *list = NULL;
    push(s, m, &list); /* not suspended yet: nothing to resume */
    message_unref(m);
    s->game = g;
    service_hold(g); /* the stream outlives the request that opened it */
    pthread_mutex_lock(&table_lock);
    Subscriber **b = bucket_of(g);
    s->next = *b;
    *b = s;
    streams++;
    if (closing)
        s->closed = true;
    struct epoll_event ev = {.events = EPOLLRDHUP | EPOLLET, .data.ptr = s};
    if (s->sock >= 0)
        epoll_ctl(watch_fd, EPOLL_CTL_ADD, s->sock, &ev); /* without it, a hang-up shows at the next write */
    pthread_mutex_unlock(&table_lock);
    return true;
}

/* MHD calls this when the response is done with (the client left or the stream ended),
 * before it closes the socket. */
static void on_free(void *cls)
{
    Subscriber *s = cls;
    LiveGame *g = s->game;
    pthread_mutex_lock(&table_lock);
    for (Subscriber **p = bucket_of(g); *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    streams--;
    if (s->sock >= 0)
        epoll_ctl(watch_fd, EPOLL_CTL_DEL, s->sock, NULL);
    s->dead = true;
    while (s->count) {
        message_unref(s->queue[s->head]);
        s->head = (s->head + 1) % QUEUE_MAX;
        s->count--;
    }
    message_unref(s->cur);
    s->cur = NULL;
    s->next = graveyard; /* freed by the watching thread, which may hold an event for it */
    graveyard = s;
    pthread_mutex_unlock(&table_lock);
    service_release(g); /* last: the game may be evicted from now on */
}

/* Takes the next message to send, if any (s->lock held). */
static void next_message(Subscriber *s)
{
    if (s->cur || !s->count)
        return;
    s->cur = s->queue[s->head];
    s->cur_off = 0;
    s->head = (s->head + 1) % QUEUE_MAX;
    s->count--;
}

/* Copies what there is to send into buf (s->lock held): 0 when there is nothing. */
static size_t take(Subscriber *s, char *buf, size_t max)
{
    static const char keepalive[] = ": keep-alive\n\n";
    next_message(s);
    size_t n = 0;
    if (s->cur) {
        n = s->cur->len - s->cur_off < max ? s->cur->len - s->cur_off : max;
        memcpy(buf, s->cur->text + s->cur_off, n);
        s->cur_off += n;
        if (s->cur_off == s->cur->len) {
            message_unref(s->cur);
            s->cur = NULL;
        }
    } else if (s->keepalive_due && max >= sizeof keepalive - 1) {
        n = sizeof keepalive - 1;
        memcpy(buf, keepalive, n);
    }
    if (n) {
        s->keepalive_due = false;
        s->next_keepalive = clock_ms() + EVENTS_KEEPALIVE_MS;
    }
    return n;
}

/* MHD asks for more of the stream: what is queued, else the end, else the connection waits
 * (suspended until a message or the end resumes it). */
static ssize_t on_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    Subscriber *s = cls;
    pthread_mutex_lock(&s->lock);
    ssize_t n = (ssize_t)take(s, buf, max);
    if (!n)
        n = http_stream_idle(s->conn, s->closed, &s->suspended);
    pthread_mutex_unlock(&s->lock);
    return n;
}

struct MHD_Response *events_open(LiveGame *g, struct MHD_Connection *c, GameStatus *status, char *message,
                                 size_t len)
{
    Subscriber *s = calloc(1, sizeof *s);
    if (!s) {
        *status = GAME_NO_MEMORY;
        snprintf(message, len, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    s->conn = c;
    s->sock = info ? info->connect_fd : -1;
    s->next_keepalive = clock_ms() + EVENTS_KEEPALIVE_MS;
    GameCall call = {.read = subscribe, .ctx = s};
    *status = service_read(g, &call);
    if (*status != GAME_OK) {
        snprintf(message, len, "%s", call.message);
        pthread_mutex_destroy(&s->lock);
        free(s);
        return NULL;
    }
    struct MHD_Response *r = http_event_stream(on_read, s, on_free); /* on failure, the subscriber ends */
    if (r)
        return r;
    *status = GAME_NO_MEMORY;
    snprintf(message, len, "out of memory");
    return NULL;
}
