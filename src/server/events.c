/* A game's Server-Sent Events (events.h), on the streams of stream.c: the topic is the game's
 * id, the messages those of events_told.c. */
#include "events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events_told.h"
#include "game_hold.h"
#include "stream.h"

static const StreamKind game_events = {"text/event-stream; charset=utf-8", ": keep-alive\n\n", EVENTS_KEEPALIVE_MS,
                                       game_hold_release};

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

/* A message for the streams of one audience (a player's side + 1). */
typedef struct Aimed {
    StreamMessage *m;
    int audience;
} Aimed;

static void push_aimed(Stream *s, void *ctx)
{
    const Aimed *a = ctx;
    if (stream_audience(s) == a->audience)
        stream_push(s, a->m);
}

/* The presence's news: side's opponent in game_id has gone (claimable in claim_in_s), or is
 * back: an "opponentGone" event to that side's streams. */
static void on_presence(const char *game_id, int side, bool gone, int claim_in_s)
{
    char topic[STREAM_TOPIC_MAX], data[96];
    snprintf(topic, STREAM_TOPIC_MAX, "game:%s", game_id);
    int len = gone ? snprintf(data, sizeof data, "event: opponentGone\ndata: {\"gone\":true,\"claimWinInSeconds\":%d}\n\n",
                              claim_in_s)
                   : snprintf(data, sizeof data, "event: opponentGone\ndata: {\"gone\":false}\n\n");
    Aimed a = {stream_message(data, (size_t)len), side + 1};
    if (a.m)
        stream_publish(topic, push_aimed, &a);
    stream_unref(a.m);
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
    presence_observe(on_presence);
    return stream_start() && service_observe(&o);
}

void events_stop(void)
{
    stream_stop();
}

/* Under g's lock (a GameCall's read, `you` the reader's side or -1): the first state goes
 * out, and the stream joins g's topic, so that no change falls between the two. */
typedef struct Opening {
    Stream *s;
    bool present; /* a player's presence is to be kept */
} Opening;

static bool subscribe(void *ctx, LiveGame *g, int you)
{
    Opening *o = ctx;
    Stream *s = o->s;
    StreamMessage *m = told_first(g, you);
    if (!m)
        return false;
    o->present = game_hold_wants_presence(g, you);
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
    GameHold *h = game_hold_new(g);
    Stream *s = h ? stream_new(&game_events, c, topic, h) : NULL;
    if (!s) {
        free(h);
        *status = GAME_NO_MEMORY;
        snprintf(message, len, "out of memory");
        return NULL;
    }
    Opening o = {s, false};
    GameCall call = {.token = token, .user = user, .read = subscribe, .ctx = &o};
    *status = service_read(g, &call);
    if (*status != GAME_OK) {
        snprintf(message, len, "%s", call.message);
        stream_discard(s);
        free(h);
        return NULL;
    }
    game_hold_enter(h, stream_audience(s) - 1, o.present);
    struct MHD_Response *r = stream_response(s); /* on failure, the stream ends */
    if (r)
        return r;
    *status = GAME_NO_MEMORY;
    snprintf(message, len, "out of memory");
    return NULL;
}
