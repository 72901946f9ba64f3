#include "eval.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../core/attack.h"
#include "../core/fen.h"
#include "../core/movegen.h"
#include "../variants/registry.h"

#define MAX_VARIANTS 32

static EvalTables tables[MAX_VARIANTS];
static int ntables;
static atomic_uint_fast64_t builds; /* the tables built so far: each one's id */

/* Moves a pawn needs from each cell to reach its promotion zone, single steps and captures
 * (BFS backwards). */
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
            CellSet next = variant_targets(v, code, c);
            Cell twice = variant_push(v, code, c, true);
            if (twice != NO_CELL)
                cellset_flip(&next, twice);
            CELLSET_EACH(t, &next)
                if (dist[t] >= 0 && (dist[c] < 0 || dist[t] + 1 < dist[c])) {
                    dist[c] = dist[t] + 1;
                    changed = true;
                }
        }
    }
}

/* The royal's mean distance in moves from `from` to every cell it reaches on an empty board
 * (BFS over its moves). */
static double mean_distance(const Variant *v, int code, Cell from)
{
    int dist[MAX_CELLS];
    Cell queue[MAX_CELLS];
    int head = 0, tail = 0, sum = 0;
    for (Cell c = 0; c < v->geo->ncells; c++)
        dist[c] = -1;
    dist[from] = 0;
    queue[tail++] = from;
    while (head < tail) {
        Cell c = queue[head++];
        sum += dist[c];
        CellSet next = variant_targets(v, code, c);
        CELLSET_EACH(t, &next)
            if (dist[t] < 0) {
                dist[t] = dist[c] + 1;
                queue[tail++] = t;
            }
    }
    return tail > 1 ? (double)sum / (tail - 1) : 0;
}

/* Per cell, the royal's remoteness: its mean distance to every cell relative to the board's
 * average of that mean ((mean - avg) / avg): above 0 in corners and on edges, below 0 in the
 * centre. */
static void royal_remoteness(const Variant *v, int code, double *remote)
{
    double avg = 0;
    for (Cell c = 0; c < v->geo->ncells; c++)
        avg += remote[c] = mean_distance(v, code, c);
    avg /= v->geo->ncells;
    for (Cell c = 0; c < v->geo->ncells; c++)
        remote[c] = avg > 0 ? (remote[c] - avg) / avg : 0;
}

static int16_t clamp16(double x)
{
    return (int16_t)(x > 30000 ? 30000 : x < -30000 ? -30000 : x);
}

/* A pawn's pushes from c: c and every cell it steps through to its zone. */
static CellSet pawn_path(const Variant *v, int code, Cell c)
{
    CellSet path = {{0}};
    for (Cell x = c; x != NO_CELL && !cellset_has(&path, x); x = variant_push(v, code, x, false)) {
        cellset_flip(&path, x);
        if (v->promotion_zone[PIECE_COLOUR(code)][x])
            break;
    }
    return path;
}

static bool sets_meet(const CellSet *a, const CellSet *b)
{
    CellSet both = cellset_and(a, b);
    return cellset_next(&both, 0) != NO_CELL;
}

/* The cells a pawn of `code` on c takes on: its targets less its pushes. */
static CellSet pawn_captures(const Variant *v, int code, Cell c)
{
    CellSet takes = variant_targets(v, code, c);
    for (int twice = 0; twice < 2; twice++) {
        Cell push = variant_push(v, code, c, twice);
        if (push != NO_CELL && cellset_has(&takes, push))
            cellset_flip(&takes, push);
    }
    return takes;
}

/*
 * Where an enemy pawn stops a pawn of `code` on c from running to its zone: the cells of its
 * path, the cells from which an enemy pawn takes on the path (c included), and, closing the
 * set, the cells from which an enemy pawn's pushes lead into it.  A pawn with no enemy pawn
 * on these cells is passed.  From the variant's pawn moves only, so it holds on every board.
 */
static CellSet pawn_stoppers(const Variant *v, int code, Cell c)
{
    const Geometry *g = v->geo;
    int enemy = MAKE_PIECE(PIECE_COLOUR(code) ^ 1, PIECE_TYPE(code));
    CellSet path = pawn_path(v, code, c), stop = path;
    cellset_flip(&stop, c);
    for (Cell e = 0; e < g->ncells; e++) {
        CellSet takes = pawn_captures(v, enemy, e);
        if (!cellset_has(&stop, e) && sets_meet(&takes, &path))
            cellset_flip(&stop, e);
    }
    for (bool grew = true; grew;) {
        grew = false;
        for (Cell e = 0; e < g->ncells; e++)
            for (int twice = 0; twice < 2 && !cellset_has(&stop, e); twice++) {
                Cell push = variant_push(v, enemy, e, twice);
                if (push != NO_CELL && cellset_has(&stop, push)) {
                    cellset_flip(&stop, e);
                    grew = true;
                }
            }
    }
    return stop;
}

/* The pawn-threat tables of both colours: where each pawn takes. */
static void build_threats(EvalTables *t, const Variant *v, const EvalParams *p)
{
    t->threats = v->pawn_type && (p->pawn_threat_mg || p->pawn_threat_eg);
    if (!t->threats)
        return;
    for (int colour = 0; colour < 2; colour++)
        for (Cell c = 0; c < v->geo->ncells; c++)
            t->pawn_takes[colour][c] = pawn_captures(v, MAKE_PIECE(colour, v->pawn_type), c);
}

/* The passed-pawn tables of both colours: stoppers per cell, and the bonus growing with the
 * square of the pawn's advance (full one push from the zone). */
static void build_passers(EvalTables *t, const Variant *v, const EvalParams *p)
{
    t->passers = v->pawn_type && (p->passed_mg || p->passed_eg);
    if (!t->passers)
        return;
    for (int colour = 0; colour < 2; colour++) {
        int code = MAKE_PIECE(colour, v->pawn_type), dist[MAX_CELLS], maxdist = 0;
        pawn_distance(v, code, dist);
        for (Cell c = 0; c < v->geo->ncells; c++)
            if (dist[c] > maxdist)
                maxdist = dist[c];
        for (Cell c = 0; c < v->geo->ncells; c++) {
            if (dist[c] < 1 || maxdist < 2)
                continue;
            t->stoppers[colour][c] = pawn_stoppers(v, code, c);
            double share = (double)(maxdist - dist[c]) / (maxdist - 1);
            t->passer_mg[colour][c] = clamp16(p->passed_mg * share * share);
            t->passer_eg[colour][c] = clamp16(p->passed_eg * share * share);
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

void eval_build(EvalTables *t, const Variant *v, const EvalParams *p)
{
    const Geometry *g = v->geo;
    memset(t, 0, sizeof *t);
    t->id = atomic_fetch_add(&builds, 1) + 1;
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
        double remote[MAX_CELLS] = {0}; /* worked out only where a weight needs it */
        for (Cell c = 0; c < g->ncells; c++)
            sum += reach[c] = variant_reach(v, code, c);
        if (pd->royal && (p->royal_remote_mg || p->royal_remote_eg))
            royal_remoteness(v, code, remote);
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
                mg += (int)(p->royal_remote_mg * remote[c]);
                eg += (int)(p->royal_remote_eg * remote[c]);
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
            int sign = PIECE_COLOUR(code) == WHITE ? 1 : -1;
            t->scores[code][c] = (PieceScore){(int16_t)(sign * t->mg[code][c]), (int16_t)(sign * t->eg[code][c]),
                                              (int16_t)(pd->pawn || pd->royal ? 0 : pd->value), 0};
        }
    }
    /* The royal's zone: its cell and its neighbours. */
    for (Cell c = 0; c < g->ncells; c++) {
        cellset_flip(&t->zone[c], c);
        for (int d = 0; d < g->ndirs; d++)
            if (g->step[c][d] != NO_CELL && !cellset_has(&t->zone[c], g->step[c][d]))
                cellset_flip(&t->zone[c], g->step[c][d]);
    }
    t->piece_threats = p->piece_threat_mg || p->piece_threat_eg;
    t->walk = p->mobility_mg || p->mobility_eg || p->royal_zone_mg || p->royal_zone_sq_mg || t->piece_threats;
    for (int type = 1; type <= v->ntypes && type < MAX_TYPES; type++)
        for (int big = 1; big <= v->ntypes && big < MAX_TYPES; big++) {
            const PieceDef *a = &v->def->pieces[type - 1], *b = &v->def->pieces[big - 1];
            if (!a->pawn && !a->royal && !b->pawn && !b->royal && 4 * b->value > 5 * a->value)
                t->bigger[type] |= 1u << big;
        }
    t->contact = p->pawn_contact_mg || p->pawn_contact_eg;
    t->shield = p->pawn_shield_mg != 0;
    build_passers(t, v, p);
    build_threats(t, v, p);
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

/* Passed pawns, White minus Black: no enemy pawn on any cell that could stop them. */
static void passer_terms(const EvalTables *t, const CellSet pawns[2], int *mg, int *eg)
{
    for (int side = 0; side < 2; side++) {
        int sign = side == WHITE ? 1 : -1;
        Cell cells[SET_CELLS_MAX];
        for (int i = 0, n = cellset_list(&pawns[side], cells); i < n; i++)
            if (!sets_meet(&t->stoppers[side][cells[i]], &pawns[side ^ 1])) {
                *mg += sign * t->passer_mg[side][cells[i]];
                *eg += sign * t->passer_eg[side][cells[i]];
            }
    }
}

/* The terms that depend on the pawns alone, for one set of tables. */
typedef struct PawnEntry {
    uint64_t tables; /* EvalTables.id; 0: an empty entry */
    CellSet pawns[2]; /* each side's */
    CellSet near;     /* the cells next to a pawn of either side (with contact terms) */
    CellSet attacks[2]; /* the cells each side's pawns take on (with threat terms) */
    int passer_mg, passer_eg;
} PawnEntry;

/* The pawn structures met lately, a table per thread (allocated when the thread first
 * evaluates, freed when it ends): a search meets few, so most evaluations find theirs here. */
#define PAWN_BITS 10
static pthread_key_t pawn_key;
static pthread_once_t pawn_key_once = PTHREAD_ONCE_INIT;

static void make_pawn_key(void)
{
    pthread_key_create(&pawn_key, free);
}

static PawnEntry *pawn_table(void)
{
    static _Thread_local PawnEntry *table;
    if (!table) {
        pthread_once(&pawn_key_once, make_pawn_key);
        table = calloc(1u << PAWN_BITS, sizeof *table);
        if (table)
            pthread_setspecific(pawn_key, table);
    }
    return table;
}

/* The position's pawn terms: from the thread's table, else computed into it (into *spare
 * when there is no table). */
static const PawnEntry *pawn_entry(const Position *pos, const EvalTables *t, PawnEntry *spare)
{
    const CellSet *all = &pos->by_type[pos->v->pawn_type];
    CellSet pawns[2] = {cellset_and(all, &pos->by_side[WHITE]), cellset_and(all, &pos->by_side[BLACK])};
    uint64_t h = t->id;
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < pos->v->words; i++)
            h = (h ^ pawns[side].w[i]) * 0x9e3779b97f4a7c15ull;
    PawnEntry *table = pawn_table(), *e = table ? &table[h >> (64 - PAWN_BITS)] : spare;
    if (table && e->tables == t->id && memcmp(e->pawns, pawns, sizeof pawns) == 0)
        return e;
    e->tables = t->id;
    memcpy(e->pawns, pawns, sizeof pawns);
    e->near = t->contact ? pos_cells_next_to_pawns(pos) : (CellSet){{0}};
    e->passer_mg = e->passer_eg = 0;
    for (int side = 0; side < 2; side++) {
        e->attacks[side] = (CellSet){{0}};
        Cell cells[SET_CELLS_MAX];
        for (int i = 0, n = t->threats ? cellset_list(&pawns[side], cells) : 0; i < n; i++)
            e->attacks[side] = cellset_or(&e->attacks[side], &t->pawn_takes[side][cells[i]]);
    }
    if (t->passers)
        passer_terms(t, pawns, &e->passer_mg, &e->passer_eg);
    return e;
}

/* A side's pieces: neither its pawns nor its royal piece. */
static CellSet pieces_of(const Position *pos, int side)
{
    CellSet pieces = cellset_minus(&pos->by_side[side], &pos->by_type[pos->v->pawn_type]);
    return cellset_minus(&pieces, &pos->by_type[pos->v->royal_type]);
}

/* The optional terms, White minus Black, in sixteenths of a centipawn. */
static void dynamic_terms(const Position *pos, const EvalTables *t, const PawnEntry *pe, int *mg16, int *eg16)
{
    const EvalParams *p = &t->p;
    int mg = 0, eg = 0;
    for (int side = 0; side < 2; side++) {
        int sign = side == WHITE ? 1 : -1;
        Cell enemy_royal = pos->royal[side ^ 1];
        const CellSet *zone = enemy_royal != NO_CELL && (p->royal_zone_mg || p->royal_zone_sq_mg) ? &t->zone[enemy_royal] : NULL;
        CellSet pieces = pieces_of(pos, side);
        PieceMoves walked = {0, 0, 0};
        if (t->walk)
            walked = pos_piece_moves(pos, &pieces, zone, t->piece_threats ? t->bigger : NULL);
        int moves = walked.moves, hits = walked.zone_hits, threatened = walked.threatened, contact = 0;
        if (t->contact) {
            CellSet touching = cellset_and(&pieces, &pe->near);
            contact = cellset_count(&touching);
        }
        int shield = 0;
        if (t->shield && pos->royal[side] != NO_CELL) { /* own pawns next to the royal piece */
            CellSet around = cellset_and(&t->zone[pos->royal[side]], &pe->pawns[side]);
            shield = cellset_count(&around);
        }
        int threats = 0;
        if (t->threats) { /* enemy pieces this side's pawns attack */
            CellSet targets = pieces_of(pos, side ^ 1);
            targets = cellset_and(&targets, &pe->attacks[side]);
            threats = cellset_count(&targets);
        }
        mg += sign * (p->mobility_mg * moves + p->royal_zone_mg * hits + p->royal_zone_sq_mg * hits * hits +
                      16 * (p->pawn_shield_mg * shield + p->pawn_contact_mg * contact + p->pawn_threat_mg * threats +
                            p->piece_threat_mg * threatened));
        eg += sign * (p->mobility_eg * moves +
                      16 * (p->pawn_contact_eg * contact + p->pawn_threat_eg * threats + p->piece_threat_eg * threatened));
    }
    *mg16 = mg;
    *eg16 = eg;
}

int evaluate(const Position *pos, const EvalTables *t)
{
    const Variant *v = pos->v;
    /* The search keeps the sums up to date in make/unmake; others are added up here. */
    ScoreSum board = pos->score_table == &t->scores ? pos->scores : pos_score_sum(pos, &t->scores);
    int mgd = board.mg, egd = board.eg, phase = board.phase;
    for (int side = 0; side < 2 && (pos->hand_total[WHITE] || pos->hand_total[BLACK]); side++)
        for (int type = 1; type <= v->ntypes; type++) {
            int n = pos->hand[side][type], sign = side == WHITE ? 1 : -1;
            uint8_t code = MAKE_PIECE(side, type);
            mgd += sign * n * t->hand_mg[code];
            egd += sign * n * t->hand_eg[code];
            if (type != v->pawn_type && type != v->royal_type)
                phase += n * t->value[code];
        }
    if (phase > t->phase_total)
        phase = t->phase_total;
    PawnEntry spare;
    const PawnEntry *pe = t->contact || t->shield || t->passers || t->threats ? pawn_entry(pos, t, &spare) : NULL;
    if (t->walk || t->contact || t->shield || t->threats) {
        int mg16, eg16;
        dynamic_terms(pos, t, pe, &mg16, &eg16);
        mgd += mg16 / 16;
        egd += eg16 / 16;
    }
    if (t->passers) {
        mgd += pe->passer_mg;
        egd += pe->passer_eg;
    }
    int white = (mgd * phase + egd * (t->phase_total - phase)) / t->phase_total;
    if (v->def->eval_bonus)
        white += v->def->eval_bonus(pos) * t->p.bonus_weight / 100;
    return (pos->side == WHITE ? white : -white) + t->p.tempo;
}
