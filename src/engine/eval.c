#include "eval.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../core/fen.h"

#define MAX_VARIANTS 32

static EvalTables tables[MAX_VARIANTS];
static int ntables;

/* Cells a piece reaches from c on an empty board. */
static int empty_board_reach(const Variant *v, int code, Cell c)
{
    int n = 0;
    for (const uint8_t *p = v->prog + v->prog_at[code][c]; *p; p += 2 + p[1])
        n += p[1];
    return n;
}

/* Pushes a pawn needs from each cell to reach its promotion zone (BFS backwards). */
static void pawn_distance(const Variant *v, int code, int *dist)
{
    const Geometry *g = v->geo;
    int colour = PIECE_COLOUR(code);
    for (Cell c = 0; c < g->ncells; c++)
        dist[c] = v->promotion_zone[colour][c] ? 0 : -1;
    for (bool changed = true; changed;) {
        changed = false;
        for (Cell c = 0; c < g->ncells; c++) {
            if (dist[c] >= 0)
                continue;
            for (const uint8_t *p = v->prog + v->prog_at[code][c]; *p; p += 2 + p[1]) {
                Cell t = p[2];
                if (dist[t] >= 0 && (dist[c] < 0 || dist[t] + 1 < dist[c])) {
                    dist[c] = dist[t] + 1;
                    changed = true;
                }
            }
        }
    }
}

static void build_tables(EvalTables *t, const Variant *v)
{
    const Geometry *g = v->geo;
    t->v = v;
    for (int code = 0; code < MAX_CODES; code++) {
        int type = PIECE_TYPE(code);
        if (type < 1 || type > v->ntypes)
            continue;
        const PieceDef *pd = &v->def->pieces[type - 1];
        t->value[code] = pd->value;
        int reach[MAX_CELLS], sum = 0, dist[MAX_CELLS], maxdist = 0;
        for (Cell c = 0; c < g->ncells; c++)
            sum += reach[c] = empty_board_reach(v, code, c);
        double avg = (double)sum / g->ncells;
        if (pd->pawn) {
            pawn_distance(v, code, dist);
            for (Cell c = 0; c < g->ncells; c++)
                if (dist[c] > maxdist)
                    maxdist = dist[c];
        }
        for (Cell c = 0; c < g->ncells; c++) {
            double mob = avg > 0 ? (reach[c] - avg) / avg : 0;
            int mg, eg;
            if (pd->royal) {
                mg = (int)(-12 * mob); /* shelter: fewer open lines around the king */
                eg = (int)(25 * mob);  /* activity */
            } else if (pd->pawn) {
                int advance = dist[c] >= 0 ? maxdist - dist[c] : 0;
                mg = pd->value + 4 * advance;
                eg = pd->value + 10 * advance + (dist[c] == 1 ? 40 : 0);
            } else {
                mg = pd->value + (int)(pd->value * mob / 8);
                eg = pd->value + (int)(pd->value * mob / 12);
            }
            t->mg[code][c] = (int16_t)mg;
            t->eg[code][c] = (int16_t)eg;
        }
    }
    /* Game phase: non-pawn material on the board and in hand at the start. */
    Position start;
    char err[160];
    if (pos_set_fen(&start, v, v->def->start_fen, err, sizeof err)) {
        for (Cell c = 0; c < g->ncells; c++)
            if (start.board[c] && !v->is_pawn[start.board[c]] && !v->is_royal[start.board[c]])
                t->phase_total += t->value[start.board[c]];
        for (int side = 0; side < 2; side++)
            for (int type = 1; type <= v->ntypes; type++)
                if (type != v->pawn_type && type != v->royal_type)
                    t->phase_total += start.hand[side][type] * t->value[MAKE_PIECE(side, type)];
    }
    if (t->phase_total <= 0)
        t->phase_total = 1;
}

static void build_all(void)
{
    for (int i = 0; i < variant_count() && i < MAX_VARIANTS; i++)
        build_tables(&tables[ntables++], variant_at(i));
}

const EvalTables *eval_tables(const Variant *v)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, build_all);
    for (int i = 0; i < ntables; i++)
        if (tables[i].v == v)
            return &tables[i];
    return NULL;
}

int evaluate(const Position *pos, const EvalTables *t)
{
    const Variant *v = pos->v;
    int mg[2] = {0, 0}, eg[2] = {0, 0}, phase = 0;
    for (int side = 0; side < 2; side++) {
        for (int i = 0; i < pos->pcount[side]; i++) {
            Cell c = pos->plist[side][i];
            uint8_t code = pos->board[c];
            mg[side] += t->mg[code][c];
            eg[side] += t->eg[code][c];
            if (!v->is_pawn[code] && !v->is_royal[code])
                phase += t->value[code];
        }
        if (pos->hand_total[side])
            for (int type = 1; type <= v->ntypes; type++) {
                int value = pos->hand[side][type] * t->value[MAKE_PIECE(side, type)];
                mg[side] += value;
                eg[side] += value;
                if (type != v->pawn_type && type != v->royal_type)
                    phase += value;
            }
    }
    if (phase > t->phase_total)
        phase = t->phase_total;
    int white = ((mg[WHITE] - mg[BLACK]) * phase + (eg[WHITE] - eg[BLACK]) * (t->phase_total - phase)) / t->phase_total;
    if (v->def->eval_bonus)
        white += v->def->eval_bonus(pos);
    return (pos->side == WHITE ? white : -white) + 10;
}
