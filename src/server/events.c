#include "events.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "util.h"

#define QUEUE_MAX 64

struct Subscriber {
    pthread_mutex_t lock;
    int efd, sock;
    char *queue[QUEUE_MAX]; /* ring of pending messages */
    int head, count;
    char *cur; /* the message being sent, and how far */
    size_t cur_len, cur_off;
    bool closed;
    int64_t next_keepalive; /* monotonic ms */
    LiveGame *game;         /* a reference, given back when the subscriber is freed */
    Subscriber *next;       /* in the game's list, under the game's lock */
};

static void wake(Subscriber *s)
{
    uint64_t one = 1;
    ssize_t r = write(s->efd, &one, sizeof one);
    (void)r; /* the counter cannot overflow in practice; a wake-up more or less is harmless */
}

static void push(Subscriber *s, char *msg)
{
    pthread_mutex_lock(&s->lock);
    if (s->count == QUEUE_MAX) { /* a stalled reader: drop the oldest, the newest is complete */
        free(s->queue[s->head]);
        s->head = (s->head + 1) % QUEUE_MAX;
        s->count--;
    }
    s->queue[(s->head + s->count) % QUEUE_MAX] = msg;
    s->count++;
    pthread_mutex_unlock(&s->lock);
    wake(s);
}

static char *state_message(const char *json)
{
    size_t len = strlen(json) + 32;
    char *msg = malloc(len);
    if (msg)
        snprintf(msg, len, "event: state\ndata: %s\n\n", json);
    return msg;
}

Subscriber *events_subscribe(LiveGame *g, int sock, const char *first)
{
    Subscriber *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    char *msg = state_message(first);
    if (s->efd < 0 || !msg) {
        if (s->efd >= 0)
            close(s->efd);
        free(msg);
        free(s);
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    s->sock = sock;
    s->game = g;
    games_hold(g); /* the stream outlives the request that opened it */
    s->next_keepalive = clock_ms() + EVENTS_KEEPALIVE_MS;
    push(s, msg);
    s->next = g->subs;
    g->subs = s;
    return s;
}

void events_publish(LiveGame *g, const char *json)
{
    for (Subscriber *s = g->subs; s; s = s->next) {
        char *msg = state_message(json);
        if (msg)
            push(s, msg);
    }
}

void events_close(LiveGame *g)
{
    for (Subscriber *s = g->subs; s; s = s->next) {
        pthread_mutex_lock(&s->lock);
        s->closed = true;
        pthread_mutex_unlock(&s->lock);
        wake(s);
    }
}

static void destroy(Subscriber *s)
{
    while (s->count) {
        free(s->queue[s->head]);
        s->head = (s->head + 1) % QUEUE_MAX;
        s->count--;
    }
    free(s->cur);
    close(s->efd);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

static void unlink_from(LiveGame *g, Subscriber *s)
{
    for (Subscriber **p = &g->subs; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
}

/* MHD calls this when the response is done with (the client left or the stream ended). */
static void on_free(void *cls)
{
    Subscriber *s = cls;
    LiveGame *g = s->game;
    pthread_mutex_lock(&g->lock);
    unlink_from(g, s);
    pthread_mutex_unlock(&g->lock);
    destroy(s);
    games_release(g); /* last: the game may be evicted from now on */
}

static ssize_t on_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    Subscriber *s = cls;
    static const char keepalive[] = ": keep-alive\n\n";
    for (;;) {
        pthread_mutex_lock(&s->lock);
        if (!s->cur && s->count) {
            s->cur = s->queue[s->head];
            s->cur_len = strlen(s->cur);
            s->cur_off = 0;
            s->head = (s->head + 1) % QUEUE_MAX;
            s->count--;
        }
        if (s->cur) {
            size_t n = s->cur_len - s->cur_off < max ? s->cur_len - s->cur_off : max;
            memcpy(buf, s->cur + s->cur_off, n);
            s->cur_off += n;
            if (s->cur_off == s->cur_len) {
                free(s->cur);
                s->cur = NULL;
            }
            s->next_keepalive = clock_ms() + EVENTS_KEEPALIVE_MS;
            pthread_mutex_unlock(&s->lock);
            return (ssize_t)n;
        }
        bool closed = s->closed;
        pthread_mutex_unlock(&s->lock);
        if (closed)
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

struct MHD_Response *events_response(Subscriber *s)
{
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, on_read, s, on_free);
    if (!r) {
        on_free(s);
        return NULL;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream; charset=utf-8");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache, no-store");
    MHD_add_response_header(r, "X-Accel-Buffering", "no");
    return r;
}
