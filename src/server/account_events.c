#include "account_events.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/text.h"
#include "game_service.h"
#include "lichess_json.h"
#include "relay.h"
#include "stream.h"
#include "util.h"

/* The accounts whose streams are open here (the owner of each stream: presence), in a list. */
typedef struct Listener {
    char user_id[USER_ID_MAX + 1];
    struct Listener *prev, *next;
} Listener;

static pthread_mutex_t listeners_lock = PTHREAD_MUTEX_INITIALIZER;
static Listener *listeners;

static void stream_ended(void *owner)
{
    Listener *l = owner;
    pthread_mutex_lock(&listeners_lock);
    if (l->prev)
        l->prev->next = l->next;
    else
        listeners = l->next;
    if (l->next)
        l->next->prev = l->prev;
    pthread_mutex_unlock(&listeners_lock);
    free(l);
}

static const StreamKind account_stream = {"application/x-ndjson", "\n", ACCOUNT_EVENTS_KEEPALIVE_MS, stream_ended};

/* A listener of user_id's, in the list; NULL when memory runs out. */
static Listener *listen_as(const char *user_id)
{
    Listener *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    snprintf(l->user_id, sizeof l->user_id, "%s", user_id);
    pthread_mutex_lock(&listeners_lock);
    l->next = listeners;
    if (listeners)
        listeners->prev = l;
    listeners = l;
    pthread_mutex_unlock(&listeners_lock);
    return l;
}

bool account_events_online(UserIdText **ids, int *n)
{
    *ids = NULL;
    *n = 0;
    int cap = 0;
    bool ok = true;
    pthread_mutex_lock(&listeners_lock);
    for (Listener *l = listeners; l && ok; l = l->next) {
        if (*n == cap) {
            UserIdText *grown = realloc(*ids, (size_t)(cap = cap ? cap * 2 : 16) * sizeof **ids);
            if (!(ok = grown != NULL))
                break;
            *ids = grown;
        }
        memcpy((*ids)[(*n)++], l->user_id, sizeof l->user_id);
    }
    pthread_mutex_unlock(&listeners_lock);
    if (!ok) {
        free(*ids);
        *ids = NULL;
        *n = 0;
    }
    return ok;
}

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
    StreamMessage *m = ok ? stream_message(line.s, line.len) : NULL;
    stream_push(ctx, m); /* NULL: ends it, the client reconnects */
    stream_unref(m);
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
    Listener *l = listen_as(p->user_id);
    Stream *s = l ? stream_new(&account_stream, c, topic, l) : NULL;
    if (!s) {
        if (l)
            stream_ended(l);
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
