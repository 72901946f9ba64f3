#include "board_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/text.h"
#include "game_presence.h"
#include "lichess_json.h"
#include "stream.h"
#include "util.h"

#define BOARD_KEEPALIVE_MS 7000

/* A stream's opener: the game it holds, its side, and that side's presence in the game. */
typedef struct BoardHolder {
    LiveGame *g;
    int side;           /* set before the stream joins its topic */
    Presence *presence; /* NULL until the stream is open, or when memory ran out */
} BoardHolder;

static void release_holder(void *owner)
{
    BoardHolder *h = owner;
    if (h->presence)
        presence_leave(h->presence);
    service_release(h->g);
    free(h);
}

static const StreamKind board_stream = {"application/x-ndjson", "\n", BOARD_KEEPALIVE_MS, release_holder};

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
    const BoardHolder *h = stream_owner(s);
    if (send->side >= 0 && h->side != send->side)
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

/* A stream being opened: whether its side hears of its opponent (a game with a clock, going on). */
typedef struct Opening {
    Stream *s;
    bool told;
} Opening;

/* Under g's lock (a GameCall's read): gameFull goes out, and the stream joins g's topic (or
 * ends after it, the game being over), so that no change falls between the two. */
static bool subscribe(void *ctx, LiveGame *g, int you)
{
    Opening *o = ctx;
    StreamMessage *m = line_of(lichess_game_full(g));
    if (!m)
        return false;
    stream_push(o->s, m);
    stream_unref(m);
    if (g->result != RESULT_NONE)
        stream_push(o->s, NULL); /* nothing more will come */
    service_hold(g);             /* the stream outlives the request that opened it */
    ((BoardHolder *)stream_owner(o->s))->side = you;
    o->told = g->has_clock && !g->days && g->result == RESULT_NONE;
    stream_join(o->s);
    return true;
}

/* A new stream for g, its holder with it; NULL when memory runs out. */
static Stream *new_stream(LiveGame *g, struct MHD_Connection *c)
{
    char topic[STREAM_TOPIC_MAX];
    topic_of(g->id, topic);
    BoardHolder *h = calloc(1, sizeof *h);
    Stream *s = h ? stream_new(&board_stream, c, topic, h) : NULL;
    if (!s)
        free(h);
    else
        h->g = g;
    return s;
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
    Opening o = {new_stream(g, c), false};
    if (!o.s) {
        *status = GAME_NO_MEMORY;
        snprintf(message, len, "out of memory");
        return NULL;
    }
    BoardHolder *h = stream_owner(o.s);
    GameCall call = {.user = p->user_id, .read = subscribe, .ctx = &o};
    *status = service_read_player(g, &call);
    if (*status != GAME_OK) {
        snprintf(message, len, "%s", call.message);
        stream_discard(o.s);
        free(h);
        return NULL;
    }
    h->presence = presence_enter(g->id, h->side, o.told);
    struct MHD_Response *r = stream_response(o.s); /* on failure, the stream ends */
    if (r)
        return r;
    *status = GAME_NO_MEMORY;
    snprintf(message, len, "out of memory");
    return NULL;
}
