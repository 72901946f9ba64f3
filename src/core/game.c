/* Games: history and every end condition, with the variants' hooks deciding their own. */
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

/* Makes room for one more move; false (the game unchanged) when memory runs out. */
static bool grow(Game *g)
{
    if (g->n + 1 < g->cap)
        return true;
    int cap = g->cap ? g->cap * 2 : 256;
    Move *m = realloc(g->moves, sizeof *m * (size_t)cap);
    if (m)
        g->moves = m;
    Undo *u = realloc(g->undos, sizeof *u * (size_t)cap);
    if (u)
        g->undos = u;
    uint64_t *k = realloc(g->keys, sizeof *k * (size_t)cap);
    if (k)
        g->keys = k;
    if (!m || !u || !k)
        return false;
    g->cap = cap;
    return true;
}

bool game_init(Game *g, const Variant *v, const char *fen, char *err, size_t errlen)
{
    Position pos;
    if (!pos_set_fen(&pos, v, fen ? fen : v->def->start_fen, err, errlen))
        return false;
    game_free(g);
    g->v = v;
    g->pos = pos;
    pos_fen(&pos, g->start_fen, sizeof g->start_fen);
    if (!grow(g)) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    g->keys[0] = pos_repetition_key(&g->pos);
    return true;
}

void game_free(Game *g)
{
    free(g->moves);
    free(g->undos);
    free(g->keys);
    memset(g, 0, sizeof *g);
}

bool game_play(Game *g, Move m)
{
    if (!grow(g))
        return false;
    g->moves[g->n] = m;
    pos_make(&g->pos, m, &g->undos[g->n]);
    g->n++;
    g->keys[g->n] = pos_repetition_key(&g->pos);
    return true;
}

bool game_undo(Game *g)
{
    if (g->n == 0)
        return false;
    g->n--;
    pos_unmake(&g->pos, g->moves[g->n], &g->undos[g->n]);
    return true;
}

static GameResult result(ResultKind k, const char *reason)
{
    GameResult r = {k, reason};
    return r;
}

static GameResult drawn(Game *g, const char *reason)
{
    const VariantDef *d = g->v->def;
    return d->decide_draw ? d->decide_draw(&g->pos, reason) : result(RESULT_DRAW, reason);
}

static int occurrences(const Game *g)
{
    int count = 0;
    for (int i = 0; i <= g->n; i++)
        count += g->keys[i] == g->keys[g->n];
    return count;
}

bool fifty_move_rule_reached(const Position *pos)
{
    const VariantDef *d = pos->v->def;
    return pos->halfmove >= 100 && !(d->fifty_move_exception && d->fifty_move_exception(pos));
}

void game_resign(Game *g, int side)
{
    g->ended = result(side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, "resignation");
}

void game_timeout(Game *g, int side)
{
    g->ended = result(side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, "timeout");
}

void game_agree_draw(Game *g)
{
    g->ended = drawn(g, "agreement");
}

void game_abandoned(Game *g, int side, bool draw)
{
    g->ended = draw ? drawn(g, "abandoned")
                     : result(side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, "abandoned");
}

void game_abort(Game *g)
{
    g->ended = result(RESULT_ABORTED, "aborted");
}

GameResult game_status(Game *g)
{
    Position *pos = &g->pos;
    if (g->ended.kind != RESULT_NONE)
        return g->ended;
    Move moves[MAX_MOVES];
    if (gen_legal(pos, moves) == 0) {
        if (pos_in_check(pos))
            return result(pos->side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, "checkmate");
        return g->v->def->stalemate ? g->v->def->stalemate(pos) : result(RESULT_DRAW, "stalemate");
    }
    if (!g->v->def->no_repetition && occurrences(g) >= 3)
        return drawn(g, "repetition");
    if (fifty_move_rule_reached(pos))
        return drawn(g, "fifty-move");
    if (g->v->def->insufficient_material && g->v->def->insufficient_material(pos))
        return drawn(g, "insufficient-material");
    return result(RESULT_NONE, NULL);
}

const char *result_text(ResultKind k)
{
    switch (k) {
    case RESULT_WHITE_WINS:
        return "1-0";
    case RESULT_BLACK_WINS:
        return "0-1";
    case RESULT_DRAW:
        return "1/2-1/2";
    default:
        return "*";
    }
}
