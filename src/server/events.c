/* A game's Server-Sent Events (events.h), on the streams of stream.c: the topic is the game's
 * id, the message its state. */
#include "events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/text.h"
#include "game_json.h"
#include "stream.h"
#include "util.h"

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

/* g's state as an event (g's lock held); NULL when memory runs out. */
static StreamMessage *state_message(LiveGame *g)
{
    static const char head[] = "event: state\ndata: ", tail[] = "\n\n";
    char *json = util_json_text(game_json(g, -1));
    Text event = {0};
    bool ok = json && text_add(&event, head) && text_add(&event, json) && text_add(&event, tail);
    StreamMessage *m = ok ? stream_message(event.s, event.len) : NULL;
    free(json);
    text_free(&event);
    return m;
}

static void push_each(Stream *s, void *ctx)
{
    stream_push(s, ctx);
}

/* The observer: g changed (its lock held); its state goes to each of its streams. */
static void on_changed(void *ctx, LiveGame *g)
{
    (void)ctx;
    char topic[STREAM_TOPIC_MAX];
    topic_of(g, topic);
    if (!stream_listened(topic))
        return;
    StreamMessage *m = state_message(g); /* NULL: each stream ends, and its client reconnects */
    stream_publish(topic, push_each, m);
    stream_unref(m);
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

/* Under g's lock (a GameCall's read): the first state goes out, and the stream joins g's
 * topic, so that no change falls between the two. */
static bool subscribe(void *ctx, LiveGame *g, int you)
{
    (void)you;
    Stream *s = ctx;
    StreamMessage *m = state_message(g);
    if (!m)
        return false;
    stream_push(s, m);
    stream_unref(m);
    service_hold(g); /* the stream outlives the request that opened it */
    stream_join(s);
    return true;
}

struct MHD_Response *events_open(LiveGame *g, struct MHD_Connection *c, GameStatus *status, char *message,
                                 size_t len)
{
    char topic[STREAM_TOPIC_MAX];
    topic_of(g, topic);
    Stream *s = stream_new(&game_events, c, topic, g);
    if (!s) {
        *status = GAME_NO_MEMORY;
        snprintf(message, len, "out of memory");
        return NULL;
    }
    GameCall call = {.read = subscribe, .ctx = s};
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
