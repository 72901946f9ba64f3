/* The API's bots and an account's games, in lichess's shapes: POST /api/bot/account/upgrade
 * (an account that has never played becomes a bot), GET /api/bot/online (NDJSON, the bots
 * online, the house bots first) and GET /api/account/playing (the games that go on, the
 * account's turn first).  And the rule that keeps bots to the Bot API. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/parse.h"
#include "../variants/registry.h"
#include "api_route.h"
#include "bot_service.h"
#include "lichess_json.h"
#include "util.h"

#define PLAYING_DEFAULT 9
#define PLAYING_MAX 50
#define ONLINE_DEFAULT 50

bool api_player_api_ok(ApiRequest *rq, bool bot_api, enum MHD_Result *ret)
{
    if (rq->who.via == AUTH_NONE || !rq->who.bot == !bot_api)
        return true;
    *ret = bot_api ? http_error(rq->c, 403, "this is the Bot API, for bot accounts (POST /api/bot/account/upgrade)")
                   : http_error(rq->c, 403, "a bot account plays through the Bot API (/api/bot/...) only");
    return false;
}

/* The query's "nb" (lo..hi, dflt when absent) in *nb; false after answering 400. */
static bool read_nb(ApiRequest *rq, int lo, int hi, int dflt, int *nb, enum MHD_Result *ret)
{
    const char *text = api_query(rq, "nb");
    *nb = dflt;
    if (!text || parse_int(text, lo, hi, nb))
        return true;
    *ret = http_error(rq->c, 400, "nb must be an integer from %d to %d", lo, hi);
    return false;
}

static enum MHD_Result post_upgrade(ApiRequest *rq)
{
    AccountReply reply = {0};
    AccountStatus status = bot_upgrade(&rq->who, &reply);
    return status == ACCOUNT_OK ? http_json(rq->c, 200, json_pack("{s:b}", "ok", true))
                                : http_error(rq->c, api_account_status(status), "%s", reply.message);
}

/* The bot as GET /api/bot/online lists it: the user, its ratings now. */
static json_t *bot_json(const UserRow *u)
{
    PerfRow perfs[VARIANTS_MAX];
    AccountReply reply = {0};
    return account_perfs(u->id, perfs, &reply) == ACCOUNT_OK ? api_user_json(u, perfs) : NULL;
}

static enum MHD_Result get_online(ApiRequest *rq)
{
    enum MHD_Result ret;
    int nb;
    if (!read_nb(rq, 1, BOT_ONLINE_MAX, ONLINE_DEFAULT, &nb, &ret))
        return ret;
    UserRow *rows;
    int n;
    AccountReply reply = {0};
    if (bot_online(nb, &rows, &n, &reply) != ACCOUNT_OK)
        return http_error(rq->c, 503, "%s", reply.message);
    json_t *list = json_array();
    bool ok = list != NULL;
    for (int i = 0; i < n; i++)
        util_json_append(list, bot_json(&rows[i]), &ok);
    free(rows);
    char *text = ok ? api_ndjson_text(list) : (json_decref(list), NULL);
    return text ? http_text(rq->c, 200, "application/x-ndjson", text, NULL) : http_send(rq->c, 503, NULL);
}

/* The games gathered for GET /api/account/playing. */
typedef struct Playing {
    json_t **games;
    int n, cap;
    bool ok;
} Playing;

/* For service_each_seated: a game that goes on, as nowPlaying lists it. */
static void add_playing(void *ctx, LiveGame *g, int side)
{
    Playing *p = ctx;
    json_t *info = lichess_game_info(g, side);
    if (info && p->n == p->cap) {
        json_t **grown = realloc(p->games, (size_t)(p->cap = p->cap ? p->cap * 2 : 8) * sizeof *grown);
        if (grown)
            p->games = grown;
        else
            json_decref(info), info = NULL;
    }
    if (info)
        p->games[p->n++] = info;
    else
        p->ok = false;
}

/* Seconds left, no clock last. */
static json_int_t seconds_left(json_t *game)
{
    json_t *left = json_object_get(game, "secondsLeft");
    return json_is_integer(left) ? json_integer_value(left) : INT64_MAX;
}

/* The account's turn first, then the least time left (lichess's order). */
static int playing_order(const void *a, const void *b)
{
    json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    bool tx = json_is_true(json_object_get(x, "isMyTurn")), ty = json_is_true(json_object_get(y, "isMyTurn"));
    if (tx != ty)
        return tx ? -1 : 1;
    json_int_t lx = seconds_left(x), ly = seconds_left(y);
    return (lx > ly) - (lx < ly);
}

static enum MHD_Result get_playing(ApiRequest *rq)
{
    enum MHD_Result ret;
    int nb;
    if (rq->who.via == AUTH_NONE)
        return http_error(rq->c, 401, "log in first (a session or a bearer token)");
    if (!read_nb(rq, 1, PLAYING_MAX, PLAYING_DEFAULT, &nb, &ret))
        return ret;
    Playing p = {.ok = true};
    if (!service_each_seated(rq->who.user_id, add_playing, &p))
        p.ok = false;
    if (p.n > 1)
        qsort(p.games, (size_t)p.n, sizeof *p.games, playing_order);
    json_t *list = json_array();
    for (int i = 0; i < p.n; i++) {
        if (i < nb)
            util_json_append(list, p.games[i], &p.ok);
        else
            json_decref(p.games[i]);
    }
    free(p.games);
    if (!p.ok) {
        json_decref(list);
        return http_error(rq->c, 503, "the games cannot be read (the store failed, or memory ran out)");
    }
    return http_json(rq->c, 200, json_pack("{s:o}", "nowPlaying", list));
}

const ApiRoute api_bot_routes[] = {
    {"POST", "/bot/account/upgrade", post_upgrade, false},
    {"GET", "/bot/online", get_online, false},
    {"GET", "/account/playing", get_playing, false},
    {NULL, NULL, NULL, false},
};
