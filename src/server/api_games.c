/* The API's games: creating and importing them, the list, a game's state, its actions (moves,
 * resignations, offers), its event stream and its PGN. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/pgn.h"
#include "../util/parse.h"
#include "../util/text.h"
#include "../variants/registry.h"
#include "api_route.h"
#include "tournament_service.h"
#include "events.h"
#include "game_json.h"
#include "limits.h"
#include "util.h"

/* ---- Creating ------------------------------------------------------------------------------- */

/* The read of a new game: 201 { game, token, side, invite } for its creator. */
static bool read_created(void *ctx, LiveGame *g, int you)
{
    struct MHD_Response **r = ctx;
    json_t *state = game_json(g, you);
    *r = state ? http_json_response(json_pack("{s:o, s:s, s:s, s:o}", "game", state, "token", g->token[you], "side",
                                              side_name(you), "invite",
                                              g->engine[you ^ 1] ? json_null() : json_string(g->token[you ^ 1])))
               : NULL;
    return *r != NULL;
}

static enum MHD_Result create_from(ApiRequest *rq, const GameOptions *opt, Game *initial)
{
    int retry_s;
    if (!limits_new_game(rq->client, &retry_s)) {
        game_free(initial);
        return http_too_many(rq->c, retry_s, "too many new games from this address (at most %d a minute)",
                             limits_new_games());
    }
    struct MHD_Response *r = NULL;
    GameCall call = {.read = read_created, .ctx = &r};
    return api_answer(rq->c, service_create(opt, initial, &call), &call, MHD_HTTP_CREATED);
}

/* "rated": a friend game between accounts from the variant's start, its creator logged in:
 * 0, or the status to answer (with err). */
static int read_rated(const ApiRequest *rq, json_t *o, const char *fen, GameOptions *opt, char *err)
{
    int status = opt_bool(o, "rated", false, &opt->rated, err);
    if (status || !opt->rated)
        return status;
    const char *why = rq->who.via == AUTH_NONE ? "log in to create a rated game"
                      : rq->who.bot           ? "a bot account's rated games are challenges (POST /api/challenge/NAME)"
                      : opt->engine_opponent  ? "a game against the engine is not rated (\"opponent\": \"friend\")"
                      : fen                   ? "a rated game starts from the variant's start (no \"fen\")"
                                              : NULL;
    if (why)
        snprintf(err, ERR_MAX, "%s", why);
    return !why ? 0 : rq->who.via == AUTH_NONE ? 401 : 400;
}

/* POST /api/games (a position, the variant's start by default) and POST /api/import (a
 * position or a PGN, whose [Variant] may name the variant). */
static enum MHD_Result post_new_game(ApiRequest *rq, bool import)
{
    char err[ERR_MAX];
    json_t *o;
    int bad = api_body(rq, &o, err);
    if (bad)
        return http_error(rq->c, (unsigned)bad, "%s", err);
    GameOptions opt = {0};
    const char *fen, *pgn = NULL;
    int status;
    if ((status = read_variant(o, !import, &opt.v, err)) || (status = opt_string(o, "fen", &fen, err)) ||
        (import && (status = opt_string(o, "pgn", &pgn, err))) || (status = read_options(o, &opt, err))) {
        json_decref(o);
        return http_error(rq->c, (unsigned)status, "%s", err);
    }
    if (import && (!fen == !pgn || (fen && !opt.v))) {
        json_decref(o);
        return http_error(rq->c, 400, "%s", fen && pgn ? "give \"pgn\" or \"fen\", not both"
                                            : fen      ? "missing \"variant\""
                                                       : "missing \"pgn\" or \"fen\"");
    }
    if (!import && (status = read_rated(rq, o, fen, &opt, err))) {
        json_decref(o);
        return http_error(rq->c, (unsigned)status, "%s", err);
    }
    Game g = {0};
    char why[300];
    bool ok = pgn ? game_from_pgn(&g, pgn, opt.v, variant_by_name, why, sizeof why) : game_init(&g, opt.v, fen, why, sizeof why);
    json_decref(o);
    if (!ok) {
        game_free(&g);
        return http_error(rq->c, (unsigned)api_init_failure_status(why), "%s: %s", pgn ? "bad PGN" : "bad fen", why);
    }
    if (opt.v && g.v != opt.v) {
        const char *named = g.v->def->name;
        game_free(&g);
        return http_error(rq->c, 400, "the PGN is a game of %s, not %s", named, opt.v->def->name);
    }
    opt.v = g.v;
    AccountReply reply = {0};
    AccountStatus seated = rq->who.via == AUTH_NONE ? ACCOUNT_OK
                                                    : account_seat(&rq->who, g.v->def->name, &opt.seat[opt.creator], &reply);
    if (seated != ACCOUNT_OK) {
        game_free(&g);
        return http_error(rq->c, api_account_status(seated), "%s", reply.message);
    }
    return create_from(rq, &opt, &g);
}

static enum MHD_Result post_game(ApiRequest *rq)
{
    return post_new_game(rq, false);
}

static enum MHD_Result post_import(ApiRequest *rq)
{
    return post_new_game(rq, true);
}

/* A line of a list of games: GAME's summary. */
static json_t *list_row_json(const ListRow *row, bool *ok)
{
    char created[40];
    util_iso_time(row->created_ms, created, sizeof created);
    bool aborted = strcmp(row->result, "aborted") == 0; /* the store's word; "*" in GAME, as in PGN */
    json_t *game = json_pack("{s:s, s:s, s:s, s:o, s:i, s:s, s:I}", "id", row->id, "variant", row->variant, "result",
                             aborted ? "*" : row->result, "reason", row->reason[0] ? json_string(row->reason) : json_null(),
                             "moves", row->moves, "created", created, "createdAt", (json_int_t)row->created_ms);
    game_json_players(game, row->rated, row->seat, row->engine, ok);
    return game;
}

/* Whether the client asks for NDJSON (a JSON object a line), as lichess's clients may. */
static bool wants_ndjson(const ApiRequest *rq)
{
    const char *accept = MHD_lookup_connection_value(rq->c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
    return accept && strstr(accept, "application/x-ndjson");
}

char *api_ndjson_text(json_t *list)
{
    Text out = {0};
    size_t i;
    json_t *game;
    bool ok = true;
    json_array_foreach(list, i, game)
    {
        char *line = json_dumps(game, JSON_COMPACT);
        ok = ok && line && text_addf(&out, "%s\n", line);
        free(line);
    }
    json_decref(list);
    char *text = ok ? text_take(&out) : NULL;
    text_free(&out);
    return ok && !text ? strdup("") : text; /* no games: an empty text */
}

enum MHD_Result api_send_list(ApiRequest *rq, const ListQuery *q)
{
    ListRow *rows;
    int n;
    if (!service_list(q, &rows, &n))
        return http_error(rq->c, MHD_HTTP_SERVICE_UNAVAILABLE, "the games cannot be read");
    json_t *list = json_array();
    bool ok = true;
    for (int i = 0; i < n; i++)
        util_json_append(list, list_row_json(&rows[i], &ok), &ok);
    free(rows);
    if (!ok) { /* a game left out: none of them */
        json_decref(list);
        list = NULL;
    }
    if (list && wants_ndjson(rq)) {
        char *text = api_ndjson_text(list);
        return text ? http_text(rq->c, 200, "application/x-ndjson", text, NULL) : http_send(rq->c, 503, NULL);
    }
    return http_json(rq->c, 200, list);
}

static enum MHD_Result list_games(ApiRequest *rq)
{
    const char *text = api_query(rq, "limit");
    long limit = 20;
    if (text && !parse_long(text, 1, 100, &limit))
        return http_error(rq->c, 400, "limit must be an integer from 1 to 100");
    return api_send_list(rq, &(ListQuery){.limit = (int)limit});
}

/* ---- A game --------------------------------------------------------------------------------- */

/* The account acting in the request (its id), or NULL. */
static const char *acting(const ApiRequest *rq)
{
    return rq->who.via == AUTH_NONE ? NULL : rq->who.user_id;
}


LiveGame *api_find_game(ApiRequest *rq, enum MHD_Result *ret)
{
    LiveGame *g = NULL;
    GameCall call = {0};
    GameStatus status = service_find(rq->arg[0], &g, &call);
    if (status == GAME_OK)
        return g;
    *ret = http_error(rq->c, api_status(status), "%s", call.message);
    return NULL;
}

static enum MHD_Result read_game(ApiRequest *rq, LiveGame *g)
{
    struct MHD_Response *r = NULL;
    GameCall call = {.token = api_query(rq, "token"), .user = acting(rq), .read = api_read_state, .ctx = &r};
    return api_answer(rq->c, service_read(g, &call), &call, MHD_HTTP_OK);
}

/* A draw offer to the engine, waiting for its answer: the game (a reference), the call and
 * its answer. */
typedef struct DrawWait {
    Waiting w;
    LiveGame *live;
    char *token;
    char user[USER_ID_MAX + 1];
    GameCall call;
    struct MHD_Response *r;
    DrawQuestion q;
    bool accepted;
} DrawWait;

static void draw_done(Waiting *w)
{
    DrawWait *d = (DrawWait *)w;
    service_release(d->live);
    if (d->r)
        MHD_destroy_response(d->r);
    game_copy_free(&d->q.game);
    free(d->token);
    free(d);
}

static EngineAsk ask_draw(Waiting *w)
{
    DrawWait *d = (DrawWait *)w;
    return engine_ask_draw(&d->q, &d->accepted, api_on_answer, w);
}

/* The engine answered a draw offer: the service is told (and the engine asked again if the
 * game moved on meanwhile). */
static enum MHD_Result draw_answered(Waiting *w)
{
    DrawWait *d = (DrawWait *)w;
    if (!w->ok)
        return api_no_answer(w);
    GameStatus status = service_draw_answer(d->live, &d->call, &d->q, d->accepted);
    if (status == GAME_ENGINE_DECIDES)
        return api_wait_again(w);
    return api_answer(w->c, status, &d->call, MHD_HTTP_OK);
}

/* A draw offer to the engine: the request waits for its answer, holding the game. */
static enum MHD_Result wait_for_draw(ApiRequest *rq, LiveGame *g, GameCall *call, DrawQuestion *q)
{
    DrawWait *d = calloc(1, sizeof *d);
    char *token = strdup(call->token ? call->token : "");
    if (!d || !token) {
        free(d);
        free(token);
        game_copy_free(&q->game);
        return api_answer(rq->c, GAME_NO_MEMORY, &(GameCall){.ctx = call->ctx, .message = "out of memory"}, 0);
    }
    service_hold(g);
    *d = (DrawWait){.w = {.ask = ask_draw, .resumed = draw_answered, .done = draw_done}, .live = g, .token = token,
                    .q = *q};
    snprintf(d->user, sizeof d->user, "%s", call->user ? call->user : "");
    d->call = (GameCall){.token = token, .user = call->user ? d->user : NULL, .read = call->read, .ctx = &d->r};
    d->r = *(struct MHD_Response **)call->ctx; /* made for the state before the answer */
    *(struct MHD_Response **)call->ctx = NULL;
    return api_wait_for_engine(rq, &d->w);
}

/* The body's fields of an action: its argument (the move; the offer's action) and the token. */
static int read_action(json_t *o, GameAction act, const char **arg, const char **token, char *err)
{
    bool offer = act == ACT_DRAW || act == ACT_TAKEBACK || act == ACT_REMATCH;
    int status = act == ACT_MOVE ? req_string(o, "move", arg, err) : offer ? req_string(o, "action", arg, err) : 0;
    if (!status && offer && strcmp(*arg, "offer") && strcmp(*arg, "accept") && strcmp(*arg, "decline")) {
        snprintf(err, ERR_MAX, "\"action\" must be \"offer\", \"accept\" or \"decline\"");
        status = 400;
    }
    return status ? status : opt_string(o, "token", token, err);
}

enum MHD_Result api_game_act(ApiRequest *rq, LiveGame *g, GameAction act, const char *arg, const char *token,
                             bool (*read)(void *ctx, LiveGame *g, int you))
{
    struct MHD_Response *r = NULL;
    GameCall call = {.token = token, .user = acting(rq), .read = read, .ctx = &r};
    DrawQuestion q;
    GameStatus status = act == ACT_MOVE       ? service_move(g, &call, arg)
                        : act == ACT_DRAW     ? service_draw(g, &call, arg, &q)
                        : act == ACT_TAKEBACK ? service_takeback(g, &call, arg)
                        : act == ACT_REMATCH  ? service_rematch(g, &call, arg)
                        : act == ACT_ABORT    ? service_abort(g, &call)
                        : act == ACT_BERSERK  ? tournament_berserk(g, &call)
                        : act == ACT_CLAIM_VICTORY || act == ACT_CLAIM_DRAW
                            ? service_claim(g, &call, act == ACT_CLAIM_DRAW)
                                              : service_resign(g, &call);
    return status == GAME_ENGINE_DECIDES ? wait_for_draw(rq, g, &call, &q)
                                         : api_answer(rq->c, status, &call, MHD_HTTP_OK);
}

/* POST /api/games/ID/ACTION with its body's fields. */
static enum MHD_Result act(ApiRequest *rq, LiveGame *g, GameAction act)
{
    char err[ERR_MAX];
    enum MHD_Result refused;
    if (!api_player_api_ok(rq, false, &refused))
        return refused;
    json_t *o = NULL;
    const char *arg = NULL, *token = NULL;
    int bad = api_body(rq, &o, err);
    if (!bad)
        bad = read_action(o, act, &arg, &token, err);
    enum MHD_Result ret = bad ? http_error(rq->c, (unsigned)bad, "%s", err)
                              : api_game_act(rq, g, act, arg, token, api_read_state);
    json_decref(o); /* after a wait for the engine has copied the token */
    return ret;
}

/* POST /api/games/ID/join {"invite"}: the logged-in account takes the side its invite is for. */
static enum MHD_Result join(ApiRequest *rq, LiveGame *g)
{
    char err[ERR_MAX];
    json_t *o;
    const char *invite;
    int bad = api_body(rq, &o, err);
    if (!bad && (bad = req_string(o, "invite", &invite, err)))
        json_decref(o);
    if (bad)
        return http_error(rq->c, (unsigned)bad, "%s", err);
    if (rq->who.via == AUTH_NONE) {
        json_decref(o);
        return http_error(rq->c, 403, "log in to join game %s with an account (anyone may watch it)", g->id);
    }
    enum MHD_Result refused;
    if (!api_player_api_ok(rq, false, &refused)) {
        json_decref(o);
        return refused;
    }
    AccountReply reply = {0};
    SeatRow seat;
    AccountStatus seated = account_seat(&rq->who, g->v->def->name, &seat, &reply);
    if (seated != ACCOUNT_OK) {
        json_decref(o);
        return http_error(rq->c, api_account_status(seated), "%s", reply.message);
    }
    struct MHD_Response *r = NULL;
    GameCall call = {.user = rq->who.user_id, .read = api_read_state, .ctx = &r};
    GameStatus status = service_join(g, &call, invite, &seat);
    json_decref(o);
    return api_answer(rq->c, status, &call, MHD_HTTP_OK);
}

static enum MHD_Result open_events(ApiRequest *rq, LiveGame *g)
{
    if (events_closed())
        return http_error(rq->c, 503, "the server is shutting down");
    GameStatus status;
    char err[ERR_MAX];
    struct MHD_Response *r = events_open(g, rq->c, &status, err, sizeof err);
    if (!r)
        return http_error(rq->c, api_status(status), "%s", err);
    return http_send(rq->c, MHD_HTTP_OK, r);
}

static enum MHD_Result send_pgn(ApiRequest *rq, LiveGame *g)
{
    char disposition[80];
    snprintf(disposition, sizeof disposition, "inline; filename=\"starfish-%s.pgn\"", g->id);
    return http_text(rq->c, 200, "application/x-chess-pgn; charset=utf-8", service_pgn(g), disposition);
}

/* One handler per endpoint of a game: the game found, the work done, the reference given
 * back (an event stream and a waiting request hold references of their own). */
#define GAME_ENDPOINT(name, call)                                                                                      \
    static enum MHD_Result name(ApiRequest *rq)                                                                        \
    {                                                                                                                  \
        enum MHD_Result ret;                                                                                           \
        LiveGame *g = api_find_game(rq, &ret);                                                                             \
        if (!g)                                                                                                        \
            return ret;                                                                                                \
        ret = call;                                                                                                    \
        service_release(g);                                                                                            \
        return ret;                                                                                                    \
    }

GAME_ENDPOINT(get_game, read_game(rq, g))
GAME_ENDPOINT(post_move, act(rq, g, ACT_MOVE))
GAME_ENDPOINT(post_resign, act(rq, g, ACT_RESIGN))
GAME_ENDPOINT(post_draw, act(rq, g, ACT_DRAW))
GAME_ENDPOINT(post_takeback, act(rq, g, ACT_TAKEBACK))
GAME_ENDPOINT(post_rematch, act(rq, g, ACT_REMATCH))
GAME_ENDPOINT(post_abort, act(rq, g, ACT_ABORT))
GAME_ENDPOINT(post_berserk, act(rq, g, ACT_BERSERK))
GAME_ENDPOINT(post_claim_victory, act(rq, g, ACT_CLAIM_VICTORY))
GAME_ENDPOINT(post_claim_draw, act(rq, g, ACT_CLAIM_DRAW))
GAME_ENDPOINT(post_join, join(rq, g))
GAME_ENDPOINT(get_events, open_events(rq, g))
GAME_ENDPOINT(get_pgn, send_pgn(rq, g))

const ApiRoute api_game_routes[] = {
    {"GET", "/games", list_games, false},
    {"POST", "/games", post_game, false},
    {"POST", "/import", post_import, false},
    {"GET", "/games/{id}", get_game, false},
    {"POST", "/games/{id}/moves", post_move, false},
    {"POST", "/games/{id}/resign", post_resign, false},
    {"POST", "/games/{id}/draw", post_draw, false},
    {"POST", "/games/{id}/takeback", post_takeback, false},
    {"POST", "/games/{id}/rematch", post_rematch, false},
    {"POST", "/games/{id}/abort", post_abort, false},
    {"POST", "/games/{id}/berserk", post_berserk, false},
    {"POST", "/games/{id}/claim-victory", post_claim_victory, false},
    {"POST", "/games/{id}/claim-draw", post_claim_draw, false},
    {"POST", "/games/{id}/join", post_join, false},
    {"GET", "/games/{id}/events", get_events, true},
    {"GET", "/games/{id}/pgn", get_pgn, false},
    {NULL, NULL, NULL, false},
};
