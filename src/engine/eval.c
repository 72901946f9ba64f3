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

void eval_default_params(const Variant *v, EvalParams *p)
{
    memset(p, 0, sizeof *p);
    for (int type = 1; type <= v->ntypes && type < MAX_TYPES; type++) {
        const PieceDef *pd = &v->def->pieces[type - 1];
        p->piece_mg[type] = p->piece_eg[type] = pd->royal ? 0 : pd->value;
    }
#define EVAL_DEFAULT(name, def, step, lo, hi, doc) p->name = def;
    EVAL_SCALARS(EVAL_DEFAULT)
#undef EVAL_DEFAULT
}

const EvalParams *eval_tuned_params(const Variant *v)
{
    for (const EvalWeights *w = eval_weights; w->variant; w++)
        if (strcmp(w->variant, v->def->name) == 0)
            return &w->params;
    return NULL;
}

static int16_t clamp16(double x)
{
    return (int16_t)(x > 30000 ? 30000 : x < -30000 ? -30000 : x);
}

void eval_build(EvalTables *t, const Variant *v, const EvalParams *p)
{
    const Geometry *g = v->geo;
    memset(t, 0, sizeof *t);
    t->v = v;
    t->p = *p;
    for (int code = 0; code < MAX_CODES; code++) {
        int type = PIECE_TYPE(code);
        if (type < 1 || type > v->ntypes)
            continue;
        const PieceDef *pd = &v->def->pieces[type - 1];
        t->value[code] = pd->value;
        int vmg = pd->royal ? 0 : p->piece_mg[type], veg = pd->royal ? 0 : p->piece_eg[type];
        t->hand_mg[code] = vmg;
        t->hand_eg[code] = veg;
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
                mg = (int)(-p->royal_shelter_mg * mob); /* shelter: fewer open lines around the king */
                eg = (int)(p->royal_activity_eg * mob); /* activity */
            } else if (pd->pawn) {
                int advance = dist[c] >= 0 ? maxdist - dist[c] : 0;
                mg = vmg + p->pawn_advance_mg * advance;
                eg = veg + p->pawn_advance_eg * advance + (dist[c] == 1 ? p->pawn_near_promotion : 0);
            } else {
                mg = vmg + (int)(vmg * mob * p->centre_mg / 1000.0);
                eg = veg + (int)(veg * mob * p->centre_eg / 1000.0);
            }
            t->mg[code][c] = clamp16(mg);
            t->eg[code][c] = clamp16(eg);
        }
    }
    /* The royal's zone: its cell and its neighbours. */
    for (Cell c = 0; c < g->ncells; c++) {
        t->zone[c][c >> 5] |= 1u << (c & 31);
        for (int d = 0; d < g->ndirs; d++) {
            Cell n = g->step[c][d];
            if (n != NO_CELL)
                t->zone[c][n >> 5] |= 1u << (n & 31);
        }
    }
    t->walk = p->mobility_mg || p->mobility_eg || p->royal_zone_mg;
    t->contact = p->pawn_shield_mg || p->pawn_contact_mg || p->pawn_contact_eg;
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
    const char *mode = getenv("STARFISH_EVAL");
    bool defaults = mode && strcmp(mode, "default") == 0;
    for (int i = 0; i < variant_count() && i < MAX_VARIANTS; i++) {
        const Variant *v = variant_at(i);
        EvalParams p;
        const EvalParams *tuned = defaults ? NULL : eval_tuned_params(v);
        if (tuned)
            p = *tuned;
        else
            eval_default_params(v, &p);
        eval_build(&tables[ntables++], v, &p);
    }
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

static inline bool in_zone(const uint32_t *zone, Cell c)
{
    return zone && (zone[c >> 5] >> (c & 31) & 1);
}

/* The pseudo-legal moves of the piece on `from` (castling and double steps left out; a cell
 * that two rose paths reach counts twice), and how many of them land in `zone` (when not
 * NULL; inlined twice, with and without a zone). */
static inline __attribute__((always_inline)) int walk_moves(const Position *pos, Cell from, const uint32_t *zone,
                                                            int *zone_hits)
{
    const Variant *v = pos->v;
    const uint8_t *board = pos->board;
    int us = PIECE_COLOUR(board[from]), n = 0, z = 0;
    for (const uint8_t *p = v->prog + v->prog_at[board[from]][from]; *p; p += 2 + p[1]) {
        const uint8_t *cells = p + 2, *end = cells + p[1];
        bool quiet = *p & E_QUIET, capture = *p & E_CAPTURE;
        switch (*p & E_KIND_MASK) {
        case E_LEAPS:
            for (; cells < end; cells++) {
                uint8_t o = board[*cells];
                if (o ? capture && PIECE_COLOUR(o) != us : quiet) {
                    n++;
                    z += in_zone(zone, *cells);
                }
            }
            break;
        case E_RAY:
        case E_ROSE:
            for (; cells < end; cells++) {
                uint8_t o = board[*cells];
                if (!o) {
                    if (quiet) {
                        n++;
                        z += in_zone(zone, *cells);
                    }
                    continue;
                }
                if (capture && PIECE_COLOUR(o) != us) {
                    n++;
                    z += in_zone(zone, *cells);
                }
                break;
            }
            break;
        case E_PUSH:
            if (!board[cells[0]]) {
                n++;
                z += in_zone(zone, cells[0]);
            }
            break;
        case E_PAWN_CAPTURE:
            for (; cells < end; cells++) {
                uint8_t o = board[*cells];
                if (o && PIECE_COLOUR(o) != us) {
                    n++;
                    z += in_zone(zone, *cells);
                }
            }
            break;
        case E_HOP: {
            bool screened = false;
            for (; cells < end; cells++) {
                uint8_t o = board[*cells];
                if (!screened) {
                    if (!o) {
                        if (quiet) {
                            n++;
                            z += in_zone(zone, *cells);
                        }
                    } else {
                        screened = true;
                    }
                } else if (o) {
                    if (capture && PIECE_COLOUR(o) != us) {
                        n++;
                        z += in_zone(zone, *cells);
                    }
                    break;
                }
            }
            break;
        }
        }
    }
    *zone_hits = z;
    return n;
}

static int own_pawns_next_to(const Position *pos, Cell c, int colour)
{
    const Geometry *g = pos->v->geo;
    int n = 0;
    for (int d = 0; d < g->ndirs; d++) {
        Cell x = g->step[c][d];
        uint8_t o = x != NO_CELL ? pos->board[x] : 0;
        n += o && pos->v->is_pawn[o] && PIECE_COLOUR(o) == colour;
    }
    return n;
}

/* The optional terms, White minus Black, in sixteenths of a centipawn. */
static void dynamic_terms(const Position *pos, const EvalTables *t, int *mg16, int *eg16)
{
    const Variant *v = pos->v;
    const EvalParams *p = &t->p;
    int mg = 0, eg = 0;
    for (int side = 0; side < 2; side++) {
        int sign = side == WHITE ? 1 : -1;
        Cell enemy_royal = pos->royal[side ^ 1];
        const uint32_t *zone = enemy_royal != NO_CELL && p->royal_zone_mg ? t->zone[enemy_royal] : NULL;
        int moves = 0, hits = 0, contact = 0;
        for (int i = 0; i < pos->pcount[side]; i++) {
            Cell c = pos->plist[side][i];
            uint8_t code = pos->board[c];
            if (v->is_pawn[code] || v->is_royal[code])
                continue;
            if (t->walk) {
                int z = 0;
                moves += zone ? walk_moves(pos, c, zone, &z) : walk_moves(pos, c, NULL, &z);
                hits += z;
            }
            if (t->contact)
                contact += pos_next_to_pawn(pos, c);
        }
        int shield = t->contact && pos->royal[side] != NO_CELL ? own_pawns_next_to(pos, pos->royal[side], side) : 0;
        mg += sign * (p->mobility_mg * moves + p->royal_zone_mg * hits +
                      16 * (p->pawn_shield_mg * shield + p->pawn_contact_mg * contact));
        eg += sign * (p->mobility_eg * moves + 16 * p->pawn_contact_eg * contact);
    }
    *mg16 = mg;
    *eg16 = eg;
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
                int n = pos->hand[side][type];
                if (!n)
                    continue;
                uint8_t code = MAKE_PIECE(side, type);
                mg[side] += n * t->hand_mg[code];
                eg[side] += n * t->hand_eg[code];
                if (type != v->pawn_type && type != v->royal_type)
                    phase += n * t->value[code];
            }
    }
    if (phase > t->phase_total)
        phase = t->phase_total;
    int mgd = mg[WHITE] - mg[BLACK], egd = eg[WHITE] - eg[BLACK];
    if (t->walk || t->contact) {
        int mg16, eg16;
        dynamic_terms(pos, t, &mg16, &eg16);
        mgd += mg16 / 16;
        egd += eg16 / 16;
    }
    int white = (mgd * phase + egd * (t->phase_total - phase)) / t->phase_total;
    if (v->def->eval_bonus)
        white += v->def->eval_bonus(pos) * t->p.bonus_weight / 100;
    return (pos->side == WHITE ? white : -white) + t->p.tempo;
}
