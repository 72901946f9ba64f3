#include "board_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/text.h"
#include "lichess_json.h"
#include "stream.h"
#include "util.h"

#define BOARD_KEEPALIVE_MS 7000

static void release_game(void *owner)
{
    service_release(owner);
}

static const StreamKind board_stream = {"application/x-ndjson", "\n", BOARD_KEEPALIVE_MS, release_game};

static void topic_of(const LiveGame *g, char topic[STREAM_TOPIC_MAX])
{
    snprintf(topic, STREAM_TOPIC_MAX, "board:%s", g->id);
}

/* An object as a line of the stream (taken over); NULL when memory runs out. */
static StreamMessage *line_of(json_t *object)
{
    char *json = util_json_text(object);
    Text line = {0};
    StreamMessage *m = json && text_addf(&line, "%s\n", json) ? stream_message(line.s, line.len) : NULL;
    text_free(&line);
    free(json);
    return m;
}

/* What a change sends: the state, and whether the stream then ends (the game is over). */
typedef struct Sending {
    StreamMessage *state;
    bool last;
} Sending;

static void push_each(Stream *s, void *ctx)
{
    const Sending *send = ctx;
    stream_push(s, send->state);
    if (send->last) /* the stream ends once the state is sent */
        stream_push(s, NULL);
}

/* The observer: g changed (its lock held); its state goes to each of its board streams. */
static void on_changed(void *ctx, LiveGame *g)
{
    (void)ctx;
    char topic[STREAM_TOPIC_MAX];
    topic_of(g, topic);
    if (!stream_listened(topic))
        return;
    Sending send = {line_of(lichess_game_state(g)), g->result != RESULT_NONE};
    stream_publish(topic, push_each, &send); /* no state (memory ran out): the streams end, clients reconnect */
    stream_unref(send.state);
}

bool board_stream_start(void)
{
    GameObserver o = {.changed = on_changed};
    return service_observe(&o);
}

int board_stream_count(void)
{
    return stream_count(&board_stream);
}

/* Under g's lock (a GameCall's read): gameFull goes out, and the stream joins g's topic (or
 * ends after it, the game being over), so that no change falls between the two. */
static bool subscribe(void *ctx, LiveGame *g, int you)
{
    (void)you;
    Stream *s = ctx;
    StreamMessage *m = line_of(lichess_game_full(g));
    if (!m)
        return false;
    stream_push(s, m);
    stream_unref(m);
    if (g->result != RESULT_NONE)
        stream_push(s, NULL); /* nothing more will come */
    service_hold(g);          /* the stream outlives the request that opened it */
    stream_join(s);
    return true;
}

struct MHD_Response *board_stream_open(LiveGame *g, const Principal *p, struct MHD_Connection *c, GameStatus *status,
                                       char *message, size_t len)
{
    *status = GAME_NOT_A_PLAYER;
    if (p->via == AUTH_NONE) {
        snprintf(message, len, "log in first: a game's stream is for its players (spectators: /api/games/%s/events)",
                 g->id);
        return NULL;
    }
    char topic[STREAM_TOPIC_MAX];
    topic_of(g, topic);
    Stream *s = stream_new(&board_stream, c, topic, g);
    if (!s) {
        *status = GAME_NO_MEMORY;
        snprintf(message, len, "out of memory");
        return NULL;
    }
    GameCall call = {.user = p->user_id, .read = subscribe, .ctx = s};
    *status = service_read_player(g, &call);
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
