#include "api.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/mate.h"
#include "../core/pgn.h"
#include "../util/parse.h"
#include "../util/version.h"
#include "../variants/registry.h"
#include "analysis_stream.h"
#include "api_fields.h"
#include "board_view.h"
#include "diagram.h"
#include "engine_worker.h"
#include "events.h"
#include "game_json.h"
#include "game_service.h"
#include "limits.h"
#include "piece_terms.h"
#include "puzzle_service.h"
#include "response.h"
#include "util.h"

static bool is_get(const char *method)
{
    return strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
}

/* ---- Endpoints ------------------------------------------------------------------------------ */

static char *variants_text;

static void build_variants(void)
{
    json_t *list = json_array();
    for (int i = 0; i < variant_count(); i++) {
        const Variant *v = variant_at(i);
        json_t *pieces = json_array(), *promotion = json_array();
        for (int t = 0; t < v->def->npieces; t++) {
            char letter[2] = {v->def->pieces[t].letter, 0};
            json_array_append_new(pieces, json_pack("{s:s, s:s}", "letter", letter, "name", v->def->pieces[t].name));
        }
        for (const char *p = v->def->promotion_letters; p && *p; p++) {
            char letter[2] = {*p, 0};
            json_array_append_new(promotion, json_string(letter));
        }
        json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o}", "name", v->def->name,
                                               "description", v->def->description, "start_fen", v->def->start_fen,
                                               "board", board_view_json(v), "pieces", pieces, "promotion", promotion,
                                               "terms", piece_terms_json(v)));
    }
    variants_text = util_json_text(list);
}

bool api_start(void)
{
    build_variants();
    return variants_text != NULL;
}

static enum MHD_Result get_variants(struct MHD_Connection *c)
{
    return http_text(c, 200, "application/json; charset=utf-8", strdup(variants_text), NULL);
}

/* The HTTP status for a domain result: only this layer speaks HTTP. */
static unsigned http_status(GameStatus status)
{
    switch (status) {
    case GAME_OK:
        return MHD_HTTP_OK;
    case GAME_BAD_ACTION:
        return MHD_HTTP_BAD_REQUEST;
    case GAME_NOT_FOUND:
        return MHD_HTTP_NOT_FOUND;
    case GAME_NOT_A_PLAYER:
        return MHD_HTTP_FORBIDDEN;
    case GAME_NOT_YOUR_TURN:
    case GAME_ILLEGAL_MOVE:
    case GAME_OVER:
    case GAME_NO_DRAW_OFFER:
    case GAME_NO_OFFER:
    case GAME_NO_TAKEBACK:
    case GAME_NOT_OVER:
    case GAME_CONFLICT:
        return MHD_HTTP_CONFLICT;
    case GAME_STORE_FAILED: /* a full disk, a read-only database: nothing changed, try later */
    case GAME_NO_MEMORY:
        return MHD_HTTP_SERVICE_UNAVAILABLE;
    case GAME_ENGINE_DECIDES: /* never answered: the engine is asked first */
    case GAME_BAD_RECORD:
    case GAME_NO_RANDOM:
        break;
    }
    return MHD_HTTP_INTERNAL_SERVER_ERROR;
}

/* A GameCall's read: the answer, the game as JSON, made ready to send under the game's lock
 * (before a change is stored: if memory runs out the change is not made). */
static bool read_state(void *ctx, LiveGame *g, int you)
{
    struct MHD_Response **r = ctx;
    if (*r) /* a draw offer's answer made before the engine's */
        MHD_destroy_response(*r);
    *r = http_json_response(game_json(g, you));
    return *r != NULL;
}

/* The answer to an action: the game after it, or the error. */
static enum MHD_Result answer(struct MHD_Connection *c, GameStatus status, GameCall *call, unsigned ok_status)
{
    struct MHD_Response **r = call->ctx, *made = *r;
    *r = NULL;
    if (status == GAME_OK)
        return http_send(c, ok_status, made);
    if (made) /* made before a change that the store then refused */
        MHD_destroy_response(made);
    return http_error(c, http_status(status), "%s", call->message);
}

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

static enum MHD_Result create_from(struct MHD_Connection *c, const struct sockaddr *client, const GameOptions *opt,
                                   Game *initial)
{
    int retry_s;
    if (!limits_new_game(client, &retry_s)) {
        game_free(initial);
        return http_too_many(c, retry_s, "too many new games from this address (at most %d a minute)",
                             limits_new_games());
    }
    struct MHD_Response *r = NULL;
    GameCall call = {.read = read_created, .ctx = &r};
    return answer(c, service_create(opt, initial, &call), &call, MHD_HTTP_CREATED);
}

/* game_init and game_from_pgn name what is wrong with the text, or that memory ran out. */
static int init_failure_status(const char *why)
{
    return util_out_of_memory(why) ? 503 : 400;
}

/* POST /api/games (a position, the variant's start by default) and POST /api/import (a
 * position or a PGN, whose [Variant] may name the variant). */
static enum MHD_Result post_new_game(struct MHD_Connection *c, const struct sockaddr *client, const char *body,
                                     size_t len, bool import)
{
    char err[ERR_MAX];
    json_t *o;
    int bad = parse_body(body, len, &o, err);
    if (bad)
        return http_error(c, (unsigned)bad, "%s", err);
    GameOptions opt = {0};
    const char *fen, *pgn = NULL;
    int status;
    if ((status = read_variant(o, !import, &opt.v, err)) || (status = opt_string(o, "fen", &fen, err)) ||
        (import && (status = opt_string(o, "pgn", &pgn, err))) || (status = read_options(o, &opt, err))) {
        json_decref(o);
        return http_error(c, (unsigned)status, "%s", err);
    }
    if (import && (!fen == !pgn || (fen && !opt.v))) {
        json_decref(o);
        return http_error(c, 400, "%s", fen && pgn ? "give \"pgn\" or \"fen\", not both"
                                        : fen      ? "missing \"variant\""
                                                   : "missing \"pgn\" or \"fen\"");
    }
    Game g = {0};
    char why[300];
    bool ok = pgn ? game_from_pgn(&g, pgn, opt.v, variant_by_name, why, sizeof why) : game_init(&g, opt.v, fen, why, sizeof why);
    json_decref(o);
    if (!ok) {
        game_free(&g);
        return http_error(c, (unsigned)init_failure_status(why), "%s: %s", pgn ? "bad PGN" : "bad fen", why);
    }
    if (opt.v && g.v != opt.v) {
        const char *named = g.v->def->name;
        game_free(&g);
        return http_error(c, 400, "the PGN is a game of %s, not %s", named, opt.v->def->name);
    }
    opt.v = g.v;
    return create_from(c, client, &opt, &g);
}

static enum MHD_Result list_games(struct MHD_Connection *c)
{
    const char *text = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "limit");
    long limit = 20;
    if (text) {
        if (!parse_long(text, 1, 100, &limit))
            return http_error(c, 400, "limit must be an integer from 1 to 100");
    }
    ListRow *rows;
    int n;
    if (!service_list((int)limit, &rows, &n))
        return http_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "the games cannot be read");
    json_t *list = json_array();
    bool ok = true;
    for (int i = 0; i < n; i++) {
        char created[40];
        util_iso_time(rows[i].created_ms, created, sizeof created);
        util_json_append(
            list,
            json_pack("{s:s, s:s, s:s, s:o, s:i, s:s, s:{s:s, s:s}}", "id", rows[i].id, "variant", rows[i].variant,
                      "result", rows[i].result, "reason", rows[i].reason[0] ? json_string(rows[i].reason) : json_null(),
                      "moves", rows[i].moves, "created", created, "players", "white",
                      rows[i].engine[WHITE] ? "engine" : "human", "black", rows[i].engine[BLACK] ? "engine" : "human"),
            &ok);
    }
    free(rows);
    if (!ok) { /* a game left out: none of them */
        json_decref(list);
        list = NULL;
    }
    return http_json(c, 200, list);
}

static enum MHD_Result get_game(struct MHD_Connection *c, LiveGame *g)
{
    struct MHD_Response *r = NULL;
    GameCall call = {.token = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token"),
                     .read = read_state,
                     .ctx = &r};
    return answer(c, service_read(g, &call), &call, MHD_HTTP_OK);
}

/* ---- Requests that wait for the engine --------------------------------------------------- */

/* A request waiting for the engine's answer: its connection suspended meanwhile, this kept
 * as the request's state. */
typedef struct Waiting {
    struct MHD_Connection *c;
    EngineAsk (*ask)(struct Waiting *w);            /* the question */
    bool ok;                                        /* the engine answered */
    enum MHD_Result (*resumed)(struct Waiting *w); /* what the resumed request does */
    /* An analysis: the game (the question takes it over), the search time, the answer. */
    Game game;
    int movetime_ms;
    Analysis analysis;
    /* A draw offer to the engine: the game (a reference), the call and its answer. */
    LiveGame *live;
    char *token;
    GameCall call;
    struct MHD_Response *r;
    DrawQuestion q;
    bool accepted;
    /* A puzzle's answer: the puzzle, the moves (a JSON array, owned), the answer. */
    const Puzzle *puzzle;
    json_t *moves;
    PuzzleAnswer solved;
    GameStatus status;
    char message[GAME_MESSAGE_MAX];
} Waiting;

void api_request_done(void *state)
{
    Waiting *w = state;
    if (!w)
        return;
    if (w->live)
        service_release(w->live);
    if (w->r)
        MHD_destroy_response(w->r);
    game_copy_free(&w->q.game);
    game_free(&w->game);
    game_free(&w->solved.game);
    json_decref(w->moves);
    free(w->token);
    free(w);
}

/* The engine's answer (on its thread): the request goes on. */
static void on_answer(void *ctx, bool ok)
{
    Waiting *w = ctx;
    w->ok = ok;
    MHD_resume_connection(w->c);
}

/* Suspends the request until the engine answers its question (or, if it cannot be asked,
 * at once). */
static enum MHD_Result wait_for_engine(Waiting *w)
{
    MHD_suspend_connection(w->c); /* before asking: the answer may come at once */
    if (w->ask(w) != ENGINE_ASKED) {
        w->ok = false;
        MHD_resume_connection(w->c);
    }
    return MHD_YES;
}

/* The engine's answer when it was not given: why. */
static enum MHD_Result no_answer(Waiting *w)
{
    return http_error(w->c, MHD_HTTP_SERVICE_UNAVAILABLE, "%s",
                      events_closed() ? "the server is shutting down" : "out of memory");
}

static EngineAsk ask_draw(Waiting *w)
{
    return engine_ask_draw(&w->q, &w->accepted, on_answer, w);
}

/* The engine answered a draw offer: the service is told (and the engine asked again if the
 * game moved on meanwhile). */
static enum MHD_Result draw_answered(Waiting *w)
{
    if (!w->ok)
        return no_answer(w);
    GameStatus status = service_draw_answer(w->live, &w->call, &w->q, w->accepted);
    if (status == GAME_ENGINE_DECIDES)
        return wait_for_engine(w);
    return answer(w->c, status, &w->call, MHD_HTTP_OK);
}

/* A draw offer to the engine: the request waits for its answer, holding the game. */
static enum MHD_Result wait_for_draw(struct MHD_Connection *c, LiveGame *g, GameCall *call, DrawQuestion *q,
                                     void **state)
{
    Waiting *w = calloc(1, sizeof *w);
    char *token = strdup(call->token ? call->token : "");
    if (!w || !token) {
        free(w);
        free(token);
        game_copy_free(&q->game);
        return answer(c, GAME_NO_MEMORY, &(GameCall){.ctx = call->ctx, .message = "out of memory"}, 0);
    }
    service_hold(g);
    *w = (Waiting){.c = c, .ask = ask_draw, .resumed = draw_answered, .live = g, .token = token, .q = *q};
    w->call = (GameCall){.token = token, .read = read_state, .ctx = &w->r};
    w->r = *(struct MHD_Response **)call->ctx; /* made for the state before the answer */
    *(struct MHD_Response **)call->ctx = NULL;
    *state = w;
    return wait_for_engine(w);
}

typedef enum { ACT_MOVE, ACT_RESIGN, ACT_DRAW, ACT_TAKEBACK, ACT_REMATCH } Action;

/* The body's fields of an action: its argument (the move; the offer's action) and the token. */
static int read_action(json_t *o, Action act, const char **arg, const char **token, char *err)
{
    bool offer = act == ACT_DRAW || act == ACT_TAKEBACK || act == ACT_REMATCH;
    int status = act == ACT_MOVE ? req_string(o, "move", arg, err) : offer ? req_string(o, "action", arg, err) : 0;
    if (!status && offer && strcmp(*arg, "offer") && strcmp(*arg, "accept") && strcmp(*arg, "decline")) {
        snprintf(err, ERR_MAX, "\"action\" must be \"offer\", \"accept\" or \"decline\"");
        status = 400;
    }
    return status ? status : opt_string(o, "token", token, err);
}

static enum MHD_Result post_action(struct MHD_Connection *c, LiveGame *g, Action act, const char *body, size_t len,
                                   void **state)
{
    char err[ERR_MAX];
    json_t *o;
    int bad = parse_body(body, len, &o, err);
    if (bad)
        return http_error(c, (unsigned)bad, "%s", err);
    const char *arg = NULL;
    struct MHD_Response *r = NULL;
    GameCall call = {.read = read_state, .ctx = &r};
    bad = read_action(o, act, &arg, &call.token, err);
    if (bad) {
        json_decref(o);
        return http_error(c, (unsigned)bad, "%s", err);
    }
    DrawQuestion q;
    GameStatus status = act == ACT_MOVE       ? service_move(g, &call, arg)
                        : act == ACT_DRAW     ? service_draw(g, &call, arg, &q)
                        : act == ACT_TAKEBACK ? service_takeback(g, &call, arg)
                        : act == ACT_REMATCH  ? service_rematch(g, &call, arg)
                                              : service_resign(g, &call);
    enum MHD_Result ret = status == GAME_ENGINE_DECIDES ? wait_for_draw(c, g, &call, &q, state)
                                                          : answer(c, status, &call, MHD_HTTP_OK);
    json_decref(o); /* after wait_for_draw has copied the token */
    return ret;
}

static enum MHD_Result get_events(struct MHD_Connection *c, LiveGame *g)
{
    if (events_closed())
        return http_error(c, 503, "the server is shutting down");
    GameStatus status;
    char err[ERR_MAX];
    struct MHD_Response *r = events_open(g, c, &status, err, sizeof err);
    if (!r)
        return http_error(c, http_status(status), "%s", err);
    return http_send(c, MHD_HTTP_OK, r);
}

static enum MHD_Result get_pgn(struct MHD_Connection *c, LiveGame *g)
{
    char disposition[80];
    snprintf(disposition, sizeof disposition, "inline; filename=\"starfish-%s.pgn\"", g->id);
    return http_text(c, 200, "application/x-chess-pgn; charset=utf-8", service_pgn(g), disposition);
}

/* "moves": an optional array of strings: 0 or 400. */
static int check_moves_field(json_t *moves, char *err)
{
    size_t i;
    json_t *m;
    if (!moves || json_is_null(moves))
        return 0;
    bool ok = json_is_array(moves);
    json_array_foreach(moves, i, m) ok = ok && json_is_string(m);
    if (ok)
        return 0;
    snprintf(err, ERR_MAX, "\"moves\" must be an array of strings");
    return 400;
}

/* A move about to be played in g, for POSITION's "moves": { uci, san, fen after it }. */
static bool record_move(Game *g, Move mv, json_t *record)
{
    char uci[MOVE_TEXT_MAX], san[MOVE_TEXT_MAX], fen[FEN_MAX];
    move_to_text(&g->pos, mv, uci);
    move_to_san(&g->pos, mv, san);
    if (!game_play(g, mv))
        return false;
    pos_fen(&g->pos, fen, sizeof fen);
    return json_array_append_new(record, json_pack("{s:s, s:s, s:s}", "uci", uci, "san", san, "fen", fen)) == 0;
}

/* Plays the request's moves in g (recording each in `record` unless it is NULL): 0, 409
 * (illegal, or after the end) or 503. */
static int play_moves(Game *g, json_t *moves, json_t *record, char *err)
{
    size_t i;
    json_t *m;
    char why[200];
    json_array_foreach(moves, i, m)
    {
        if (game_status(g).kind != RESULT_NONE) {
            snprintf(err, ERR_MAX, "move %zu '%.40s': the game is over", i + 1, json_string_value(m));
            return 409;
        }
        Move mv = parse_move(&g->pos, json_string_value(m), why, sizeof why);
        if (mv == MOVE_NONE) {
            snprintf(err, ERR_MAX, "move %zu: %s", i + 1, why);
            return 409;
        }
        if (!(record ? record_move(g, mv, record) : game_play(g, mv))) {
            snprintf(err, ERR_MAX, "out of memory");
            return 503;
        }
    }
    return 0;
}

/* A position given by "variant", "fen" (default: the variant's start) and "moves": 0, or an
 * error status. */
static int read_position(json_t *o, Game *g, json_t *record, char *err)
{
    const Variant *v;
    const char *fen;
    char why[200];
    json_t *moves = json_object_get(o, "moves");
    int status;
    if ((status = read_variant(o, true, &v, err)) || (status = opt_string(o, "fen", &fen, err)) ||
        (status = check_moves_field(moves, err)))
        return status;
    if (!game_init(g, v, fen, why, sizeof why)) {
        snprintf(err, ERR_MAX, "bad fen: %s", why);
        return init_failure_status(why);
    }
    return json_is_array(moves) ? play_moves(g, moves, record, err) : 0;
}

/* The position of POST /api/analysis and its search time: 0, or an error status. */
static int read_analysis(json_t *o, Game *g, long long *movetime, char *err)
{
    int status = opt_int(o, "movetime_ms", 1, ANALYSIS_MAX_MS, 1000, movetime, err);
    return status ? status : read_position(o, g, NULL, err);
}

static enum MHD_Result analysis_answered(Waiting *w)
{
    return w->ok ? http_json(w->c, 200, analysis_json(&w->analysis)) : no_answer(w);
}

static EngineAsk ask_analysis(Waiting *w)
{
    return engine_analyse(&w->game, w->movetime_ms, &w->analysis, on_answer, w);
}

static enum MHD_Result post_analysis(struct MHD_Connection *c, const char *body, size_t len, void **state)
{
    char err[ERR_MAX];
    json_t *o;
    int bad = parse_body(body, len, &o, err);
    if (bad)
        return http_error(c, (unsigned)bad, "%s", err);
    Game g = {0};
    long long movetime;
    int status = read_analysis(o, &g, &movetime, err);
    json_decref(o);
    Waiting *w = status ? NULL : calloc(1, sizeof *w);
    if (!status && !w) {
        snprintf(err, sizeof err, "out of memory");
        status = 503;
    }
    if (status) {
        game_free(&g);
        return http_error(c, (unsigned)status, "%s", err);
    }
    *w = (Waiting){.c = c, .ask = ask_analysis, .resumed = analysis_answered, .game = g, .movetime_ms = (int)movetime};
    *state = w;
    return wait_for_engine(w);
}

/* POST /api/position: the position after the moves, with its legal moves (POSITION). */
static enum MHD_Result post_position(struct MHD_Connection *c, const char *body, size_t len)
{
    char err[ERR_MAX];
    json_t *o, *moves = NULL;
    int status = parse_body(body, len, &o, err);
    if (status)
        return http_error(c, (unsigned)status, "%s", err);
    Game g = {0};
    if (!(moves = json_array())) {
        snprintf(err, sizeof err, "out of memory");
        status = 503;
    }
    if (!status)
        status = read_position(o, &g, moves, err);
    json_decref(o);
    json_t *out = status ? NULL : json_object();
    bool ok = out != NULL;
    if (ok) {
        GameResult r = game_status(&g);
        ok = json_object_set_new(out, "variant", json_string(g.v->def->name)) == 0 &&
             json_object_set_new(out, "start_fen", json_string(g.start_fen)) == 0 &&
             json_object_set(out, "moves", moves) == 0 &&
             json_object_set_new(out, "status", json_string(r.kind == RESULT_NONE ? "ongoing" : "over")) == 0 &&
             json_object_set_new(out, "result", json_string(result_text(r.kind))) == 0 &&
             json_object_set_new(out, "reason", r.reason ? json_string(r.reason) : json_null()) == 0;
        game_json_position(out, g.v, &g, r.kind != RESULT_NONE, &ok);
    }
    json_decref(moves);
    game_free(&g);
    if (!status && !ok) {
        json_decref(out);
        return http_error(c, 503, "out of memory");
    }
    return status ? http_error(c, (unsigned)status, "%s", err) : http_json(c, 200, out);
}

/* GET /api/analysis/stream?variant=V&fen=F&moves=M1,M2&lines=N: a continuous search of the
 * position as Server-Sent Events (analysis_stream.c). */
static enum MHD_Result get_analysis_stream(struct MHD_Connection *c)
{
    char err[ERR_MAX];
    const char *text = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "lines");
    int lines = 1;
    if (text && !parse_int(text, 1, ANALYSIS_LINES_MAX, &lines))
        return http_error(c, 400, "lines must be an integer from 1 to %d", ANALYSIS_LINES_MAX);
    json_t *o = json_object(), *moves = json_array();
    const char *keys[] = {"variant", "fen"};
    for (int i = 0; o && i < 2; i++)
        if ((text = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, keys[i])))
            json_object_set_new(o, keys[i], json_string(text));
    text = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "moves");
    for (const char *p = text; moves && p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
        json_array_append_new(moves, json_stringn(p, strcspn(p, ",")));
    }
    int status = 0;
    Game g = {0};
    if (!o || !moves || json_object_set(o, "moves", moves) != 0) {
        snprintf(err, sizeof err, "out of memory");
        status = 503;
    } else {
        status = read_position(o, &g, NULL, err);
    }
    json_decref(o);
    json_decref(moves);
    struct MHD_Response *r = status ? NULL : analysis_stream_open(&g, lines, c, &status, err, sizeof err);
    game_free(&g);
    if (!r)
        return http_error(c, (unsigned)status, "%s", err);
    enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

/* What the server holds: cheap enough to poll. */
static enum MHD_Result get_health(struct MHD_Connection *c)
{
    return http_json(c, 200,
                     json_pack("{s:s, s:i, s:i, s:i}", "version", version_number(), "games_in_memory", service_count(),
                               "event_streams", events_count(), "analysis_streams", analysis_streams_count()));
}

/* ---- Learning the games: piece diagrams and puzzles --------------------------------------- */

/* GET /api/piece-moves?variant=V&piece=L&cell=C: where piece L (upper case White, lower case
 * Black) standing alone on C can go. */
static enum MHD_Result get_piece_moves(struct MHD_Connection *c)
{
    const char *name = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "variant");
    const char *piece = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "piece");
    const char *cell = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "cell");
    const Variant *v = name ? variant_by_name(name) : NULL;
    if (!v)
        return http_error(c, 400, "unknown variant '%.40s'", name ? name : "");
    int type = piece && piece[0] && !piece[1] ? variant_type_of_letter(v, (char)toupper((unsigned char)piece[0])) : 0;
    if (!type)
        return http_error(c, 400, "%s has no piece '%.10s'", v->def->name, piece ? piece : "");
    int len;
    Cell from = cell ? geo_parse_cell(v->geo, cell, &len) : NO_CELL;
    if (from == NO_CELL || cell[len])
        return http_error(c, 400, "%s has no cell '%.10s'", v->def->name, cell ? cell : "");
    DiagramTarget targets[MAX_CELLS];
    int n = diagram_targets(v, MAKE_PIECE(islower((unsigned char)piece[0]) ? BLACK : WHITE, type), from, targets);
    json_t *list = json_array();
    for (int i = 0; list && i < n; i++)
        json_array_append_new(list, json_pack("{s:s, s:b, s:b}", "to", v->geo->cell_name[targets[i].to], "quiet",
                                              targets[i].quiet, "capture", targets[i].capture));
    return http_json(c, 200, json_pack("{s:s, s:s, s:s, s:o}", "variant", v->def->name, "piece", piece, "cell",
                                       v->geo->cell_name[from], "targets", list));
}

/* The puzzle set of /api/puzzles/VARIANT[/N]: NULL after an error answer. */
static const Variant *puzzle_variant(const char *name, size_t len)
{
    char copy[64];
    if (len >= sizeof copy)
        return NULL;
    memcpy(copy, name, len);
    copy[len] = 0;
    return variant_by_name(copy);
}

/* GET /api/puzzles/VARIANT: the puzzles (without their solutions). */
static enum MHD_Result get_puzzles(struct MHD_Connection *c, const Variant *v)
{
    json_t *list = json_array();
    for (int i = 1; list && i <= puzzles_count(v); i++) {
        const Puzzle *p = puzzle_find(v, i);
        Position pos;
        char err[200];
        pos_set_fen(&pos, v, p->fen, err, sizeof err);
        json_array_append_new(list, json_pack("{s:i, s:s, s:i, s:s, s:s, s:s}", "number", p->number, "fen", p->fen,
                                              "mate", p->mate, "side", side_name(pos.side), "proof", p->proof,
                                              "source", p->source));
    }
    return http_json(c, 200, json_pack("{s:s, s:o}", "variant", v->def->name, "puzzles", list));
}

/* Space-separated moves from `fen` as [{ uci, san, fen }]: a puzzle's solution. */
static json_t *recorded_line(const Variant *v, const char *fen, const char *moves)
{
    Game g = {0};
    char why[200], copy[PUZZLE_TEXT_MAX], *save = NULL;
    json_t *record = json_array();
    snprintf(copy, sizeof copy, "%s", moves);
    if (record && game_init(&g, v, fen, why, sizeof why))
        for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
            record_move(&g, parse_move(&g.pos, t, why, sizeof why), record);
    game_free(&g);
    return record;
}

static const char *const puzzle_states[] = {"going-on", "solved", "failed"};

/* The answer to a puzzle move, as JSON: its state, the moves so far, the position. */
static json_t *puzzle_json(const Puzzle *p, PuzzleAnswer *a)
{
    Game *g = &a->game;
    char line[PUZZLE_TEXT_MAX * 2] = "";
    Position pos;
    char err[200], text[MOVE_TEXT_MAX];
    pos_set_fen(&pos, p->v, p->fen, err, sizeof err);
    for (int i = 0; i < g->n; i++) { /* the moves as one text, to record with their SAN */
        Undo u;
        move_to_text(&pos, g->moves[i], text);
        snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s", i ? " " : "", text);
        pos_make(&pos, g->moves[i], &u);
    }
    bool going_on = a->state == PUZZLE_GOES_ON, ok = true;
    GameResult r = game_status(g);
    json_t *out = json_pack("{s:i, s:s, s:o, s:i, s:o, s:o, s:s, s:s, s:o}", "number", p->number, "state",
                            puzzle_states[a->state], "moves", recorded_line(p->v, p->fen, line), "left", a->left,
                            "why", a->why[0] ? json_string(a->why) : json_null(), "solution",
                            going_on ? json_null() : recorded_line(p->v, p->fen, p->line), "status",
                            r.kind == RESULT_NONE ? "ongoing" : "over", "result", result_text(r.kind), "reason",
                            r.reason ? json_string(r.reason) : json_null());
    if (out)
        game_json_position(out, p->v, g, !going_on, &ok);
    if (!ok) {
        json_decref(out);
        return NULL;
    }
    return out;
}

/* On a questions' thread: the puzzle's answer. */
static void solve_puzzle(void *ctx)
{
    Waiting *w = ctx;
    size_t n = json_array_size(w->moves);
    const char *moves[2 * MATE_MOVES_MAX];
    for (size_t i = 0; i < n; i++)
        moves[i] = json_string_value(json_array_get(w->moves, i));
    w->status = puzzle_answer(w->puzzle, moves, (int)n, &w->solved, w->message, sizeof w->message);
}

static EngineAsk ask_puzzle(Waiting *w)
{
    return engine_ask_work(w->puzzle->v, solve_puzzle, on_answer, w);
}

static enum MHD_Result puzzle_answered(Waiting *w)
{
    if (!w->ok)
        return no_answer(w);
    if (w->status != GAME_OK)
        return http_error(w->c, http_status(w->status), "%s", w->message);
    json_t *out = puzzle_json(w->puzzle, &w->solved);
    return out ? http_json(w->c, 200, out) : http_error(w->c, 503, "out of memory");
}

/* POST /api/puzzles/VARIANT/N { moves: [...] }: the player's latest move judged, answered. */
static enum MHD_Result post_puzzle_move(struct MHD_Connection *c, const Puzzle *p, const char *body, size_t len,
                                        void **state)
{
    char err[ERR_MAX];
    json_t *o;
    int status = parse_body(body, len, &o, err);
    if (status)
        return http_error(c, (unsigned)status, "%s", err);
    json_t *moves = json_incref(json_object_get(o, "moves"));
    json_decref(o);
    if (!json_is_array(moves) || check_moves_field(moves, err) ||
        json_array_size(moves) >= 2 * MATE_MOVES_MAX) {
        json_decref(moves);
        return http_error(c, 400, "\"moves\" must be an array of at most %d moves", 2 * MATE_MOVES_MAX - 1);
    }
    Waiting *w = calloc(1, sizeof *w);
    if (!w) {
        json_decref(moves);
        return http_error(c, 503, "out of memory");
    }
    *w = (Waiting){.c = c, .ask = ask_puzzle, .resumed = puzzle_answered, .puzzle = p, .moves = moves};
    *state = w;
    return wait_for_engine(w);
}

/* /api/puzzles/VARIANT[/N] */
static enum MHD_Result puzzle_endpoint(struct MHD_Connection *c, bool get, bool post, const char *path,
                                       const char *body, size_t len, void **state)
{
    size_t name_len = strcspn(path, "/");
    const Variant *v = puzzle_variant(path, name_len);
    if (!v)
        return http_error(c, 404, "no puzzles for '%.*s': no such variant", (int)(name_len < 40 ? name_len : 40), path);
    if (!path[name_len])
        return get ? get_puzzles(c, v) : http_method_not_allowed(c, "GET, HEAD");
    int number;
    const Puzzle *p = parse_int(path + name_len + 1, 1, 1000000, &number) ? puzzle_find(v, number) : NULL;
    if (!p)
        return http_error(c, 404, "%s has no puzzle '%.20s'", v->def->name, path + name_len + 1);
    return post ? post_puzzle_move(c, p, body, len, state) : http_method_not_allowed(c, "POST");
}

/* ---- Routing -------------------------------------------------------------------------------- */

/* /games/ID[/what]: the game's endpoints. */
static enum MHD_Result game_endpoint(struct MHD_Connection *c, bool get, bool post, const char *url, const char *body,
                                     size_t len, void **state)
{
    const char *id_start = url + strlen("/api/games/");
    size_t id_len = strcspn(id_start, "/");
    const char *what = id_start[id_len] ? id_start + id_len + 1 : NULL;
    static const struct {
        const char *name;
        bool post;
    } routes[] = {{"moves", true},  {"resign", true}, {"draw", true},
                  {"events", false}, {"pgn", false},   {"takeback", true}, {"rematch", true}};
    int route = -1;
    if (what) {
        for (int i = 0; i < (int)(sizeof routes / sizeof routes[0]); i++)
            if (strcmp(what, routes[i].name) == 0)
                route = i;
        if (route < 0)
            return http_error(c, 404, "no such endpoint: %.100s", url);
    }
    if (route < 0 ? !get : routes[route].post ? !post : !get)
        return http_method_not_allowed(c, route >= 0 && routes[route].post ? "POST" : "GET, HEAD");
    char id[STORE_ID_MAX + 1];
    if (id_len == 0 || id_len > STORE_ID_MAX)
        return http_error(c, 404, "unknown game");
    memcpy(id, id_start, id_len);
    id[id_len] = 0;
    LiveGame *g;
    GameCall call = {0};
    GameStatus status = service_find(id, &g, &call);
    if (status != GAME_OK)
        return http_error(c, http_status(status), "%s", call.message);
    enum MHD_Result ret = route == -1  ? get_game(c, g)
                          : route == 0 ? post_action(c, g, ACT_MOVE, body, len, state)
                          : route == 1 ? post_action(c, g, ACT_RESIGN, body, len, state)
                          : route == 2 ? post_action(c, g, ACT_DRAW, body, len, state)
                          : route == 3 ? get_events(c, g)
                          : route == 5 ? post_action(c, g, ACT_TAKEBACK, body, len, state)
                          : route == 6 ? post_action(c, g, ACT_REMATCH, body, len, state)
                                       : get_pgn(c, g);
    service_release(g); /* an event stream and a waiting request hold references of their own */
    return ret;
}

enum MHD_Result api_handle(struct MHD_Connection *c, const struct sockaddr *client, const char *method,
                           const char *url, const char *body, size_t len, void **state)
{
    if (*state) { /* resumed: the engine has answered */
        Waiting *w = *state;
        return w->resumed(w);
    }
    const char *path = url + 4; /* after "/api" */
    bool get = is_get(method), post = strcmp(method, "POST") == 0;
    if (strcmp(path, "/variants") == 0)
        return get ? get_variants(c) : http_method_not_allowed(c, "GET, HEAD");
    if (strcmp(path, "/games") == 0)
        return get    ? list_games(c)
               : post ? post_new_game(c, client, body, len, false)
                      : http_method_not_allowed(c, "GET, HEAD, POST");
    if (strcmp(path, "/import") == 0)
        return post ? post_new_game(c, client, body, len, true) : http_method_not_allowed(c, "POST");
    if (strcmp(path, "/analysis") == 0)
        return post ? post_analysis(c, body, len, state) : http_method_not_allowed(c, "POST");
    if (strcmp(path, "/analysis/stream") == 0)
        return get ? get_analysis_stream(c) : http_method_not_allowed(c, "GET, HEAD");
    if (strcmp(path, "/position") == 0)
        return post ? post_position(c, body, len) : http_method_not_allowed(c, "POST");
    if (strcmp(path, "/piece-moves") == 0)
        return get ? get_piece_moves(c) : http_method_not_allowed(c, "GET, HEAD");
    if (strncmp(path, "/puzzles/", 9) == 0)
        return puzzle_endpoint(c, get, post, path + 9, body, len, state);
    if (strcmp(path, "/health") == 0)
        return get ? get_health(c) : http_method_not_allowed(c, "GET, HEAD");
    if (strncmp(path, "/games/", 7) != 0)
        return http_error(c, 404, "no such endpoint: %.100s", url);
    return game_endpoint(c, get, post, url, body, len, state);
}
