/* The API's help in learning the games: the variants and their boards, piece diagrams, the
 * puzzles and the judging of a solver's moves. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/mate.h"
#include "../util/parse.h"
#include "../variants/registry.h"
#include "api_route.h"
#include "board_view.h"
#include "diagram.h"
#include "game_json.h"
#include "piece_terms.h"
#include "puzzle_service.h"
#include "util.h"

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
        json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o}", "name", v->def->name,
                                               "title", v->def->title, "description", v->def->description,
                                               "start_fen", v->def->start_fen,
                                               "board", board_view_json(v), "pieces", pieces, "promotion", promotion,
                                               "terms", piece_terms_json(v)));
    }
    variants_text = util_json_text(list);
}

bool api_learn_start(void)
{
    build_variants();
    return variants_text != NULL;
}

static enum MHD_Result get_variants(ApiRequest *rq)
{
    return http_text(rq->c, 200, "application/json; charset=utf-8", strdup(variants_text), NULL);
}


/* GET /api/piece-moves?variant=V&piece=L&cell=C: where piece L (upper case White, lower case
 * Black) standing alone on C can go. */
static enum MHD_Result get_piece_moves(ApiRequest *rq)
{
    struct MHD_Connection *c = rq->c;
    const char *name = api_query(rq, "variant");
    const char *piece = api_query(rq, "piece");
    const char *cell = api_query(rq, "cell");
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

/* Space-separated moves from `fen` as [{ uci, san, fen }]: a puzzle's solution. */
static json_t *recorded_line(const Variant *v, const char *fen, const char *moves)
{
    Game g = {0};
    char why[200], copy[PUZZLE_TEXT_MAX], *save = NULL;
    json_t *record = json_array();
    snprintf(copy, sizeof copy, "%s", moves);
    if (record && game_init(&g, v, fen, why, sizeof why))
        for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
            game_json_play_recorded(&g, parse_move(&g.pos, t, why, sizeof why), record);
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

/* A puzzle's answer being worked out: the puzzle, the moves (a JSON array, owned), the answer. */
typedef struct PuzzleWait {
    Waiting w;
    const Puzzle *puzzle;
    json_t *moves;
    PuzzleAnswer solved;
    GameStatus status;
    char message[GAME_MESSAGE_MAX];
} PuzzleWait;

static void puzzle_done(Waiting *w)
{
    PuzzleWait *p = (PuzzleWait *)w;
    game_free(&p->solved.game);
    json_decref(p->moves);
    free(p);
}

/* On a questions' thread: the puzzle's answer. */
static void solve_puzzle(void *ctx)
{
    PuzzleWait *p = ctx;
    size_t n = json_array_size(p->moves);
    const char *moves[2 * MATE_MOVES_MAX];
    for (size_t i = 0; i < n; i++)
        moves[i] = json_string_value(json_array_get(p->moves, i));
    p->status = puzzle_answer(p->puzzle, moves, (int)n, &p->solved, p->message, sizeof p->message);
}

static EngineAsk ask_puzzle(Waiting *w)
{
    return engine_ask_work(((PuzzleWait *)w)->puzzle->v, solve_puzzle, api_on_answer, w);
}

static enum MHD_Result puzzle_answered(Waiting *w)
{
    PuzzleWait *p = (PuzzleWait *)w;
    if (!w->ok)
        return api_no_answer(w);
    if (p->status != GAME_OK)
        return http_error(w->c, api_status(p->status), "%s", p->message);
    json_t *out = puzzle_json(p->puzzle, &p->solved);
    return out ? http_json(w->c, 200, out) : http_error(w->c, 503, "out of memory");
}

/* The puzzle set of /api/puzzles/{variant}[/{n}]: NULL after an error answer in *ret. */
static const Variant *puzzles_of(ApiRequest *rq, enum MHD_Result *ret)
{
    const Variant *v = variant_by_name(rq->arg[0]);
    if (!v)
        *ret = http_error(rq->c, 404, "no puzzles for '%.40s': no such variant", rq->arg[0]);
    return v;
}

/* GET /api/puzzles/VARIANT: the puzzles (without their solutions). */
static enum MHD_Result get_puzzles(ApiRequest *rq)
{
    enum MHD_Result ret;
    const Variant *v = puzzles_of(rq, &ret);
    if (!v)
        return ret;
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
    return http_json(rq->c, 200, json_pack("{s:s, s:o}", "variant", v->def->name, "puzzles", list));
}

/* POST /api/puzzles/VARIANT/N { moves: [...] }: the player's latest move judged, answered. */
static enum MHD_Result post_puzzle_move(ApiRequest *rq)
{
    enum MHD_Result ret;
    const Variant *v = puzzles_of(rq, &ret);
    if (!v)
        return ret;
    int number;
    const Puzzle *puzzle = parse_int(rq->arg[1], 1, 1000000, &number) ? puzzle_find(v, number) : NULL;
    if (!puzzle)
        return http_error(rq->c, 404, "%s has no puzzle '%.20s'", v->def->name, rq->arg[1]);
    char err[ERR_MAX];
    json_t *o;
    int status = api_body(rq, &o, err);
    if (status)
        return http_error(rq->c, (unsigned)status, "%s", err);
    json_t *moves = json_incref(json_object_get(o, "moves"));
    json_decref(o);
    if (!json_is_array(moves) || check_moves(moves, err) || json_array_size(moves) >= 2 * MATE_MOVES_MAX) {
        json_decref(moves);
        return http_error(rq->c, 400, "\"moves\" must be an array of at most %d moves", 2 * MATE_MOVES_MAX - 1);
    }
    PuzzleWait *p = calloc(1, sizeof *p);
    if (!p) {
        json_decref(moves);
        return http_error(rq->c, 503, "out of memory");
    }
    *p = (PuzzleWait){.w = {.ask = ask_puzzle, .resumed = puzzle_answered, .done = puzzle_done}, .puzzle = puzzle,
                      .moves = moves};
    return api_wait_for_engine(rq, &p->w);
}

const ApiRoute api_learn_routes[] = {
    {"GET", "/variants", get_variants, false},
    {"GET", "/piece-moves", get_piece_moves, false},
    {"GET", "/puzzles/{variant}", get_puzzles, false},
    {"POST", "/puzzles/{variant}/{number}", post_puzzle_move, false},
    {NULL, NULL, NULL, false},
};
