#include "live_game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../variants/registry.h"

const char *side_name(int side)
{
    return side == WHITE ? "white" : "black";
}

LiveGame *live_new(void)
{
    LiveGame *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    pthread_mutex_init(&g->lock, NULL);
    g->draw_offer = g->takeback_offer = g->rematch_offer = -1;
    g->skill = -1;
    return g;
}

void live_free(LiveGame *g)
{
    game_free(&g->game);
    for (int i = 0; i < g->names_cap; i++)
        free(g->fen[i]);
    free(g->uci);
    free(g->san);
    free(g->fen);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

/* Room for the notation of n moves. */
static bool reserve_names(LiveGame *g, int n)
{
    if (n <= g->names_cap)
        return true;
    int cap = g->names_cap ? g->names_cap : 64;
    while (cap < n)
        cap *= 2;
    void *u = realloc(g->uci, sizeof *g->uci * (size_t)cap);
    if (u)
        g->uci = u;
    void *s = realloc(g->san, sizeof *g->san * (size_t)cap);
    if (s)
        g->san = s;
    char **f = realloc(g->fen, sizeof *g->fen * (size_t)cap);
    if (f) {
        memset(f + g->names_cap, 0, sizeof *f * (size_t)(cap - g->names_cap));
        g->fen = f;
    }
    if (!u || !s || !f)
        return false;
    g->names_cap = cap;
    return true;
}

bool live_play(LiveGame *g, Move m)
{
    int ply = g->game.n;
    char fen[FEN_MAX], uci[MOVE_TEXT_MAX], san[MOVE_TEXT_MAX];
    if (!reserve_names(g, ply + 1))
        return false;
    move_to_text(&g->game.pos, m, uci);
    move_to_san(&g->game.pos, m, san);
    if (!game_play(&g->game, m))
        return false;
    pos_fen(&g->game.pos, fen, sizeof fen);
    char *copy = strdup(fen);
    if (!copy) {
        game_undo(&g->game);
        return false;
    }
    free(g->fen[ply]);
    g->fen[ply] = copy;
    strcpy(g->uci[ply], uci);
    strcpy(g->san[ply], san);
    return true;
}

void live_set_result(LiveGame *g, GameResult r)
{
    g->result = r.kind;
    snprintf(g->reason, sizeof g->reason, "%s", r.kind != RESULT_NONE && r.reason ? r.reason : "");
}

int64_t live_clock_after_move(const LiveGame *g, int side, int64_t now)
{
    return g->days ? g->days * DAY_MS : live_time_left(g, side, now) + live_increment(g, side);
}

int64_t live_time_left(const LiveGame *g, int side, int64_t now)
{
    if (side != g->game.pos.side)
        return g->left[side];
    int64_t end = g->result != RESULT_NONE ? g->ended_ms : now;
    int64_t left = g->left[side] - (end - g->turn_start_ms);
    return left > 0 ? left : 0;
}

int64_t live_increment(const LiveGame *g, int side)
{
    return g->berserk[side] ? 0 : g->inc_ms;
}

int64_t live_initial_time(const LiveGame *g, int side)
{
    return g->berserk[side] ? g->base_ms / 2 : g->base_ms;
}

bool live_start(LiveGame *g, const GameOptions *o, Game *initial, MoveRow *rows, int64_t now)
{
    int n = initial->n;
    g->v = o->v;
    g->game = *initial;
    memset(initial, 0, sizeof *initial);
    while (game_undo(&g->game))
        ;
    for (int i = 0; i < n; i++) {
        if (!live_play(g, g->game.moves[i]))
            return false;
        snprintf(rows[i].move, sizeof rows[i].move, "%s", g->uci[i]);
        rows[i].clock_ms = -1;
        rows[i].at_ms = now;
    }
    g->engine[o->creator ^ 1] = o->engine_opponent;
    g->joined[o->creator] = true;
    g->skill = o->engine_opponent ? o->skill : -1;
    g->days = o->days;
    g->has_clock = o->has_clock || o->days > 0;
    g->base_ms = o->days > 0 ? o->days * DAY_MS : o->has_clock ? o->base_ms : 0;
    g->inc_ms = o->has_clock && !o->days ? o->inc_ms : 0;
    g->left[WHITE] = g->left[BLACK] = g->base_ms;
    g->created_ms = g->turn_start_ms = now;
    g->rated = o->rated;
    memcpy(g->seat, o->seat, sizeof g->seat);
    snprintf(g->tournament, sizeof g->tournament, "%s", o->tournament ? o->tournament : "");
    GameResult r = game_status(&g->game);
    if (r.kind != RESULT_NONE) {
        live_set_result(g, r);
        g->ended_ms = now;
    }
    return true;
}

void live_to_row(const LiveGame *g, GameRow *row)
{
    memset(row, 0, sizeof *row);
    snprintf(row->id, sizeof row->id, "%s", g->id);
    snprintf(row->variant, sizeof row->variant, "%s", g->v->def->name);
    snprintf(row->start_fen, sizeof row->start_fen, "%s", g->game.start_fen);
    for (int s = 0; s < 2; s++) {
        snprintf(row->token[s], sizeof row->token[s], "%s", g->token[s]);
        row->engine[s] = g->engine[s];
    }
    row->skill = g->skill;
    row->has_clock = g->has_clock;
    row->days = g->days;
    row->base_ms = g->base_ms;
    row->inc_ms = g->inc_ms;
    snprintf(row->result, sizeof row->result, "%s", live_result_text(g->result));
    snprintf(row->reason, sizeof row->reason, "%s", g->reason);
    row->draw_offer = row->takeback_offer = row->rematch_offer = -1;
    memcpy(row->joined, g->joined, sizeof row->joined);
    row->created_ms = g->created_ms;
    row->ended_ms = g->result != RESULT_NONE ? g->ended_ms : 0;
    row->rated = g->rated;
    memcpy(row->seat, g->seat, sizeof row->seat);
    snprintf(row->tournament, sizeof row->tournament, "%s", g->tournament);
    memcpy(row->berserk, g->berserk, sizeof row->berserk);
}

const char *live_result_text(ResultKind k)
{
    return k == RESULT_ABORTED ? "aborted" : result_text(k);
}

static ResultKind result_of_text(const char *text)
{
    return strcmp(text, "1-0") == 0       ? RESULT_WHITE_WINS
           : strcmp(text, "0-1") == 0     ? RESULT_BLACK_WINS
           : strcmp(text, "1/2-1/2") == 0 ? RESULT_DRAW
           : strcmp(text, "aborted") == 0 ? RESULT_ABORTED
                                          : RESULT_NONE;
}

/* A stored result that the board does not show is declared again through the rules core. */
static void redeclare_result(LiveGame *g, const GameRow *row, ResultKind stored)
{
    int loser = stored == RESULT_WHITE_WINS ? BLACK : WHITE;
    if (strcmp(row->reason, "resignation") == 0)
        game_resign(&g->game, loser);
    else if (strcmp(row->reason, "timeout") == 0)
        game_timeout(&g->game, loser);
    else if (strcmp(row->reason, "agreement") == 0)
        game_agree_draw(&g->game);
    else if (strcmp(row->reason, "abandoned") == 0)
        game_abandoned(&g->game, loser, stored == RESULT_DRAW);
    else if (stored == RESULT_ABORTED)
        game_abort(&g->game);
    g->result = stored;
    snprintf(g->reason, sizeof g->reason, "%s", row->reason);
    g->ended_ms = row->ended_ms > 0 ? row->ended_ms : g->turn_start_ms;
}

/* Copies a string, cut to fit. */
static void copy_str(char *dst, size_t size, const char *src)
{
    size_t n = strnlen(src, size - 1);
    memcpy(dst, src, n);
    dst[n] = 0;
}

static void copy_settings(LiveGame *g, const GameRow *row)
{
    copy_str(g->id, sizeof g->id, row->id);
    for (int s = 0; s < 2; s++) {
        copy_str(g->token[s], sizeof g->token[s], row->token[s]);
        g->engine[s] = row->engine[s];
    }
    g->skill = row->skill;
    g->has_clock = row->has_clock;
    g->days = row->days;
    g->base_ms = row->base_ms;
    g->inc_ms = row->inc_ms;
    memcpy(g->berserk, row->berserk, sizeof g->berserk);
    g->left[WHITE] = live_initial_time(g, WHITE);
    g->left[BLACK] = live_initial_time(g, BLACK);
    g->created_ms = row->created_ms;
    g->turn_start_ms = row->created_ms;
    g->rated = row->rated;
    memcpy(g->seat, row->seat, sizeof g->seat);
    copy_str(g->tournament, sizeof g->tournament, row->tournament);
}

/* Replays the stored moves, with the clock as each left it. */
static bool replay_moves(LiveGame *g, const MoveRow *moves, int n, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        char why[160];
        Move m = parse_move(&g->game.pos, moves[i].move, why, sizeof why);
        if (m == MOVE_NONE) {
            snprintf(err, errlen, "stored move %d '%s': %s", i + 1, moves[i].move, why);
            return false;
        }
        int side = g->game.pos.side;
        if (!live_play(g, m)) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
        if (moves[i].clock_ms >= 0)
            g->left[side] = moves[i].clock_ms;
        g->turn_start_ms = moves[i].at_ms;
    }
    return true;
}

LiveGame *live_from_row(const GameRow *row, const MoveRow *moves, int n, char *err, size_t errlen)
{
    const Variant *v = variant_by_name(row->variant);
    if (!v) {
        snprintf(err, errlen, "unknown variant '%s'", row->variant);
        return NULL;
    }
    LiveGame *g = live_new();
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    g->v = v;
    copy_settings(g, row);
    if (!game_init(&g->game, v, row->start_fen, err, errlen) || !replay_moves(g, moves, n, err, errlen)) {
        live_free(g);
        return NULL;
    }
    ResultKind stored = result_of_text(row->result);
    if (stored != RESULT_NONE) {
        redeclare_result(g, row, stored);
        g->rematch_offer = row->rematch_offer;
        copy_str(g->rematch_id, sizeof g->rematch_id, row->rematch_id);
    } else {
        g->draw_offer = row->draw_offer;
        g->takeback_offer = row->takeback_offer;
    }
    memcpy(g->joined, row->joined, sizeof g->joined);
    return g;
}

static void swap_bytes(void *a, void *b, size_t n)
{
    unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++) {
        unsigned char t = x[i];
        x[i] = y[i];
        y[i] = t;
    }
}

void live_exchange(LiveGame *g, LiveGame *fresh)
{
#define EXCHANGE(field) swap_bytes(&g->field, &fresh->field, sizeof g->field)
    EXCHANGE(v);
    EXCHANGE(game);
    EXCHANGE(uci);
    EXCHANGE(san);
    EXCHANGE(fen);
    EXCHANGE(names_cap);
    EXCHANGE(token);
    EXCHANGE(engine);
    EXCHANGE(skill);
    EXCHANGE(has_clock);
    EXCHANGE(days);
    EXCHANGE(base_ms);
    EXCHANGE(inc_ms);
    EXCHANGE(left);
    EXCHANGE(turn_start_ms);
    EXCHANGE(created_ms);
    EXCHANGE(ended_ms);
    EXCHANGE(result);
    EXCHANGE(reason);
    EXCHANGE(draw_offer);
    EXCHANGE(takeback_offer);
    EXCHANGE(rematch_offer);
    EXCHANGE(rematch_id);
    EXCHANGE(joined);
    EXCHANGE(rated);
    EXCHANGE(seat);
    EXCHANGE(tournament);
    EXCHANGE(berserk);
#undef EXCHANGE
}
