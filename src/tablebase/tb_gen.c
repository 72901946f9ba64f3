/*
 * The generator: retrograde analysis over the index of one table at a time, in dependency
 * order (a capture leads to a table with fewer men, a promotion to one with fewer pawns).
 *
 * Each table is built in three passes over both sides to move, every pass split between
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
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../cluster/farm.h"
#include "../cluster/ranks.h"
#include "tb_internal.h"
#include "../core/attack.h"

/* Working values. */
#define V_UNKNOWN 0
#define V_INVALID 0xFFFF
#define V_DEADV 0xFFFE
/* Decided: the distance + 1, with LOSSBIT for a loss of the side to move.  In the DTM pass
 * the parity of the distance says the same; DTZ distances have no such parity. */
#define LOSSBIT 0x4000
#define WIN(d) ((uint16_t)((d) + 1))
#define LOSS(d) ((uint16_t)(((d) + 1) | LOSSBIT))
#define TENT(e) ((uint16_t)(0x8000 | (e))) /* a win through an exit, pending until its level */
#define IS_DEC(v) ((v) != 0 && (v) < 0x8000)
#define IS_LOSS(v) (IS_DEC(v) && ((v)&LOSSBIT))
#define DIST(v) ((int)((v)&0x3FFF) - 1)
#define NOLOSS 0x8000
#define MAX_DIST 0x3FF0

enum { PASS_DTM, PASS_DTZ };
enum { SCAN_ALL, SCAN_LEVEL, SCAN_ALIVE };

typedef struct Sub {
    TbSig sig;
    const TbTable *t;
} Sub;

typedef struct Gen {
    const TbLayout *L;
    int threads;
    bool quiet;
    uint64_t n; /* entries per side */
    int pass;
    int scan; /* which entries par_for visits */
    uint16_t *val[2], *cnt[2], *aux[2];
    uint16_t *fdtm[2]; /* the DTM pass's result (V_INVALID, V_DEADV, 0 draw, WIN/LOSS) */
    uint8_t *alive[2];
    Sub subs[96];
    int nsubs;
    atomic_int maxdist;
    int level;
    atomic_int failed;
    /* parallel loops */
    pthread_t main_thread; /* the one that reports progress */
    atomic_ullong next_chunk;
    atomic_ullong done;
    uint64_t nchunks;
    void (*fn)(struct Gen *g, int side, uint64_t idx, Position *scratch, void *ctx);
    void *ctx;
    const char *phase;
    double t_start, t_print;
    atomic_ullong found; /* per-loop counter of changes */
} Gen;

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

static void retrograde(Gen *g)
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

static void find_dead(Gen *g)
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

/* ---- subtables ---- */

static void add_sub(Gen *g, TbSig s)
{
    if (!tb_sig_canonical(&s))
        s = tb_sig_flip(&s);
    if (tb_sig_equal(&s, &g->L->sig))
        return;
    for (int i = 0; i < g->nsubs; i++)
        if (tb_sig_equal(&g->subs[i].sig, &s))
            return;
    if (g->nsubs < 96) {
        g->subs[g->nsubs].sig = s;
        g->subs[g->nsubs].t = NULL;
        g->nsubs++;
    }
}

/* The signatures a move can lead to: one man captured, one pawn promoted, or both. */
static void list_children(const TbSig *sig, TbSig *out, int *n, int cap)
{
    *n = 0;
    for (int c = 0; c < 2; c++) {
        for (int k = 0; k < TB_NKINDS; k++) {
            if (!sig->n[c ^ 1][k])
                continue;
            TbSig s = *sig; /* side c captures a man of kind k */
            s.n[c ^ 1][k]--;
            if (*n < cap)
                out[(*n)++] = s;
            if (s.n[c][TBK_P])
                for (int pk = 0; pk < TBK_P; pk++) {
                    TbSig t = s;
                    t.n[c][TBK_P]--;
                    t.n[c][pk]++;
                    if (*n < cap)
                        out[(*n)++] = t;
                }
        }
        if (sig->n[c][TBK_P])
            for (int pk = 0; pk < TBK_P; pk++) {
                TbSig t = *sig;
                t.n[c][TBK_P]--;
                t.n[c][pk]++;
                if (*n < cap)
                    out[(*n)++] = t;
            }
    }
    for (int i = 0; i < *n; i++)
        if (!tb_sig_canonical(&out[i]))
            out[i] = tb_sig_flip(&out[i]);
}

/* ---- one table ---- */

static TbTable *build_table(const TbSig *sig, const TbGenOptions *o, double *seconds)
{
    double t0 = clock_seconds();
    TbLayout *L = malloc(sizeof *L);
    tb_layout_init(L, sig);
    Gen *g = calloc(1, sizeof *g);
    g->L = L;
    g->threads = o->threads < 1 ? 1 : o->threads;
    g->quiet = o->quiet;
    g->n = L->per_side;
    TbSig ch[128];
    int nch;
    list_children(sig, ch, &nch, 128);
    for (int i = 0; i < nch; i++)
        add_sub(g, ch[i]);
    for (int i = 0; i < g->nsubs; i++) {
        g->subs[i].t = tb_get_table(&g->subs[i].sig);
        if (!g->subs[i].t) {
            char name[32];
            tb_sig_name(&g->subs[i].sig, name);
            fprintf(stderr, "tablebase: %s needs %s: %s\n", L->name, name, tb_last_error());
            free(g);
            free(L);
            return NULL;
        }
    }
    bool oom = false;
    for (int s = 0; s < 2; s++) {
        g->val[s] = malloc(g->n * sizeof(uint16_t) + 1);
        g->cnt[s] = malloc(g->n * sizeof(uint16_t) + 1);
        g->aux[s] = malloc(g->n * sizeof(uint16_t) + 1);
        g->fdtm[s] = malloc(g->n * sizeof(uint16_t) + 1);
        oom |= !g->val[s] || !g->cnt[s] || !g->aux[s] || !g->fdtm[s];
    }
    TbTable *t = NULL;
    if (oom) {
        fprintf(stderr, "tablebase: %s: out of memory\n", L->name);
        goto done;
    }
    /* DTM */
    g->pass = PASS_DTM;
    atomic_store(&g->maxdist, 0);
    retrograde(g);
    if (atomic_load(&g->failed))
        goto done;
    for (int s = 0; s < 2; s++)
        for (uint64_t i = 0; i < g->n; i++) {
            uint16_t v = g->val[s][i];
            if ((v & 0x8000) && v != V_INVALID) {
                fprintf(stderr, "\ntablebase: %s: an exit win was never settled\n", L->name);
                atomic_store(&g->failed, 1);
                goto done;
            }
            g->fdtm[s][i] = v;
        }
    /* Dead draws (the move counters' memory is reused). */
    for (int s = 0; s < 2; s++)
        g->alive[s] = (uint8_t *)g->cnt[s];
    find_dead(g);
    if (atomic_load(&g->failed))
        goto done;
    /* DTZ */
    g->pass = PASS_DTZ;
    atomic_store(&g->maxdist, 0);
    retrograde(g);
    if (atomic_load(&g->failed))
        goto done;
    /* The table. */
    t = calloc(1, sizeof *t);
    t->L = *L;
    int max_dtm = 0, max_dtz = 0;
    for (int s = 0; s < 2; s++)
        for (uint64_t i = 0; i < g->n; i++) {
            uint16_t f = g->fdtm[s][i], z = g->val[s][i];
            bool fdec = IS_DEC(f), zdec = IS_DEC(z);
            if (fdec != zdec || (fdec && IS_LOSS(f) != IS_LOSS(z)) || (f == V_INVALID) != (z == V_INVALID) ||
                (fdec && (DIST(f) % 2 == 0) != IS_LOSS(f))) {
                TbPos p;
                Position pos;
                char fen[FEN_MAX] = "?";
                if (tb_unindex(L, i, &p)) {
                    p.side = s;
                    tb_to_position(L, &p, &pos);
                    pos_fen(&pos, fen, sizeof fen);
                }
                fprintf(stderr,
                        "\ntablebase: %s: the DTZ pass disagrees with the DTM pass (side %d, entry %llu, %s: "
                        "DTM code %u, DTZ code %u)\n",
                        L->name, s, (unsigned long long)i, fen, f, z);
                atomic_store(&g->failed, 1);
                free(t);
                t = NULL;
                goto done;
            }
            if (fdec) {
                if (DIST(f) > max_dtm)
                    max_dtm = DIST(f);
                if (DIST(z) > max_dtz)
                    max_dtz = DIST(z);
            }
        }
    t->max_dtm = max_dtm;
    t->max_dtz = max_dtz;
    t->wdtm = max_dtm + 1 <= 253 ? 1 : 2;
    t->wdtz = max_dtz <= 255 ? 1 : 2;
    t->payload_size = 2 * g->n * (uint64_t)(t->wdtm + t->wdtz);
    t->payload = malloc(t->payload_size ? t->payload_size : 1);
    {
        uint64_t n = g->n;
        uint8_t *dtm[2] = {t->payload, t->payload + n * (uint64_t)t->wdtm};
        uint8_t *dtz[2] = {t->payload + 2 * n * (uint64_t)t->wdtm, NULL};
        dtz[1] = dtz[0] + n * (uint64_t)t->wdtz;
        unsigned top = t->wdtm == 1 ? 255 : 65535;
        for (int s = 0; s < 2; s++) {
            t->dtm[s] = dtm[s];
            t->dtz[s] = dtz[s];
            for (uint64_t i = 0; i < n; i++) {
                uint16_t f = g->fdtm[s][i], z = g->val[s][i];
                unsigned e = f == V_INVALID ? top : f == V_DEADV ? top - 1 : IS_DEC(f) ? (unsigned)DIST(f) + 1 : 0;
                unsigned zz = IS_DEC(f) ? (unsigned)DIST(z) : 0;
                if (t->wdtm == 1) {
                    dtm[s][i] = (uint8_t)e;
                } else {
                    dtm[s][2 * i] = (uint8_t)e;
                    dtm[s][2 * i + 1] = (uint8_t)(e >> 8);
                }
                if (t->wdtz == 1) {
                    dtz[s][i] = (uint8_t)zz;
                } else {
                    dtz[s][2 * i] = (uint8_t)zz;
                    dtz[s][2 * i + 1] = (uint8_t)(zz >> 8);
                }
            }
        }
    }
done:
    for (int s = 0; s < 2; s++) {
        free(g->val[s]);
        free(g->cnt[s]);
        free(g->aux[s]);
        free(g->fdtm[s]);
    }
    free(g);
    free(L);
    *seconds = clock_seconds() - t0;
    return t;
}

/* ---- the driver ---- */

static int sig_order(const TbSig *a, const TbSig *list, int n)
{
    for (int i = 0; i < n; i++)
        if (tb_sig_equal(a, &list[i]))
            return i;
    return -1;
}

/* The signatures `only` needs, itself last, in generation order. */
static int closure(const TbSig *only, TbSig *out, int cap)
{
    TbSig all[4096];
    int nall = tb_sig_list(tb_sig_men(only), all, 4096);
    bool need[4096] = {false};
    int at = sig_order(only, all, nall);
    if (at < 0)
        return 0;
    need[at] = true;
    for (int i = nall - 1; i >= 0; i--) {
        if (!need[i])
            continue;
        TbSig ch[128];
        int nch;
        list_children(&all[i], ch, &nch, 128);
        for (int k = 0; k < nch; k++) {
            int j = sig_order(&ch[k], all, nall);
            if (j >= 0)
                need[j] = true;
        }
    }
    int n = 0;
    for (int i = 0; i < nall; i++)
        if (need[i] && n < cap)
            out[n++] = all[i];
    return n;
}

typedef struct {
    const TbSig *list;
    int from, n;
} KeepCtx;

/* Is a table still needed: one of the signatures still to build, or a child of one? */
static bool still_needed(const TbSig *sig, void *arg)
{
    const KeepCtx *k = arg;
    for (int j = k->from; j < k->n; j++) {
        if (tb_sig_equal(sig, &k->list[j]))
            return true;
        TbSig ch[128];
        int nch;
        list_children(&k->list[j], ch, &nch, 128);
        for (int c = 0; c < nch; c++)
            if (tb_sig_equal(sig, &ch[c]))
                return true;
    }
    return false;
}

/* ---- the tables on the ranks (cluster/farm.h): a table is a task ---- */

typedef struct {
    const TbGenOptions *o;
    TbGenOptions build;  /* o, with the progress lines off when several ranks would mix them */
    TbSig list[4096];    /* generation order: every table after the tables it converts into */
    int n;
    int ranks;
    /* rank 0 */
    char state[4096];    /* per table: TABLE_WAITING, TABLE_GIVEN, TABLE_DONE */
    int status;          /* the exit status: the first failure's */
    int built;
    uint64_t total_bytes, total_entries;
} GenRun;

enum { TABLE_WAITING, TABLE_GIVEN, TABLE_DONE };

/* What a rank says of one table. */
typedef struct {
    int status; /* 0, or the exit status of a failure (said on the rank's stderr) */
    bool built; /* false: its file was there and was kept */
    uint64_t bytes, entries;
    char line[300]; /* for the output ("" when quiet) */
} TableResult;

/* Rank 0: may table i be built: is every table it converts into that is in the list done? */
static bool table_ready(const GenRun *run, int i)
{
    TbSig ch[128];
    int nch;
    list_children(&run->list[i], ch, &nch, 128);
    for (int k = 0; k < nch; k++) {
        int j = sig_order(&ch[k], run->list, run->n);
        if (j >= 0 && run->state[j] != TABLE_DONE)
            return false;
    }
    return true;
}

/* Rank 0: the first table of the list, not given yet, that may be built. */
static int pick_table(void *ctx, int rank)
{
    (void)rank;
    GenRun *run = ctx;
    bool waiting = false;
    for (int i = 0; i < run->n; i++) {
        if (run->state[i] != TABLE_WAITING)
            continue;
        if (table_ready(run, i)) {
            run->state[i] = TABLE_GIVEN;
            return i;
        }
        waiting = true;
    }
    return waiting ? FARM_WAIT : FARM_NONE;
}

/* Builds table i and writes its file, unless a good file is there (the table named by --only
 * is always built); r says how it went. */
static void make_table(GenRun *run, int i, TableResult *r)
{
    const TbGenOptions *o = run->o;
    char name[32], path[4200], err[512];
    memset(r, 0, sizeof *r);
    tb_sig_name(&run->list[i], name);
    tb_file_name(o->dir, &run->list[i], path, sizeof path);
    bool last = i == run->n - 1;
    if (!o->force && !(o->only && last)) {
        FILE *f = fopen(path, "rb");
        if (f) {
            fclose(f);
            if (tb_get_table(&run->list[i])) {
                if (!o->quiet)
                    snprintf(r->line, sizeof r->line, "%-10s present (%.250s)", name, path);
                return;
            }
        }
    }
    double secs;
    TbTable *t = build_table(&run->list[i], &run->build, &secs);
    if (!run->build.quiet)
        fprintf(stderr, "\r%*s\r", 78, "");
    if (!t) {
        fprintf(stderr, "starfish: building %s failed\n", name);
        r->status = 1;
        return;
    }
    if (!tb_write_table(path, t, err, sizeof err)) {
        fprintf(stderr, "starfish: %s\n", err);
        tb_table_free(t);
        free(t);
        r->status = 1;
        return;
    }
    r->built = true;
    r->bytes = t->payload_size + 96;
    r->entries = 2 * t->L.per_side;
    if (!o->quiet) {
        int n = snprintf(r->line, sizeof r->line,
                         "%-10s %11llu entries  max DTM %3d  max DTZ %3d  %8.2f s  %6.2f M entries/s  %9llu bytes  "
                         "peak %ld MB",
                         name, (unsigned long long)r->entries, t->max_dtm, t->max_dtz, secs,
                         secs > 0 ? (double)r->entries / secs / 1e6 : 0.0, (unsigned long long)r->bytes,
                         tb_peak_rss_kb() / 1024);
        if (run->ranks > 1 && n > 0 && (size_t)n < sizeof r->line)
            snprintf(r->line + n, sizeof r->line - (size_t)n, "  rank %d", ranks_rank());
    }
    tb_registry_add(t);
    KeepCtx keep = {run->list, i + 1, run->n};
    tb_registry_evict(still_needed, &keep);
}

/* A rank's one worker: tables until none is left (each table has threads of its own). */
static void make_tables(Farm *f, int worker, void *ctx)
{
    int i;
    while (farm_next(f, worker, &i)) {
        TableResult r;
        make_table(ctx, i, &r);
        farm_done(f, i, &r, sizeof r);
    }
}

/* Rank 0: a table done by some rank; a failure stops the generation. */
static void take_table(Farm *f, void *ctx, int rank, int i, const void *data, size_t len)
{
    (void)rank;
    GenRun *run = ctx;
    TableResult r;
    if (len != sizeof r)
        return;
    memcpy(&r, data, sizeof r);
    run->state[i] = TABLE_DONE;
    if (r.line[0]) {
        printf("%s\n", r.line);
        fflush(stdout);
    }
    run->built += r.built;
    run->total_bytes += r.bytes;
    run->total_entries += r.entries;
    if (r.status && !run->status) {
        run->status = r.status;
        farm_stop(f);
    }
}

int tb_generate(const TbGenOptions *o)
{
    static GenRun run;
    memset(&run, 0, sizeof run);
    run.o = o;
    run.build = *o;
    run.ranks = ranks_size();
    run.build.quiet = o->quiet || run.ranks > 1;
    TbSig *list = run.list;
    int n;
    if (o->only) {
        TbSig s;
        if (!tb_sig_parse(o->only, &s)) {
            fprintf(stderr, "starfish: bad signature '%s' (e.g. KQvKR)\n", o->only);
            return 2;
        }
        if (!tb_sig_canonical(&s))
            s = tb_sig_flip(&s);
        n = closure(&s, list, 4096);
    } else {
        n = tb_sig_list(o->max_men, list, 4096);
    }
    run.n = n;
    mkdir(o->dir, 0777);
    tb_set_dir(o->dir);
    double t0 = clock_seconds();
    FarmPlan plan = {.workers = 1, .work = make_tables, .pick = pick_table, .result = take_table, .ctx = &run};
    if (!farm_run(&plan)) {
        fprintf(stderr, "starfish: cannot start a thread\n");
        return 1;
    }
    if (!o->quiet && ranks_rank() == 0 && !run.status)
        printf("built %d table%s (%llu entries, %.1f MB) in %.2f s; peak memory %.1f MB\n", run.built,
               run.built == 1 ? "" : "s", (unsigned long long)run.total_entries, (double)run.total_bytes / 1e6,
               clock_seconds() - t0, (double)tb_peak_rss_kb() / 1024.0);
    return run.status;
}
