/*
 * The retrograde analysis of one table (tb_gen.c runs it on the tables in dependency order: a
 * capture leads to a table with fewer men, a promotion to one with fewer pawns).
 *
 * A table is built in three passes over both sides to move, every pass split between
 * worker threads (chunks of the index handed out by an atomic counter):
 *
 *   DTM  Initialisation: every valid position's legal moves (the rules core's gen_legal) are
 *        sorted into moves that stay in the table (counted) and moves that leave it (captures
 *        and promotions, looked up in the smaller tables: their best win for the mover, and
 *        whether all of them lose).  No legal move: checkmate (lost, DTM 0) or stalemate.
 *        Then level by level, n = 1, 2, ...: every position decided at distance n - 1 is
 *        taken back (un-moves of every piece kind, pawn pushes and double steps included;
 *        un-captures and un-promotions are the initialisation's lookups seen from the other
 *        side): a predecessor of a loss is a win in n, a predecessor of a win has its count
 *        of undecided moves lowered, and when it reaches zero (with no drawing or winning
 *        exit) it is a loss in max(n, its longest losing exit).  A win through an exit waits
 *        until its level comes unless a shorter win is found.  Left over: draws.
 *   DEAD The draws from which no sequence of legal moves (both sides cooperating) reaches a
 *        checkmate: the complement of a backward reachability closure from the decided
 *        positions and from draws with a move into a live position of a smaller table.
 *   DTZ  The DTM pass again with zeroing moves (captures and pawn moves) as exits of
 *        distance 1 whose outcome is known (this table's DTM result, or a smaller table), and
 *        only the other moves counted: the winner's shortest and the loser's longest way to
 *        the next zeroing move or mate.  Its wins and losses must equal the DTM pass's.
 *
 * Symmetries: a table stores one position of each class; a position's counter counts each
 * move weighted by the size of the stabiliser of the class it leads to, and each un-move
 * found from a class representative lowers the counter by the stabiliser size of the
 * predecessor's class (orbit counting makes the two sums equal).
 */
#include <stdlib.h>
#include <string.h>

#include "../core/attack.h"
#include "tb_retro.h"

#define CHUNK 4096

static void progress(Gen *g, bool final)
{
    if (g->quiet)
        return;
    double now = clock_seconds();
    if (!final && now - g->t_print < 0.5)
        return;
    g->t_print = now;
    uint64_t done = atomic_load(&g->done), total = 2 * g->n;
    double secs = now - g->t_start;
    fprintf(stderr, "\r  %-10s %-16s %5.1f%%  %7.2f M entries/s   ", g->L->name, g->phase,
            total ? 100.0 * (double)done / (double)total : 100.0, secs > 0 ? (double)done / secs / 1e6 : 0.0);
    fflush(stderr);
}

/* Hands out chunks of entries to the calling threads; the first one reports progress. */
static void *work(void *arg)
{
    Gen *g = arg;
    bool main_thread = pthread_equal(pthread_self(), g->main_thread);
    Position *scratch = malloc(sizeof *scratch);
    uint64_t per_side_chunks = (g->n + CHUNK - 1) / CHUNK;
    for (;;) {
        uint64_t c = atomic_fetch_add(&g->next_chunk, 1);
        if (c >= g->nchunks)
            break;
        int side = c >= per_side_chunks;
        uint64_t lo = (c - (side ? per_side_chunks : 0)) * CHUNK;
        uint64_t hi = lo + CHUNK < g->n ? lo + CHUNK : g->n;
        if (g->scan == SCAN_LEVEL) { /* only entries decided at distance level - 1 */
            int d = g->level - 1;
            uint16_t a = WIN(d), b = LOSS(d), c = TENT(d);
            const uint16_t *val = g->val[side];
            for (uint64_t i = lo; i < hi; i++)
                if (val[i] == a || val[i] == b || val[i] == c)
                    g->fn(g, side, i, scratch, g->ctx);
        } else if (g->scan == SCAN_ALIVE) { /* only the reachability frontier */
            const uint8_t *al = g->alive[side];
            for (uint64_t i = lo; i < hi; i++)
                if (al[i] == 1)
                    g->fn(g, side, i, scratch, g->ctx);
        } else {
            for (uint64_t i = lo; i < hi; i++)
                g->fn(g, side, i, scratch, g->ctx);
        }
        atomic_fetch_add(&g->done, hi - lo);
        if (main_thread)
            progress(g, false);
    }
    free(scratch);
    return NULL;
}


static void par_for(Gen *g, const char *phase, void (*fn)(Gen *, int, uint64_t, Position *, void *), void *ctx)
{
    g->fn = fn;
    g->ctx = ctx;
    g->phase = phase;
    atomic_store(&g->next_chunk, 0);
    atomic_store(&g->done, 0);
    g->nchunks = 2 * ((g->n + CHUNK - 1) / CHUNK);
    g->t_start = clock_seconds();
    g->t_print = g->t_start;
    g->main_thread = pthread_self();
    tb_parallel(g->threads, work, g);
}

static void bump_max(Gen *g, int d)
{
    int m = atomic_load(&g->maxdist);
    while (d > m && !atomic_compare_exchange_weak(&g->maxdist, &m, d))
        ;
}

/* ---- lookups ---- */

static const TbTable *find_sub(Gen *g, const TbSig *sig)
{
    for (int i = 0; i < g->nsubs; i++)
        if (tb_sig_equal(&g->subs[i].sig, sig))
            return g->subs[i].t;
    return NULL;
}

/* The value of a position reached by a move: TBV_* or a distance to mate. */
static int lookup(Gen *g, const Position *child)
{
    TbSig sig;
    TbPos p;
    tb_encode(child, &sig, &p, NULL);
    if (tb_sig_equal(&sig, &g->L->sig)) {
        tb_canon(g->L, &p);
        uint16_t v = g->fdtm[p.side][tb_index(g->L, &p)];
        return v == V_UNKNOWN ? TBV_DRAW : v == V_DEADV ? TBV_DEAD : v == V_INVALID ? TBV_INVALID : DIST(v);
    }
    const TbTable *t = find_sub(g, &sig);
    if (!t) {
        char name[32];
        tb_sig_name(&sig, name);
        fprintf(stderr, "\ntablebase: %s needs table %s, which is missing\n", g->L->name, name);
        atomic_store(&g->failed, 1);
        return TBV_DRAW;
    }
    tb_canon(&t->L, &p);
    return tb_table_value(t, p.side, tb_index(&t->L, &p));
}

/* Sets up the position of an entry; false if the entry is invalid. */
static bool load_entry(Gen *g, int side, uint64_t idx, TbPos *p, Position *pos)
{
    if (!tb_unindex(g->L, idx, p))
        return false;
    p->side = side;
    tb_to_position(g->L, p, pos);
    return !pos_attacked(pos, pos->royal[side ^ 1], side);
}

/* ---- initialisation ---- */

static void init_entry(Gen *g, int side, uint64_t idx, Position *pos, void *ctx)
{
    (void)ctx;
    TbPos p;
    uint16_t *val = &g->val[side][idx], *cnt = &g->cnt[side][idx], *aux = &g->aux[side][idx];
    *aux = 0;
    *cnt = 0;
    if (g->pass == PASS_DTZ) {
        uint16_t f = g->fdtm[side][idx];
        if (f == V_INVALID) {
            *val = V_INVALID;
            return;
        }
        if (!IS_DEC(f)) { /* a draw stays undecided and never becomes a loss */
            *val = V_UNKNOWN;
            *cnt = NOLOSS;
            return;
        }
    }
    if (!load_entry(g, side, idx, &p, pos)) {
        *val = V_INVALID;
        return;
    }
    const Variant *v = pos->v;
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    *val = V_UNKNOWN;
    if (n == 0) {
        if (pos_in_check(pos))
            *val = LOSS(0);
        else
            *cnt = NOLOSS;
        return;
    }
    int bestwin = MAX_DIST + 1, maxloss = 0;
    bool nonlose = false;
    unsigned c = 0;
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        bool capture = pos_is_capture(pos, m);
        bool exit = g->pass == PASS_DTM ? capture || MOVE_PIECE(m) != 0
                                        : capture || v->is_pawn[pos->board[MOVE_FROM(m)]];
        Undo u;
        pos_make(pos, m, &u);
        if (!exit) {
            TbPos cp;
            tb_encode_in(g->L, pos, &cp);
            c += (unsigned)tb_canon(g->L, &cp);
        } else {
            int cv = lookup(g, pos);
            if (cv >= 0) {
                int dist = g->pass == PASS_DTM ? cv + 1 : 1;
                if (cv % 2 == 0) {
                    if (dist < bestwin)
                        bestwin = dist;
                } else if (dist > maxloss) {
                    maxloss = dist;
                }
            } else {
                nonlose = true;
            }
        }
        pos_unmake(pos, m, &u);
    }
    if (bestwin <= MAX_DIST) {
        *val = TENT(bestwin);
        nonlose = true;
        bump_max(g, bestwin);
    }
    *cnt = (uint16_t)(c | (nonlose ? NOLOSS : 0));
    *aux = (uint16_t)maxloss;
    if (c == 0 && !nonlose) {
        *val = LOSS(maxloss);
        bump_max(g, maxloss);
    }
}

/* ---- un-moves ---- */

typedef void (*PredFn)(Gen *g, int side, uint64_t idx, int stab, void *ctx);

/*
 * Every position P (the other side to move) with a legal move into q that stays in the
 * table: non-pawn moves that capture nothing, and (pawn_moves) pawn pushes and double steps
 * that do not promote.  pos is q set up; it is left as it was.
 */
static void predecessors(Gen *g, const TbPos *q, Position *pos, bool pawn_moves, PredFn fn, void *ctx)
{
    const TbLayout *L = g->L;
    const TbGeo *G = tb_geo();
    const Variant *v = pos->v;
    int y = q->side, x = y ^ 1;
    int8_t slot_at[TB_NCELLS];
    memset(slot_at, -1, sizeof slot_at);
    for (int i = 0; i < L->nslots; i++)
        slot_at[tb_slot_cell(L, q, i)] = (int8_t)i;
    Move moves[MAX_MOVES];
    pos->side = x;
    int n = gen_pseudo(pos, moves);
    pos->side = y;
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        Cell f = MOVE_FROM(m), t = MOVE_TO(m);
        uint8_t code = pos->board[f];
        if (pos->board[t] || v->is_pawn[code] || MOVE_KIND(m) != MK_NORMAL)
            continue;
        pos_take(pos, f);
        pos_put(pos, code, t);
        bool ok = !pos_attacked(pos, pos->royal[y], x);
        pos_take(pos, t);
        pos_put(pos, code, f);
        if (!ok)
            continue;
        TbPos P = *q;
        P.side = x;
        P.s[slot_at[f]] = t;
        int stab = tb_canon(L, &P);
        uint64_t pidx = tb_index(L, &P);
        if (stab && pidx != UINT64_MAX)
            fn(g, x, pidx, stab, ctx);
    }
    if (!pawn_moves || !L->sig.n[x][TBK_P])
        return;
    const Geometry *geom = v->geo;
    Vec fwd = v->forward[x];
    uint8_t pawn = MAKE_PIECE(x, v->pawn_type);
    for (int i = 0; i < L->nslots; i++) {
        if (L->slot_colour[i] != x || L->slot_kind[i] != TBK_P)
            continue;
        int c = G->pstate_cell[x][q->s[i]];
        if (G->pstate_limp[x][q->s[i]] != G->start[x][c])
            continue; /* a push leaves the pawn limping exactly when it lands on a start cell */
        int bq = geom->q[c] - fwd.dq, br = geom->r[c] - fwd.dr;
        Cell b = geo_cell_at(geom, bq, br, 0);
        if (b == NO_CELL || pos->board[b] || !G->can_stand[x][b])
            continue;
        Cell a = geo_cell_at(geom, bq - fwd.dq, br - fwd.dr, 0);
        /* Origins: b (limping or not if it is a start cell), and a by a double step. */
        Cell origin[3];
        bool limp[3];
        int no = 0;
        origin[no] = b;
        limp[no++] = false;
        if (G->start[x][b]) {
            origin[no] = b;
            limp[no++] = true;
        }
        if (a != NO_CELL && !pos->board[a] && G->start[x][a] && G->can_stand[x][a] &&
            variant_push(v, pawn, a, true) == c) {
            origin[no] = a;
            limp[no++] = false;
        }
        for (int k = 0; k < no; k++) {
            Cell o = origin[k];
            pos_take(pos, (Cell)c);
            pos_put(pos, pawn, o);
            bool ok = !pos_attacked(pos, pos->royal[y], x);
            pos_take(pos, o);
            pos_put(pos, pawn, (Cell)c);
            if (!ok)
                continue;
            TbPos P = *q;
            P.side = x;
            P.s[i] = (uint8_t)G->pstate_of[x][o][limp[k]];
            int stab = tb_canon(L, &P);
            uint64_t pidx = tb_index(L, &P);
            if (stab && pidx != UINT64_MAX)
                fn(g, x, pidx, stab, ctx);
        }
    }
}

/* ---- the retrograde levels ---- */

static void pred_win(Gen *g, int side, uint64_t idx, int stab, void *ctx)
{
    (void)stab, (void)ctx;
    uint16_t *val = &g->val[side][idx];
    uint16_t old = __atomic_load_n(val, __ATOMIC_RELAXED);
    int n = g->level;
    for (;;) {
        bool open = old == V_UNKNOWN || (old != V_INVALID && (old & 0x8000) && (old & 0x3FFF) > n);
        if (!open)
            return;
        if (__atomic_compare_exchange_n(val, &old, WIN(n), false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
            bump_max(g, n);
            atomic_fetch_add(&g->found, 1);
            return;
        }
    }
}

static void pred_count(Gen *g, int side, uint64_t idx, int stab, void *ctx)
{
    (void)ctx;
    uint16_t *cnt = &g->cnt[side][idx];
    if (__atomic_load_n(cnt, __ATOMIC_RELAXED) & NOLOSS)
        return;
    uint16_t left = __atomic_sub_fetch(cnt, (uint16_t)stab, __ATOMIC_RELAXED);
    if (left == 0) {
        int d = g->aux[side][idx] > g->level ? g->aux[side][idx] : g->level;
        __atomic_store_n(&g->val[side][idx], LOSS(d), __ATOMIC_RELAXED);
        bump_max(g, d);
        atomic_fetch_add(&g->found, 1);
    } else if (left & NOLOSS) {
        fprintf(stderr, "\ntablebase: %s: move counter underflow (side %d, entry %llu)\n", g->L->name, side,
                (unsigned long long)idx);
        atomic_store(&g->failed, 1);
    }
}

static void level_entry(Gen *g, int side, uint64_t idx, Position *pos, void *ctx)
{
    (void)ctx;
    uint16_t v = g->val[side][idx];
    int d = g->level - 1;
    if (v == TENT(d) && d > 0) {
        g->val[side][idx] = v = WIN(d);
    } else if (v != WIN(d) && v != LOSS(d)) {
        return;
    }
    TbPos p;
    tb_entry_position(g->L, side, idx, &p, pos);
    predecessors(g, &p, pos, g->pass == PASS_DTM, IS_LOSS(v) ? pred_win : pred_count, NULL);
}

void retro_solve(Gen *g)
{
    const char *name = g->pass == PASS_DTM ? "dtm init" : "dtz init";
    par_for(g, name, init_entry, NULL);
    char phase[64];
    for (g->level = 1; g->level <= atomic_load(&g->maxdist) + 1 && !atomic_load(&g->failed); g->level++) {
        if (g->level > MAX_DIST) {
            fprintf(stderr, "\ntablebase: %s: distances beyond %d plies\n", g->L->name, MAX_DIST);
            atomic_store(&g->failed, 1);
            break;
        }
        snprintf(phase, sizeof phase, "%s ply %d", g->pass == PASS_DTM ? "dtm" : "dtz", g->level);
        g->scan = SCAN_LEVEL;
        par_for(g, phase, level_entry, NULL);
        g->scan = SCAN_ALL;
    }
}

/* ---- dead positions ---- */

/* A draw is live if a move leads to a decided position, to a live draw of a smaller table,
 * or (later, by the closure) to a live draw of this table. */
static void alive_init(Gen *g, int side, uint64_t idx, Position *pos, void *ctx)
{
    (void)ctx;
    uint16_t f = g->fdtm[side][idx];
    if (f == V_INVALID || IS_DEC(f)) {
        g->alive[side][idx] = 2;
        return;
    }
    g->alive[side][idx] = 0;
    TbPos p;
    load_entry(g, side, idx, &p, pos);
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    for (int i = 0; i < n; i++) {
        bool exit = pos_is_capture(pos, moves[i]) || MOVE_PIECE(moves[i]) != 0;
        Undo u;
        pos_make(pos, moves[i], &u);
        int cv = lookup(g, pos);
        pos_unmake(pos, moves[i], &u);
        if (cv >= 0 || (exit && cv == TBV_DRAW)) {
            g->alive[side][idx] = 1;
            return;
        }
    }
}

static void pred_alive(Gen *g, int side, uint64_t idx, int stab, void *ctx)
{
    (void)stab, (void)ctx;
    uint8_t zero = 0;
    if (__atomic_compare_exchange_n(&g->alive[side][idx], &zero, 1, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        atomic_fetch_add(&g->found, 1);
}

static void alive_entry(Gen *g, int side, uint64_t idx, Position *pos, void *ctx)
{
    (void)ctx;
    if (__atomic_load_n(&g->alive[side][idx], __ATOMIC_RELAXED) != 1)
        return;
    g->alive[side][idx] = 2;
    atomic_fetch_add(&g->found, 1);
    TbPos p;
    tb_entry_position(g->L, side, idx, &p, pos);
    predecessors(g, &p, pos, true, pred_alive, NULL);
}

void retro_find_dead(Gen *g)
{
    par_for(g, "dead init", alive_init, NULL);
    for (int round = 1;; round++) {
        atomic_store(&g->found, 0);
        char phase[64];
        snprintf(phase, sizeof phase, "dead round %d", round);
        g->scan = SCAN_ALIVE;
        par_for(g, phase, alive_entry, NULL);
        g->scan = SCAN_ALL;
        if (!atomic_load(&g->found))
            break;
    }
    for (int s = 0; s < 2; s++)
        for (uint64_t i = 0; i < g->n; i++)
            if (g->fdtm[s][i] == V_UNKNOWN && g->alive[s][i] == 0)
                g->fdtm[s][i] = V_DEADV;
}
