/* A game's Server-Sent Events (events.h), on the streams of stream.c: the topic is the game's
 * id, the messages those of events_told.c. */
#include "events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events_told.h"
#include "stream.h"

static void release_game(void *owner)
{
    service_release(owner);
}

static const StreamKind game_events = {"text/event-stream; charset=utf-8", ": keep-alive\n\n", EVENTS_KEEPALIVE_MS,
                                       release_game};

/* The topic of g's event streams. */
static void topic_of(const LiveGame *g, char topic[STREAM_TOPIC_MAX])
{
    snprintf(topic, STREAM_TOPIC_MAX, "game:%s", g->id);
}

/* Each stream gets its audience's message of the change. */
static void push_each(Stream *s, void *ctx)
{
    const Telling *t = ctx;
    stream_push(s, t->to[stream_audience(s)]);
}

/* The observer: g changed (its lock held); each of its streams is told (events_told.h). */
static void on_changed(void *ctx, LiveGame *g)
{
    (void)ctx;
    char topic[STREAM_TOPIC_MAX];
    topic_of(g, topic);
    if (!stream_listened(topic)) {
        told_forget(g); /* the next stream starts from the state */
        return;
    }
    Telling t;
    if (!told_change(g, &t))
        return;
    stream_publish(topic, push_each, &t); /* no message (memory ran out): each stream ends, its client reconnects */
    told_done(&t);
}

void events_close_all(void)
{
    stream_close_all();
}

bool events_closed(void)
{
    return stream_closed();
}

int events_count(void)
{
    return stream_count(&game_events);
}

bool events_start(void)
{
    GameObserver o = {.changed = on_changed};
    return stream_start() && service_observe(&o);
}

void events_stop(void)
{
    stream_stop();
}

/* Under g's lock (a GameCall's read, `you` the reader's side or -1): the first state goes
 * out, and the stream joins g's topic, so that no change falls between the two. */
static bool subscribe(void *ctx, LiveGame *g, int you)
{
    Stream *s = ctx;
    StreamMessage *m = told_first(g, you);
    if (!m)
        return false;
    stream_set_audience(s, you + 1);
    stream_push(s, m);
    stream_unref(m);
    service_hold(g); /* the stream outlives the request that opened it */
    stream_join(s);
    return true;
}

struct MHD_Response *events_open(LiveGame *g, const char *token, const char *user, struct MHD_Connection *c,
                                 GameStatus *status, char *message, size_t len)
{
    char topic[STREAM_TOPIC_MAX];
    topic_of(g, topic);
    Stream *s = stream_new(&game_events, c, topic, g);
    if (!s) {
        *status = GAME_NO_MEMORY;
        snprintf(message, len, "out of memory");
        return NULL;
    }
    GameCall call = {.token = token, .user = user, .read = subscribe, .ctx = s};
    *status = service_read(g, &call);
    if (*status != GAME_OK) {
        snprintf(message, len, "%s", call.message);
        stream_discard(s);
        return NULL;
    }
    struct MHD_Response *r = stream_response(s); /* on failure, the stream ends */
    if (r)
        return r;
    *status = GAME_NO_MEMORY;
    snprintf(message, len, "out of memory");
    return NULL;
}
