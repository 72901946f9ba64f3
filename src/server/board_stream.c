#include "board_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/text.h"
#include "game_hold.h"
#include "lichess_json.h"
#include "stream.h"
#include "util.h"

#define BOARD_KEEPALIVE_MS 7000

static const StreamKind board_stream = {"application/x-ndjson", "\n", BOARD_KEEPALIVE_MS, game_hold_release};

static void topic_of(const char *game_id, char topic[STREAM_TOPIC_MAX])
{
    snprintf(topic, STREAM_TOPIC_MAX, "board:%s", game_id);
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

/* What a change sends: the state, and whether the stream then ends (the game is over); to the
 * streams of one side, or of both (side -1). */
typedef struct Sending {
    StreamMessage *state;
    bool last;
    int side;
} Sending;

static void push_each(Stream *s, void *ctx)
{
    const Sending *send = ctx;
    if (send->side >= 0 && stream_audience(s) != send->side + 1)
        return;
    stream_push(s, send->state);
    if (send->last) /* the stream ends once the state is sent */
        stream_push(s, NULL);
}

/* The observer: g changed (its lock held); its state goes to each of its board streams. */
static void on_changed(void *ctx, LiveGame *g)
{
    (void)ctx;
    char topic[STREAM_TOPIC_MAX];
    topic_of(g->id, topic);
    if (!stream_listened(topic))
        return;
    Sending send = {line_of(lichess_game_state(g)), g->result != RESULT_NONE, -1};
    stream_publish(topic, push_each, &send); /* no state (memory ran out): the streams end, clients reconnect */
    stream_unref(send.state);
}

/* The presence's news: side's opponent in game_id has gone (claimable in claim_in_s), or is back. */
static void on_presence(const char *game_id, int side, bool gone, int claim_in_s)
{
    char topic[STREAM_TOPIC_MAX];
    topic_of(game_id, topic);
    json_t *o = json_pack("{s:s, s:b}", "type", "opponentGone", "gone", gone);
    if (o && gone)
        json_object_set_new(o, "claimWinInSeconds", json_integer(claim_in_s));
    Sending send = {line_of(o), false, side};
    if (send.state)
        stream_publish(topic, push_each, &send);
    stream_unref(send.state);
}

bool board_stream_start(void)
{
    GameObserver o = {.changed = on_changed};
    presence_observe(on_presence);
    return service_observe(&o);
}

int board_stream_count(void)
{
    return stream_count(&board_stream);
}

/* Under g's lock (a GameCall's read): gameFull goes out, and the stream joins g's topic (or
 * ends after it, the game being over), so that no change falls between the two; the stream's
 * audience is its side (1 + WHITE or BLACK), for the news of the opponent. */
typedef struct Opening {
    Stream *s;
    bool present; /* the side's presence is to be kept */
} Opening;

static bool subscribe(void *ctx, LiveGame *g, int you)
{
    Opening *o = ctx;
    Stream *s = o->s;
    StreamMessage *m = line_of(lichess_game_full(g));
    if (!m)
        return false;
    stream_push(s, m);
    stream_unref(m);
    if (g->result != RESULT_NONE)
        stream_push(s, NULL); /* nothing more will come */
    service_hold(g);          /* the stream outlives the request that opened it */
    stream_set_audience(s, you + 1);
    o->present = game_hold_wants_presence(g, you);
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
    topic_of(g->id, topic);
    GameHold *h = game_hold_new(g);
    Stream *s = h ? stream_new(&board_stream, c, topic, h) : NULL;
    if (!s) {
        free(h);
        *status = GAME_NO_MEMORY;
        snprintf(message, len, "out of memory");
        return NULL;
    }
    Opening o = {s, false};
    GameCall call = {.user = p->user_id, .read = subscribe, .ctx = &o};
    *status = service_read_player(g, &call);
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
