#include "account_events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/text.h"
#include "game_service.h"
#include "lichess_json.h"
#include "relay.h"
#include "stream.h"
#include "util.h"

static const StreamKind account_stream = {"application/x-ndjson", "\n", ACCOUNT_EVENTS_KEEPALIVE_MS, NULL};

static void topic_of(const char *user_id, char topic[STREAM_TOPIC_MAX])
{
    snprintf(topic, STREAM_TOPIC_MAX, "account:%s", user_id);
}

void account_events_publish(const char *user_id, json_t *event)
{
    char *json = util_json_text(event);
    Text line = {0};
    char topic[STREAM_TOPIC_MAX];
    topic_of(user_id, topic);
    if (json && text_addf(&line, "%s\n", json))
        relay_publish(topic, line.s, line.len, false);
    else
        fprintf(stderr, "starfish: account %s: an event was lost (out of memory)\n", user_id);
    text_free(&line);
    free(json);
}

/* gameStart or gameFinish for the account of g's `side` (g's lock held). */
static void game_event(LiveGame *g, int side, const char *type)
{
    json_t *info = lichess_game_info(g, side);
    json_t *event = info ? json_pack("{s:s, s:o}", "type", type, "game", info) : NULL;
    if (!event) {
        fprintf(stderr, "starfish: game %s: %s was lost (out of memory)\n", g->id, type);
        return;
    }
    account_events_publish(g->seat[side].user, event);
}

static void on_seated(void *ctx, LiveGame *g, int side)
{
    (void)ctx;
    game_event(g, side, "gameStart");
}

static void on_finished(void *ctx, LiveGame *g)
{
    (void)ctx;
    for (int side = 0; side < 2; side++)
        if (g->seat[side].user[0])
            game_event(g, side, "gameFinish");
}

bool account_events_start(void)
{
    GameObserver o = {.seated = on_seated, .finished = on_finished};
    return service_observe(&o);
}

/* For service_each_seated: a game that goes on, announced to a stream that opens. */
static void announce(void *ctx, LiveGame *g, int side)
{
    json_t *info = lichess_game_info(g, side);
    json_t *event = info ? json_pack("{s:s, s:o}", "type", "gameStart", "game", info) : NULL;
    char *json = util_json_text(event);
    Text line = {0};
    bool ok = json && text_addf(&line, "%s\n", json);
    stream_push(ctx, ok ? stream_message(line.s, line.len) : NULL); /* NULL: ends it, the client reconnects */
    text_free(&line);
    free(json);
}

struct MHD_Response *account_events_open(const Principal *p, struct MHD_Connection *c, unsigned *status, char *err,
                                         size_t len)
{
    if (p->via == AUTH_NONE) {
        *status = 401;
        snprintf(err, len, "log in first (a session or a bearer token)");
        return NULL;
    }
    char topic[STREAM_TOPIC_MAX];
    topic_of(p->user_id, topic);
    Stream *s = stream_new(&account_stream, c, topic, NULL);
    if (!s) {
        *status = 503;
        snprintf(err, len, "out of memory");
        return NULL;
    }
    stream_join(s); /* first: an event from now on is not missed (a game may be announced twice) */
    service_each_seated(p->user_id, announce, s);
    struct MHD_Response *r = stream_response(s);
    if (!r) {
        *status = 503;
        snprintf(err, len, "out of memory");
    }
    return r;
}

int account_events_count(void)
{
    return stream_count(&account_stream);
}

bool account_events_listening(const char *user_id)
{
    char topic[STREAM_TOPIC_MAX];
    topic_of(user_id, topic);
    return stream_listened(topic);
}
