/* The API's positions and analyses: a position's legal moves, a search of it, a continuous
 * search streamed as Server-Sent Events. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/parse.h"
#include "analysis_stream.h"
#include "api_route.h"
#include "game_json.h"

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
        if (!(record ? game_json_play_recorded(g, mv, record) : game_play(g, mv))) {
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
        (status = check_moves(moves, err)))
        return status;
    if (!game_init(g, v, fen, why, sizeof why)) {
        snprintf(err, ERR_MAX, "bad fen: %s", why);
        return api_init_failure_status(why);
    }
    return json_is_array(moves) ? play_moves(g, moves, record, err) : 0;
}

/* The position of POST /api/analysis and its search time: 0, or an error status. */
static int read_analysis(json_t *o, Game *g, long long *movetime, char *err)
{
    int status = opt_int(o, "movetime_ms", 1, ANALYSIS_MAX_MS, 1000, movetime, err);
    return status ? status : read_position(o, g, NULL, err);
}

/* An analysis waiting for the engine: the position (the question takes it over), the search
 * time, the answer. */
typedef struct AnalysisWait {
    Waiting w;
    Game game;
    int movetime_ms;
    Analysis analysis;
} AnalysisWait;

static void analysis_done(Waiting *w)
{
    AnalysisWait *a = (AnalysisWait *)w;
    game_free(&a->game);
    free(a);
}

static enum MHD_Result analysis_answered(Waiting *w)
{
    AnalysisWait *a = (AnalysisWait *)w;
    return w->ok ? http_json(w->c, 200, analysis_json(&a->analysis)) : api_no_answer(w);
}

static EngineAsk ask_analysis(Waiting *w)
{
    AnalysisWait *a = (AnalysisWait *)w;
    return engine_analyse(&a->game, a->movetime_ms, &a->analysis, api_on_answer, w);
}

static enum MHD_Result post_analysis(ApiRequest *rq)
{
    char err[ERR_MAX];
    json_t *o;
    int bad = api_body(rq, &o, err);
    if (bad)
        return http_error(rq->c, (unsigned)bad, "%s", err);
    Game g = {0};
    long long movetime;
    int status = read_analysis(o, &g, &movetime, err);
    json_decref(o);
    AnalysisWait *a = status ? NULL : calloc(1, sizeof *a);
    if (!status && !a) {
        snprintf(err, sizeof err, "out of memory");
        status = 503;
    }
    if (status) {
        game_free(&g);
        return http_error(rq->c, (unsigned)status, "%s", err);
    }
    *a = (AnalysisWait){.w = {.ask = ask_analysis, .resumed = analysis_answered, .done = analysis_done}, .game = g,
                        .movetime_ms = (int)movetime};
    return api_wait_for_engine(rq, &a->w);
}

/* POST /api/position: the position after the moves, with its legal moves (POSITION). */
static enum MHD_Result post_position(ApiRequest *rq)
{
    struct MHD_Connection *c = rq->c;
    char err[ERR_MAX];
    json_t *o, *moves = NULL;
    int status = api_body(rq, &o, err);
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
static enum MHD_Result get_analysis_stream(ApiRequest *rq)
{
    struct MHD_Connection *c = rq->c;
    char err[ERR_MAX];
    const char *text = api_query(rq, "lines");
    int lines = 1;
    if (text && !parse_int(text, 1, ANALYSIS_LINES_MAX, &lines))
        return http_error(c, 400, "lines must be an integer from 1 to %d", ANALYSIS_LINES_MAX);
    json_t *o = json_object(), *moves = json_array();
    const char *keys[] = {"variant", "fen"};
    for (int i = 0; o && i < 2; i++)
        if ((text = api_query(rq, keys[i])))
            json_object_set_new(o, keys[i], json_string(text));
    text = api_query(rq, "moves");
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

const ApiRoute api_analysis_routes[] = {
    {"POST", "/analysis", post_analysis, false},
    {"GET", "/analysis/stream", get_analysis_stream, true},
    {"POST", "/position", post_position, false},
    {NULL, NULL, NULL, false},
};
