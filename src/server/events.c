#include "events.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "game_json.h"
#include "response.h"
#include "util.h"

#define QUEUE_MAX 64
#define BUCKETS 4096

/* An event, shared by the queues of every subscriber it goes to. */
typedef struct Message {
    atomic_int refs;
    size_t len;
    char text[];
} Message;

typedef struct Subscriber {
    pthread_mutex_t lock; /* the queue and `closed` */
    int efd, sock;
    Message *queue[QUEUE_MAX]; /* ring of pending messages */
    int head, count;
    Message *cur; /* the message being sent, and how far */
    size_t cur_off;
    bool closed;
    int64_t next_keepalive; /* monotonic ms */
    LiveGame *game;         /* a reference, given back when the subscriber is freed */
    struct Subscriber *next; /* in its bucket of the table */
} Subscriber;

/* The subscribers by game: a hash table of chains. */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static Subscriber *buckets[BUCKETS];
static bool closing; /* shutdown: streams end at once */

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

static void wake(Subscriber *s)
{
    uint64_t one = 1;
    ssize_t r = write(s->efd, &one, sizeof one);
    (void)r; /* the counter cannot overflow in practice; a wake-up more or less is harmless */
}

/* Queues m (a reference of its own) for s, or ends the stream when m is NULL (memory ran
 * out: the client reconnects rather than miss a state). */
static void push(Subscriber *s, Message *m)
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
    pthread_mutex_unlock(&s->lock);
    wake(s);
}

static void close_stream(Subscriber *s)
{
    pthread_mutex_lock(&s->lock);
    s->closed = true;
    pthread_mutex_unlock(&s->lock);
    wake(s);
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
    pthread_mutex_lock(&table_lock);
    for (Subscriber *s = *bucket_of(g); s; s = s->next)
        if (s->game == g)
            push(s, m);
    pthread_mutex_unlock(&table_lock);
    message_unref(m);
}

bool events_start(void)
{
    GameObserver o = {.changed = on_changed};
    return service_observe(&o);
}

void events_close_all(void)
{
    pthread_mutex_lock(&table_lock);
    closing = true;
    for (int b = 0; b < BUCKETS; b++)
        for (Subscriber *s = buckets[b]; s; s = s->next)
            close_stream(s);
    pthread_mutex_unlock(&table_lock);
}

bool events_closed(void)
{
    pthread_mutex_lock(&table_lock);
    bool closed = closing;
    pthread_mutex_unlock(&table_lock);
    return closed;
}

static void destroy(Subscriber *s)
{
    while (s->count) {
        message_unref(s->queue[s->head]);
        s->head = (s->head + 1) % QUEUE_MAX;
        s->count--;
    }
    message_unref(s->cur);
    close(s->efd);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* Under g's lock (a GameCall's read): the first state goes out, and s joins the table, so
 * that no change falls between the two. */
static bool subscribe(void *ctx, LiveGame *g, int you)
{
    (void)you;
    Subscriber *s = ctx;
    Message *m = state_message(g);
    if (!m)
        return false;
    push(s, m);
    message_unref(m);
    s->game = g;
    service_hold(g); /* the stream outlives the request that opened it */
    pthread_mutex_lock(&table_lock);
    Subscriber **b = bucket_of(g);
    s->next = *b;
    *b = s;
    if (closing)
        s->closed = true;
    pthread_mutex_unlock(&table_lock);
    return true;
}

static void unsubscribe(Subscriber *s)
{
    pthread_mutex_lock(&table_lock);
    for (Subscriber **p = bucket_of(s->game); *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    pthread_mutex_unlock(&table_lock);
}

/* MHD calls this when the response is done with (the client left or the stream ended). */
static void on_free(void *cls)
{
    Subscriber *s = cls;
    LiveGame *g = s->game;
    unsubscribe(s);
    destroy(s);
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

/* Copies what there is to send into buf: 0 when there is nothing. */
static size_t take(Subscriber *s, char *buf, size_t max)
{
    pthread_mutex_lock(&s->lock);
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
        s->next_keepalive = clock_ms() + EVENTS_KEEPALIVE_MS;
    }
    pthread_mutex_unlock(&s->lock);
    return n;
}

static bool is_closed(Subscriber *s)
{
    pthread_mutex_lock(&s->lock);
    bool closed = s->closed;
    pthread_mutex_unlock(&s->lock);
    return closed;
}

static ssize_t on_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    Subscriber *s = cls;
    static const char keepalive[] = ": keep-alive\n\n";
    for (;;) {
        size_t n = take(s, buf, max);
        if (n)
            return (ssize_t)n;
        if (is_closed(s))
            return MHD_CONTENT_READER_END_OF_STREAM;
        int64_t wait = s->next_keepalive - clock_ms();
        if (wait <= 0 && max >= sizeof keepalive - 1) {
            memcpy(buf, keepalive, sizeof keepalive - 1);
            s->next_keepalive = clock_ms() + EVENTS_KEEPALIVE_MS;
            return (ssize_t)(sizeof keepalive - 1);
        }
        struct pollfd fds[2] = {{.fd = s->efd, .events = POLLIN}, {.fd = s->sock, .events = POLLRDHUP}};
        int rc = poll(fds, s->sock >= 0 ? 2 : 1, wait > 0 ? (int)wait : 10);
        if (rc < 0 && errno != EINTR)
            return MHD_CONTENT_READER_END_WITH_ERROR;
        if (rc > 0 && s->sock >= 0 && (fds[1].revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)))
            return MHD_CONTENT_READER_END_OF_STREAM; /* the client hung up: end quietly */
        if (rc > 0 && (fds[0].revents & POLLIN)) {
            uint64_t count;
            ssize_t r = read(s->efd, &count, sizeof count);
            (void)r;
        }
    }
}

struct MHD_Response *events_open(LiveGame *g, int sock, GameStatus *status, char *message, size_t len)
{
    Subscriber *s = calloc(1, sizeof *s);
    if (s && (s->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0) {
        free(s);
        s = NULL;
    }
    if (!s) {
        *status = GAME_NO_MEMORY;
        snprintf(message, len, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    s->sock = sock;
    s->next_keepalive = clock_ms() + EVENTS_KEEPALIVE_MS;
    GameCall call = {.read = subscribe, .ctx = s};
    *status = service_read(g, &call);
    if (*status != GAME_OK) {
        snprintf(message, len, "%s", call.message);
        destroy(s);
        return NULL;
    }
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, on_read, s, on_free);
    if (!r) {
        on_free(s);
        *status = GAME_NO_MEMORY;
        snprintf(message, len, "out of memory");
        return NULL;
    }
    if (!response_headers(r, "text/event-stream; charset=utf-8", "no-cache, no-store", NULL) ||
        MHD_add_response_header(r, "X-Accel-Buffering", "no") != MHD_YES) {
        MHD_destroy_response(r); /* frees the subscriber */
        *status = GAME_NO_MEMORY;
        snprintf(message, len, "out of memory");
        return NULL;
    }
    return r;
}
