#include "search.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/movegen.h"
#include "../util/clock.h"
#include "../util/rng.h"
#include "eval.h"
#include "see.h"
#include "timeman.h"

#define MAX_HISTORY_KEYS 8192

/* Pruning margins, centipawns. */
#define QS_DELTA_MARGIN 200
/* Quiet check evasions quiescence tries once an escape is known. */
#define QS_QUIET_EVASIONS 2
/* Where capture chains run long (VariantDef.long_capture_chains), quiescence stops after
 * QS_MAX_DEPTH plies, and out of check, after its first QS_FULL_PLIES plies, searches
 * QS_CAPTURES captures, then only recaptures and promotions. */
#define QS_MAX_DEPTH 8
#define QS_FULL_PLIES 2
#define QS_CAPTURES 2
#define RFP_MAX_DEPTH 5
#define RFP_MARGIN 100 /* per ply of depth */
#define FUTILITY_MAX_DEPTH 2
#define FUTILITY_MARGIN 100 /* plus this per ply of depth */
#define LMP_MAX_DEPTH 3
#define HISTORY_PRUNE_MAX_DEPTH 6
#define HISTORY_PRUNE_UNIT 2048
/* A capture that loses more than SEE_PRUNE_MARGIN per ply of depth in its exchange is not
 * searched within SEE_PRUNE_MAX_DEPTH plies of the leaves. */
#define SEE_PRUNE_MAX_DEPTH 5
#define SEE_PRUNE_MARGIN 100
/* Null move: the reply is searched NMP_BASE + depth / NMP_DEPTH_DIVISOR plies shallower, and a
 * ply more per NMP_EVAL_UNIT the static evaluation stands above beta (at most NMP_EVAL_MAX). */
#define NMP_BASE 3
#define NMP_DEPTH_DIVISOR 6
#define NMP_EVAL_UNIT 200
#define NMP_EVAL_MAX 3
/* Late-move reductions: LMR_BASE + log(depth) log(move number) / LMR_DIVISOR plies, one less
 * in the principal variation, in or into check, and for killers and counter moves, and one
 * less (more) per LMR_HISTORY_UNIT of good (bad) history (the move's own plus its two
 * continuation entries). */
#define LMR_BASE 0.75
#define LMR_DIVISOR 2.25
#define LMR_HISTORY_UNIT 16384
#define ASPIRATION_DELTA 25
/* History scores stay within +-HISTORY_MAX; one cutoff moves them by at most the bonus cap. */
#define HISTORY_MAX 16384
#define HISTORY_BONUS_MAX 1200
/* The continuation history's keys: a (side, piece type, cell) triple each. */
#define FOLLOWUP_KEYS_MAX (2 * MAX_TYPES * MAX_CELLS)
/* A mate in p plies ends a search under a clock only once an iteration this many plies
 * deeper than p has run: any shorter mate would have been found by then, reductions of late
 * moves included (a mate found at a shallow depth, through extensions, proves nothing about
 * shorter ones). */
#define MATE_PROOF_MARGIN 2
/* How often (in nodes, a power of two) a thread looks at the clock and the stop flags: often,
 * since a Megastar node can take microseconds. */
#define CHECK_EVERY 32
/* The main thread names each root move it starts once the search has run this long. */
#define CURRMOVE_AFTER 1.0

/* What every thread of one search shares. */
typedef struct Shared {
    Engine *engine;
    const EvalTables *eval;
    SearchLimits limits;
    const SearchObserver *observer;
    double start;  /* seconds */
    TimePlan time; /* from the start */
    int max_depth;
    int nthreads;
    atomic_bool abort; /* the main thread has finished: helpers stop */
} Shared;

/* One search thread. */
typedef struct Worker {
    int id; /* 0: the main thread */
    Shared *shared;
    pthread_t thread;
    Position pos;
    /* Keys of the game's earlier positions, then of the search path; keys[nkeys-1] is now. */
    uint64_t keys[MAX_HISTORY_KEYS + MAX_PLY + 2];
    int nkeys;
    atomic_uint_fast64_t nodes, tbhits; /* written by this thread, read by the main thread */
    int seldepth;
    bool stopped;
    /* The root: MultiPV searches line k with the moves of lines 0..k-1 excluded. */
    Move excluded[MAX_MULTIPV];
    int nexcluded;
    int completed_depth;
    SearchInfo info; /* the last completed iteration's lines */
    RootTrend trend; /* how settled the root is (the main thread's time) */
    Move killers[MAX_PLY + 1][2];
    /* The move made at each ply of the path and the piece code it moved (for counter moves). */
    Move path_move[MAX_PLY + 1];
    uint8_t path_piece[MAX_PLY + 1];
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    /* Kept from search to search, cleared by engine_new_game: how often each quiet move (by
     * side, from, to) cut off, and the quiet move that last refuted each move (by the piece
     * it moved and its target). */
    int history[2][MAX_CELLS][MAX_CELLS];
    Move counter[MAX_CODES][MAX_CELLS];
    /* Continuation history, kept like the history: how a quiet move fared after the move one
     * and two plies before it, a square table over this variant's (piece code, target) pairs
     * (see followup_key), made for `followup_variant` when a search starts; NULL if memory ran
     * out, then the search goes without it.  followup_at[ply]: the key of the move made at ply,
     * or -1 (a null move, or a move whose piece did not survive it).  The table is zero but
     * for the rows marked in followup_written; its memory, followup_capacity entries, is kept
     * when the variant changes and the new table fits in it. */
    int16_t *followup;
    size_t followup_capacity;
    int followup_keys;
    int followup_base[MAX_CODES]; /* a piece code's first key (its key on cell 0), or -1 */
    const Variant *followup_variant;
    uint64_t followup_written[(FOLLOWUP_KEYS_MAX + 63) / 64];
    int followup_at[MAX_PLY + 1];
} Worker;

static void init_lmr(void);

/* Forgets the continuation history by zeroing the rows searches wrote to: a search of a few
 * thousand nodes writes a few dozen of the table's rows (768 in chess, 3640 in Megastar), and
 * zeroing all of it (1.2 MB in chess, 26 MB in Megastar) cost more than such a search. */
static void clear_followups(Worker *w)
{
    size_t row = (size_t)w->followup_keys * sizeof *w->followup;
    for (int i = 0; i < (FOLLOWUP_KEYS_MAX + 63) / 64; i++)
        for (uint64_t bits = w->followup_written[i]; bits; bits &= bits - 1)
            memset(w->followup + (size_t)(i * 64 + __builtin_ctzll(bits)) * (size_t)w->followup_keys, 0, row);
    memset(w->followup_written, 0, sizeof w->followup_written);
}

static void worker_free(Worker *w)
{
    if (w)
        free(w->followup);
    free(w);
}

/* ---- The engine --------------------------------------------------------------------------- */

bool engine_init(Engine *e, size_t hash_mb)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, init_lmr);
    memset(e, 0, sizeof *e);
    e->skill = 20;
    e->multipv = 1;
    e->seed = rng_fresh_seed();
    atomic_init(&e->stop, false);
    atomic_init(&e->pondering, false);
    return tt_resize(&e->tt, hash_mb) && engine_set_threads(e, 1);
}

bool engine_set_threads(Engine *e, int threads)
{
    if (threads < 1 || threads > MAX_THREADS)
        return false;
    Worker **workers = calloc((size_t)threads, sizeof *workers);
    if (!workers)
        return false;
    bool ok = true;
    for (int i = 0; i < threads; i++) {
        workers[i] = i < e->threads ? e->workers[i] : calloc(1, sizeof **workers);
        ok = ok && workers[i];
    }
    if (!ok) { /* give back the new ones (the array was zeroed, so free(NULL) is fine) */
        for (int i = e->threads; i < threads; i++)
            free(workers[i]);
        free(workers);
        return false;
    }
    for (int i = threads; i < e->threads; i++)
        worker_free(e->workers[i]);
    for (int i = 0; i < threads; i++)
        workers[i]->id = i;
    free(e->workers);
    e->workers = workers;
    e->threads = threads;
    return true;
}

void engine_free(Engine *e)
{
    for (int i = 0; i < e->threads; i++)
        worker_free(e->workers[i]);
    free(e->workers);
    tt_free(&e->tt);
}

void engine_new_game(Engine *e)
{
    tt_clear(&e->tt);
    for (int i = 0; i < e->threads; i++) {
        memset(e->workers[i]->history, 0, sizeof e->workers[i]->history);
        memset(e->workers[i]->counter, 0, sizeof e->workers[i]->counter);
        clear_followups(e->workers[i]);
    }
}

void engine_ponderhit(Engine *e)
{
    atomic_store(&e->pondering, false);
}

int score_mate_moves(int score)
{
    if (score >= SCORE_MATE_BOUND)
        return (SCORE_MATE - score + 1) / 2;
    if (score <= -SCORE_MATE_BOUND)
        return -(SCORE_MATE + score) / 2;
    return 0;
}

/* ---- Small helpers ----------------------------------------------------------------------- */

/* The key the search uses: the position key plus any en-passant cell. */
static uint64_t search_key(const Position *pos)
{
    return pos->key ^ (pos->ep != NO_CELL ? zobrist_ep[pos->ep] : 0);
}

/* A finished game's score for the side to move, preferring quick wins and slow losses. */
static int result_score(GameResult r, int side, int ply)
{
    if (r.kind == RESULT_DRAW || r.kind == RESULT_NONE)
        return 0;
    bool win = (r.kind == RESULT_WHITE_WINS) == (side == WHITE);
    return win ? SCORE_MATE - ply : -(SCORE_MATE - ply);
}

static int drawn_score(const Position *pos, const char *reason, int ply)
{
    const VariantDef *d = pos->v->def;
    if (!d->decide_draw)
        return 0;
    return result_score(d->decide_draw(pos, reason), pos->side, ply);
}

static uint64_t counter_read(atomic_uint_fast64_t *c)
{
    return atomic_load_explicit(c, memory_order_relaxed);
}

/* Only the owning thread writes a counter, so a relaxed load and store suffice. */
static void counter_add(atomic_uint_fast64_t *c, uint64_t n)
{
    atomic_store_explicit(c, counter_read(c) + n, memory_order_relaxed);
}

static uint64_t total_nodes(const Shared *sh)
{
    uint64_t sum = 0;
    for (int i = 0; i < sh->nthreads; i++)
        sum += counter_read(&sh->engine->workers[i]->nodes);
    return sum;
}

static uint64_t total_tbhits(const Shared *sh)
{
    uint64_t sum = 0;
    for (int i = 0; i < sh->nthreads; i++)
        sum += counter_read(&sh->engine->workers[i]->tbhits);
    return sum;
}

/* Should this thread stop?  Every thread obeys `stop` and the main thread's end; the main
 * thread also keeps the node limit and the clock (not while pondering). */
static bool out_of_time(Worker *w)
{
    if (w->stopped)
        return true;
    Shared *sh = w->shared;
    if ((counter_read(&w->nodes) & (CHECK_EVERY - 1)) != 0)
        return false;
    if (atomic_load(&sh->engine->stop) || atomic_load(&sh->abort))
        w->stopped = true;
    else if (w->id == 0 && sh->limits.nodes && total_nodes(sh) >= sh->limits.nodes)
        w->stopped = true;
    else if (w->id == 0 && sh->time.maximum > 0 && !atomic_load(&sh->engine->pondering) &&
             clock_seconds() - sh->start >= sh->time.maximum)
        w->stopped = true;
    return w->stopped;
}

/* Has the current position occurred before, since the last irreversible move? */
static bool repeated(const Worker *w)
{
    uint64_t now = w->keys[w->nkeys - 1];
    int reach = w->pos.halfmove < w->nkeys - 1 ? w->pos.halfmove : w->nkeys - 1;
    for (int i = 2; i <= reach; i += 2)
        if (w->keys[w->nkeys - 1 - i] == now)
            return true;
    return false;
}

static int piece_value(const Worker *w, uint8_t code)
{
    return code ? w->shared->eval->value[code] : 0;
}

/* Neither a capture nor a promotion (a placement from the hand counts as quiet). */
static bool is_quiet(const Position *pos, Move m)
{
    return !pos_is_capture(pos, m) && !(MOVE_PIECE(m) && MOVE_KIND(m) != MK_PLACE);
}

static int victim_value(const Worker *w, Move m)
{
    const Position *pos = &w->pos;
    return piece_value(w, MOVE_KIND(m) == MK_EP ? pos->board[pos->ep_victim] : pos->board[MOVE_TO(m)]);
}

/* Does the exchange a capture starts end below `threshold` (<= 0)?  A capture by a piece
 * worth no more than its victim cannot, so its exchange is not worked out. */
static bool exchange_below(const Worker *w, Move m, int threshold)
{
    const Position *pos = &w->pos;
    return piece_value(w, pos->board[MOVE_FROM(m)]) > victim_value(w, m) &&
           see(pos, m, w->shared->eval->value) < threshold;
}

/* Does a capture lose material in the exchange it starts? */
static bool capture_loses(const Worker *w, Move m)
{
    return exchange_below(w, m, 0);
}

/* Quiescence skips a capture that cannot lift the score near alpha even if the victim is won
 * for free (delta pruning), and one that loses material in the exchange it starts.  Promotions
 * are always searched. */
static bool qsearch_skips(const Worker *w, Move m, int stand_pat, int alpha)
{
    if (MOVE_PIECE(m) && MOVE_KIND(m) != MK_PLACE)
        return false;
    if (stand_pat + victim_value(w, m) + QS_DELTA_MARGIN <= alpha)
        return true;
    return capture_loses(w, m);
}

/* The quiet move that last refuted the move that led here, or MOVE_NONE. */
static Move counter_move(const Worker *w, int ply)
{
    Move prev = ply > 0 ? w->path_move[ply - 1] : MOVE_NONE;
    return prev ? w->counter[w->path_piece[ply - 1]][MOVE_TO(prev)] : MOVE_NONE;
}

/* The index of a (piece code, cell) pair in the continuation-history table, or -1 without a
 * table or a piece. */
static int followup_key(const Worker *w, uint8_t code, Cell cell)
{
    int base = w->followup_base[code];
    return base < 0 ? -1 : base + cell;
}

/* The continuation-history rows of the moves one and two plies before `ply` (NULL: none). */
typedef struct Followups {
    int16_t *row[2];
} Followups;

static Followups followups_at(const Worker *w, int ply)
{
    Followups f = {{NULL, NULL}};
    for (int back = 1; back <= 2; back++)
        if (ply >= back && w->followup_at[ply - back] >= 0)
            f.row[back - 1] = w->followup + (size_t)w->followup_at[ply - back] * (size_t)w->followup_keys;
    return f;
}

/* A quiet board move's history: its own, plus how it fared after the two moves before it. */
static int quiet_history(const Worker *w, const Followups *f, Move m)
{
    const Position *pos = &w->pos;
    int h = w->history[pos->side][MOVE_FROM(m)][MOVE_TO(m)];
    int key = followup_key(w, pos->board[MOVE_FROM(m)], MOVE_TO(m));
    for (int i = 0; i < 2 && key >= 0; i++)
        if (f->row[i])
            h += f->row[i][key];
    return h;
}

/* Late-move reductions by depth and move number: log(depth) * log(moves), as Ethereal's. */
static int lmr_table[64][64];

static void init_lmr(void)
{
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++)
            lmr_table[d][m] = (int)(LMR_BASE + log(d) * log(m) / LMR_DIVISOR);
}

/* How much shallower a late quiet move is searched first. */
static int reduction(const Worker *w, Move m, int depth, int legal, int ply, bool pv_node, bool check, bool gives_check,
                     Move counter, int history)
{
    int r = lmr_table[depth < 63 ? depth : 63][legal < 63 ? legal : 63];
    r -= pv_node + (check || gives_check);
    r -= m == w->killers[ply][0] || m == w->killers[ply][1] || m == counter;
    r -= history / LMR_HISTORY_UNIT;
    return r < 0 ? 0 : r > depth - 2 ? depth - 2 : r;
}

/* A move list in the order the search tries it.  order_moves scores every move once; a move
 * is put in its place only when the search reaches it, because most nodes end after their first
 * move or two: the first ORDER_PICKS places by picking the best left, the rest by one sort.
 * Both keep moves of equal score in generation order, so the order is that of a stable sort. */
#define ORDER_PICKS 3

typedef struct MoveOrder {
    Move *moves;
    int score[MAX_MOVES];
    int n, placed;
} MoveOrder;

/* The score of a move for ordering: table move, captures that do not lose material (most
 * valuable victim, least valuable attacker), promotions, killers, the counter move, history,
 * then the captures that lose material. */
static int order_score(Worker *w, Move m, Move tt_move, int ply, Move counter, const Followups *f)
{
    const Position *pos = &w->pos;
    if (m == tt_move)
        return 1 << 30;
    if (pos_is_capture(pos, m)) {
        int sc = victim_value(w, m) * 16 - piece_value(w, pos->board[MOVE_FROM(m)]) / 16;
        return sc + (capture_loses(w, m) ? -(1 << 24) : 1 << 24);
    }
    if (MOVE_PIECE(m) && MOVE_KIND(m) != MK_PLACE)
        return (1 << 23) + MOVE_PIECE(m);
    if (m == w->killers[ply][0])
        return 1 << 22;
    if (m == w->killers[ply][1])
        return (1 << 22) - 1;
    if (m == counter)
        return (1 << 22) - 2;
    if (MOVE_KIND(m) == MK_PLACE)
        return w->shared->eval->mg[MAKE_PIECE(pos->side, MOVE_PIECE(m))][MOVE_TO(m)];
    return quiet_history(w, f, m);
}

static void order_moves(Worker *w, MoveOrder *o, Move *moves, int n, Move tt_move, int ply, const Followups *f)
{
    Move counter = counter_move(w, ply);
    o->moves = moves;
    o->n = n;
    o->placed = 0;
    for (int i = 0; i < n; i++)
        o->score[i] = order_score(w, moves[i], tt_move, ply, counter, f);
}

/* Puts the entry at `from` in place `to` (to <= from), the ones between one place later. */
static void order_place(MoveOrder *o, int to, int from)
{
    Move m = o->moves[from];
    int sc = o->score[from];
    for (int k = from; k > to; k--) {
        o->moves[k] = o->moves[k - 1];
        o->score[k] = o->score[k - 1];
    }
    o->moves[to] = m;
    o->score[to] = sc;
}

/* The i-th move to try (i counts up from 0, one by one). */
static Move order_next(MoveOrder *o, int i)
{
    if (i < o->placed)
        return o->moves[i];
    if (i < ORDER_PICKS) {
        int best = i;
        for (int j = i + 1; j < o->n; j++)
            if (o->score[j] > o->score[best])
                best = j;
        order_place(o, i, best);
        o->placed = i + 1;
    } else {
        for (int j = i + 1; j < o->n; j++) { /* insertion sort of the rest: lists are short */
            int k = j;
            while (k > i && o->score[k - 1] < o->score[j])
                k--;
            order_place(o, k, j);
        }
        o->placed = o->n;
    }
    return o->moves[i];
}

/* After a move: the new position's key goes on the path (for repetitions), and its table
 * bucket is fetched ahead of the probe. */
static void push_key(Worker *w)
{
    uint64_t key = search_key(&w->pos);
    w->keys[w->nkeys++] = key;
    tt_prefetch(&w->shared->engine->tt, key);
}

/* The key of the position after a move, as far as the move alone tells it (not castling
 * rights, en passant, promotion, limping pawns or the variants' events): good enough to fetch
 * the child's table bucket before the move is made and tested (push_key fetches the exact
 * one after). */
static uint64_t key_after(const Position *pos, Move m)
{
    Cell from = MOVE_FROM(m), to = MOVE_TO(m);
    if (MOVE_KIND(m) == MK_PLACE)
        return pos->key ^ zobrist_side;
    uint8_t code = pos->board[from], victim = pos->board[to];
    uint64_t k = pos->key ^ zobrist_side ^ zobrist_piece[code][from] ^ zobrist_piece[code][to];
    return victim ? k ^ zobrist_piece[victim][to] : k;
}

static void make(Worker *w, Move m, Undo *u)
{
    pos_make(&w->pos, m, u);
    push_key(w);
    counter_add(&w->nodes, 1);
}

/* Makes a pseudo-legal move if it is legal: the search tests legality only for the moves it
 * actually reaches (`check`: the side to move is in check, which lets masks decide most). */
static bool make_if_legal(Worker *w, Move m, Undo *u, bool check)
{
    tt_prefetch(&w->shared->engine->tt, key_after(&w->pos, m));
    if (!pos_make_if_legal(&w->pos, m, u, check))
        return false;
    push_key(w);
    counter_add(&w->nodes, 1);
    return true;
}

static void unmake(Worker *w, Move m, const Undo *u)
{
    w->nkeys--;
    pos_unmake(&w->pos, m, u);
}

/* The score when the side to move has no legal move. */
static int no_moves_score(const Position *pos, bool check, int ply)
{
    if (check)
        return -(SCORE_MATE - ply);
    return pos->v->def->stalemate ? result_score(pos->v->def->stalemate(pos), pos->side, ply) : 0;
}

/* Scores stored in the table are relative to the node, not the root. */
static int score_to_tt(int score, int ply)
{
    return score >= SCORE_MATE_BOUND ? score + ply : score <= -SCORE_MATE_BOUND ? score - ply : score;
}

static int score_from_tt(int score, int ply)
{
    return score >= SCORE_MATE_BOUND ? score - ply : score <= -SCORE_MATE_BOUND ? score + ply : score;
}

static int endgame_score(const EndgameVerdict *tb, int ply)
{
    return tb->wdl == 0 ? 0 : tb->wdl > 0 ? SCORE_MATE - (ply + tb->dtm) : -(SCORE_MATE - (ply + tb->dtm));
}

static bool excluded_at_root(const Worker *w, Move m)
{
    for (int i = 0; i < w->nexcluded; i++)
        if (w->excluded[i] == m)
            return true;
    return false;
}

/* Does a table entry this deep, with this bound, settle the node's score for the window? */
static bool tt_entry_decides(const TTEntry *e, int depth, int alpha, int beta, int ply)
{
    if (e->depth < depth)
        return false;
    int score = score_from_tt(e->score, ply);
    return e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && score >= beta) ||
           (e->bound == BOUND_UPPER && score <= alpha);
}

/* The static evaluation, refined by the table's score where its bound says the true score
 * lies beyond the evaluation (a search's result knows more than the evaluation). */
static int refined_eval(Worker *w, const TTEntry *e, int ply)
{
    int eval = evaluate(&w->pos, w->shared->eval);
    if (!e || e->bound == BOUND_NONE)
        return eval;
    int score = score_from_tt(e->score, ply);
    if (abs(score) >= SCORE_MATE_BOUND)
        return eval;
    bool beyond = e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER ? score > eval : score < eval);
    return beyond ? score : eval;
}

/* ---- Quiescence -------------------------------------------------------------------------- */

/*
 * Quiescence: captures and promotions until the position is quiet, standing pat on the static
 * evaluation.  In check every evasion counts, but once one has been found to escape, at most
 * QS_QUIET_EVASIONS quiet ones are tried.  Where capture chains run long, out of check and
 * below its first QS_FULL_PLIES plies, the QS_CAPTURES best captures are searched, then only
 * recaptures and promotions, and the whole of it stops after QS_MAX_DEPTH plies.  These bounds
 * keep the capture trees of crowded boards (Megastar's, where dozens of pieces stand en prise
 * to hopping Slings) from growing without end; elsewhere the captures that lose material,
 * which quiescence skips, bound the tree.
 *
 * `check_known`: whether the side to move is in check, or CHECK_UNKNOWN (the main search
 * knows it for the nodes it hands over; below, each node finds out itself once the table has
 * not settled it, which most captures' replies are spared).
 */
#define CHECK_UNKNOWN (-1)
/* Quiescence asks for the table buckets of its first QS_PREFETCHES captures' children as soon
 * as it has them, before ordering them: a probe's cache miss is a large part of what a node
 * costs, and by the time a capture is made its bucket has arrived.  (All of them: Megastar's
 * long capture lists then fetched more than the search used, and it slowed.) */
#define QS_PREFETCHES 4

static int quiescence(Worker *w, int alpha, int beta, int ply, int qdepth, int check_known)
{
    Position *pos = &w->pos;
    if (ply > w->seldepth)
        w->seldepth = ply;
    if (out_of_time(w))
        return 0;
    bool bounded = pos->v->def->long_capture_chains;
    if (ply >= MAX_PLY || (bounded && qdepth >= QS_MAX_DEPTH))
        return evaluate(pos, w->shared->eval);
    /* The table, outside the principal variation: an entry of this quiescence ply or a
     * shallower one (its search was wider) or of the main search settles the node. */
    TT *tt = &w->shared->engine->tt;
    uint64_t key = search_key(pos);
    TTEntry e;
    bool found = tt_probe(tt, key, &e);
    if (found && beta - alpha == 1 && tt_entry_decides(&e, -qdepth, alpha, beta, ply))
        return score_from_tt(e.score, ply);
    bool check = check_known == CHECK_UNKNOWN ? pos_in_check(pos) : check_known;
    Move moves[MAX_MOVES], best_move = MOVE_NONE;
    int n, legal = 0, quiet_evasions = 0, orig_alpha = alpha;
    int best = -SCORE_INF;
    if (check) {
        n = gen_pseudo(pos, moves);
    } else {
        best = refined_eval(w, found ? &e : NULL, ply);
        if (best >= beta) {
            tt_store(tt, key, MOVE_NONE, score_to_tt(best, ply), -qdepth, BOUND_LOWER);
            return best;
        }
        if (best > alpha)
            alpha = best;
        n = gen_captures(pos, moves);
        int k = 0;
        for (int i = 0; i < n; i++)
            if (!qsearch_skips(w, moves[i], best, alpha)) {
                if (k < QS_PREFETCHES)
                    tt_prefetch(tt, key_after(pos, moves[i]));
                moves[k++] = moves[i];
            }
        n = k;
    }
    Followups followups = followups_at(w, ply);
    MoveOrder order;
    order_moves(w, &order, moves, n, found ? e.move : MOVE_NONE, ply, &followups);
    Cell recapture = ply > 0 && w->path_move[ply - 1] ? MOVE_TO(w->path_move[ply - 1]) : NO_CELL;
    for (int i = 0; i < n; i++) {
        Move m = order_next(&order, i);
        bool quiet = is_quiet(pos, m);
        /* Quiet moves come last: enough of them once an escape is known. */
        if (quiet && best > -SCORE_MATE_BOUND && quiet_evasions >= QS_QUIET_EVASIONS)
            break;
        /* Where chains run long, deeper down, out of check: the best few captures, then only
         * recaptures and promotions. */
        if (bounded && !check && qdepth >= QS_FULL_PLIES && legal >= QS_CAPTURES && MOVE_TO(m) != recapture &&
            !MOVE_PIECE(m))
            continue;
        Undo u;
        if (!make_if_legal(w, m, &u, check))
            continue;
        legal++;
        quiet_evasions += quiet;
        w->path_move[ply] = m;
        w->followup_at[ply] = -1;
        int score = -quiescence(w, -beta, -alpha, ply + 1, qdepth + 1, CHECK_UNKNOWN);
        unmake(w, m, &u);
        if (w->stopped)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                best_move = m;
                if (score >= beta)
                    break;
            }
        }
    }
    if (check && legal == 0)
        best = no_moves_score(pos, true, ply);
    int bound = best >= beta ? BOUND_LOWER : best > orig_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(tt, key, best_move, score_to_tt(best, ply), -qdepth, bound);
    return best;
}

/* ---- The main search --------------------------------------------------------------------- */

static bool has_pieces(const Position *pos)
{
    int side = pos->side;
    return pos->pcount[side] > pos->count[MAKE_PIECE(side, pos->v->pawn_type)] + (pos->royal[side] != NO_CELL);
}

/* History scores move toward +-HISTORY_MAX by each update, more slowly the closer they are. */
static int history_moved(int h, int bonus)
{
    return h + bonus - h * abs(bonus) / HISTORY_MAX;
}

/* Moves a quiet board move's history, its own and its continuation entries, by the bonus. */
static void quiet_history_update(Worker *w, const Followups *f, Move m, int bonus)
{
    int *h = &w->history[w->pos.side][MOVE_FROM(m)][MOVE_TO(m)];
    *h = history_moved(*h, bonus);
    int key = followup_key(w, w->pos.board[MOVE_FROM(m)], MOVE_TO(m));
    for (int i = 0; i < 2 && key >= 0; i++)
        if (f->row[i])
            f->row[i][key] = (int16_t)history_moved(f->row[i][key], bonus);
}

/* Notes that a continuation-history row is about to be written (clear_followups zeroes it). */
static void mark_followup_written(Worker *w, int key)
{
    w->followup_written[key / 64] |= (uint64_t)1 << (key % 64);
}

/* A quiet move cut off: it becomes a killer and the counter move of the move before it, its
 * history rises, and the quiet moves tried before it fall. */
static void update_quiet_stats(Worker *w, const Followups *f, Move m, int depth, int ply, const Move *tried,
                               int ntried)
{
    if (w->killers[ply][0] != m) {
        w->killers[ply][1] = w->killers[ply][0];
        w->killers[ply][0] = m;
    }
    if (ply > 0 && w->path_move[ply - 1])
        w->counter[w->path_piece[ply - 1]][MOVE_TO(w->path_move[ply - 1])] = m;
    int bonus = 16 * depth * depth + 32 * depth + 16;
    if (bonus > HISTORY_BONUS_MAX)
        bonus = HISTORY_BONUS_MAX;
    for (int back = 1; back <= 2; back++)
        if (f->row[back - 1])
            mark_followup_written(w, w->followup_at[ply - back]);
    if (MOVE_KIND(m) != MK_PLACE)
        quiet_history_update(w, f, m, bonus);
    for (int i = 0; i < ntried; i++)
        if (tried[i] != m && MOVE_KIND(tried[i]) != MK_PLACE)
            quiet_history_update(w, f, tried[i], -bonus);
}

/* A late or hopeless quiet move at shallow depth is not searched: late move pruning skips
 * those after the first 3 + depth^2, history pruning those whose history is below
 * -HISTORY_PRUNE_UNIT per ply of depth, futility pruning those that would need a large swing
 * of the static evaluation to reach alpha. */
static bool prune_quiet(int static_eval, int alpha, int depth, int legal, int history)
{
    if (depth <= LMP_MAX_DEPTH && legal > 3 + depth * depth)
        return true;
    if (depth <= HISTORY_PRUNE_MAX_DEPTH && history < -HISTORY_PRUNE_UNIT * depth)
        return true;
    return depth <= FUTILITY_MAX_DEPTH && static_eval + FUTILITY_MARGIN * (depth + 1) <= alpha;
}

/* A new best move at `ply`: its line is the move followed by the child's line. */
static void update_pv(Worker *w, Move m, int ply)
{
    w->pv[ply][ply] = m;
    memcpy(&w->pv[ply][ply + 1], &w->pv[ply + 1][ply + 1], sizeof(Move) * (size_t)(w->pv_len[ply + 1] - ply - 1));
    w->pv_len[ply] = w->pv_len[ply + 1];
}

static int negamax(Worker *w, int alpha, int beta, int depth, int ply, bool check, bool allow_null);

/* The null move's search: the side to move passes, and the reply is searched NMP_BASE +
 * depth / NMP_DEPTH_DIVISOR plies shallower, more the further the evaluation stands above beta. */
static int null_move_search(Worker *w, int beta, int depth, int ply, int static_eval)
{
    Position *pos = &w->pos;
    Undo u;
    pos_make_null(pos, &u);
    w->path_move[ply] = MOVE_NONE;
    w->followup_at[ply] = -1;
    push_key(w);
    int margin = (static_eval - beta) / NMP_EVAL_UNIT;
    int r = NMP_BASE + depth / NMP_DEPTH_DIVISOR + (margin < NMP_EVAL_MAX ? margin : NMP_EVAL_MAX);
    int score = -negamax(w, -beta, -beta + 1, depth - r, ply + 1, false, false);
    w->nkeys--;
    pos_unmake_null(pos, &u);
    return score;
}

/* Tells the observer which root move the main thread searches, once a search runs long
 * enough for a GUI to show it (UCI `currmove`). */
static void report_current_move(Worker *w, Move m, int number, int depth)
{
    const Shared *sh = w->shared;
    if (w->id == 0 && sh->observer && sh->observer->current_move &&
        clock_seconds() - sh->start >= CURRMOVE_AFTER && move_is_legal(&w->pos, m))
        sh->observer->current_move(sh->observer->ctx, &w->pos, m, number, depth);
}

/* The main search of the node at `ply`; `check`: the side to move is in check (the caller
 * knows it already, from the move it made). */
static int negamax(Worker *w, int alpha, int beta, int depth, int ply, bool check, bool allow_null)
{
    Position *pos = &w->pos;
    const Shared *sh = w->shared;
    bool pv_node = beta - alpha > 1, root = ply == 0;
    w->pv_len[ply] = ply;
    if (ply > w->seldepth)
        w->seldepth = ply;

    /* Step 1. The game may be over: draws by rule, and mate distance pruning (no mate found
     * from here can be shorter than one already known). */
    if (!root) {
        if (out_of_time(w))
            return 0;
        if (repeated(w))
            return drawn_score(pos, "repetition", ply);
        if (pos->v->def->insufficient_material && pos->v->def->insufficient_material(pos))
            return drawn_score(pos, "insufficient-material", ply);
        int mating = SCORE_MATE - ply;
        if (mating < beta && (beta = mating) <= alpha)
            return alpha;
    }

    /* Step 2. Endgame tables give the exact result: a win's score counts the plies to mate. */
    EndgameVerdict tb;
    if (!root && pos->v->def->probe_endgame && pos->v->def->probe_endgame(pos, false, &tb)) {
        counter_add(&w->tbhits, 1);
        return endgame_score(&tb, ply);
    }
    if (check)
        depth++;
    if (depth <= 0 || ply >= MAX_PLY)
        return quiescence(w, alpha, beta, ply, 0, check);

    /* Step 3. The transposition table: a deep enough entry with a fitting bound ends the node
     * outside the principal variation. */
    uint64_t key = search_key(pos);
    TTEntry e;
    bool found = tt_probe(&sh->engine->tt, key, &e);
    Move tt_move = found ? e.move : MOVE_NONE;
    if (found && !pv_node && !root && tt_entry_decides(&e, depth, alpha, beta, ply))
        return score_from_tt(e.score, ply);

    /* Step 4. The 50-move rule ends the game unless the side to move is mated. */
    if (!root && fifty_move_rule_reached(pos))
        return check && count_legal_moves(pos) == 0 ? no_moves_score(pos, true, ply) : drawn_score(pos, "fifty-move", ply);

    /* Shallow pruning trusts the static evaluation: not in check, not at the root or in the
     * principal variation, not during a setup phase, not near mate scores. */
    bool prunable = !pv_node && !check && !root && !pos->hand_total[pos->side] && abs(alpha) < SCORE_MATE_BOUND &&
                    abs(beta) < SCORE_MATE_BOUND;
    int static_eval = prunable ? refined_eval(w, found ? &e : NULL, ply) : 0;
    bool zugzwang = pos->v->def->zugzwang_prone;

    /* Step 5. Reverse futility: far enough above beta that a move is assumed to keep it there
     * (like the null move, not where zugzwang is common). */
    if (prunable && !zugzwang && depth <= RFP_MAX_DEPTH && static_eval - RFP_MARGIN * depth >= beta)
        return static_eval;

    /* Step 6. Null move: if passing still beats beta, a real move will too (not where zugzwang
     * is common, not in check, not during a setup phase, not without pieces). */
    if (allow_null && prunable && depth >= 3 && !zugzwang && has_pieces(pos) && static_eval >= beta) {
        int score = null_move_search(w, beta, depth, ply, static_eval);
        if (w->stopped)
            return 0;
        if (score >= beta && score < SCORE_MATE_BOUND)
            return score;
    }

    /* Step 7. The moves, best first (generated only now: the steps above often end the node). */
    Move moves[MAX_MOVES];
    int n = gen_pseudo(pos, moves), legal = 0;
    Followups followups = followups_at(w, ply);
    MoveOrder order;
    order_moves(w, &order, moves, n, tt_move, ply, &followups);
    Move counter = counter_move(w, ply);
    int best = -SCORE_INF, orig_alpha = alpha, nquiets = 0;
    Move best_move = MOVE_NONE, quiets[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        Move m = order_next(&order, i);
        if (root && excluded_at_root(w, m))
            continue;
        bool quiet = is_quiet(pos, m);
        /* Read before the move is made, for late-move reductions and history pruning. */
        int history = quiet && MOVE_KIND(m) != MK_PLACE && (depth >= 3 || prunable) ? quiet_history(w, &followups, m) : 0;
        /* Step 8a. A capture near the leaves that loses too much in its exchange. */
        if (prunable && !quiet && legal && best > -SCORE_MATE_BOUND && depth <= SEE_PRUNE_MAX_DEPTH &&
            pos_is_capture(pos, m) && !MOVE_PIECE(m) && exchange_below(w, m, -SEE_PRUNE_MARGIN * depth))
            continue;
        Undo u;
        if (root)
            report_current_move(w, m, legal + 1, depth);
        if (!make_if_legal(w, m, &u, check))
            continue;
        legal++;
        bool gives_check = pos_in_check(pos);

        /* Step 8b. Futility, late-move and history pruning of quiet moves near the leaves. */
        if (prunable && quiet && !gives_check && legal > 1 && best > -SCORE_MATE_BOUND &&
            prune_quiet(static_eval, alpha, depth, legal, history)) {
            unmake(w, m, &u);
            continue;
        }

        /* Step 9. Principal-variation search: the first move with the full window, the rest
         * with a null window, late quiet moves shallower first (late-move reductions). */
        if (quiet)
            quiets[nquiets++] = m;
        w->path_move[ply] = m;
        w->path_piece[ply] = pos->board[MOVE_TO(m)];
        w->followup_at[ply] = followup_key(w, pos->board[MOVE_TO(m)], MOVE_TO(m));
        int score;
        if (legal == 1) {
            score = -negamax(w, -beta, -alpha, depth - 1, ply + 1, gives_check, true);
        } else {
            int r = depth >= 3 && legal > 1 + 2 * pv_node && quiet
                        ? reduction(w, m, depth, legal, ply, pv_node, check, gives_check, counter, history)
                        : 0;
            score = -negamax(w, -alpha - 1, -alpha, depth - 1 - r, ply + 1, gives_check, true);
            if (score > alpha && (r || pv_node))
                score = -negamax(w, -beta, -alpha, depth - 1, ply + 1, gives_check, true);
        }
        unmake(w, m, &u);
        if (w->stopped)
            return 0;
        if (score > best) {
            best = score;
            best_move = m;
            if (score > alpha) {
                alpha = score;
                update_pv(w, m, ply);
                if (score >= beta) {
                    if (quiet)
                        update_quiet_stats(w, &followups, m, depth, ply, quiets, nquiets);
                    break;
                }
            }
        }
    }

    /* Step 10. No legal move: mate or the variant's stalemate; else remember the result (at
     * the root only the first MultiPV line: the others left the best moves out). */
    if (legal == 0)
        return root && w->nexcluded ? -SCORE_INF : no_moves_score(pos, check, ply);
    int bound = best >= beta ? BOUND_LOWER : best > orig_alpha ? BOUND_EXACT : BOUND_UPPER;
    if (!(root && w->nexcluded))
        tt_store(&sh->engine->tt, key, best_move, score_to_tt(best, ply), depth, bound);
    return best;
}

/* ---- Time and the root ------------------------------------------------------------------- */

/* Weaker play: every root move scored at a shallow depth, then a noisy choice. */
static Move weakened_choice(Worker *w, Move *moves, int n, int depth)
{
    Engine *e = w->shared->engine;
    int spread = (20 - e->skill) * 25, best_noisy = -SCORE_INF * 2;
    Move choice = moves[0];
    for (int i = 0; i < n; i++) {
        Undo u;
        make(w, moves[i], &u);
        int score = -negamax(w, -SCORE_INF, SCORE_INF, depth - 1, 1, pos_in_check(&w->pos), true);
        unmake(w, moves[i], &u);
        if (w->stopped && i > 0)
            break;
        int noisy = score + (int)rng_below(&e->seed, (uint64_t)spread + 1);
        if (noisy > best_noisy) {
            best_noisy = noisy;
            choice = moves[i];
        }
    }
    return choice;
}

/* Material for the side to move (pieces in hand included), nothing else. */
static int material(const Position *pos, const EvalTables *t)
{
    int sum = 0;
    for (int side = 0; side < 2; side++) {
        int m = 0;
        for (int type = 1; type <= pos->v->ntypes; type++)
            m += (pos->count[MAKE_PIECE(side, type)] + pos->hand[side][type]) * t->value[MAKE_PIECE(side, type)];
        sum += side == pos->side ? m : -m;
    }
    return sum;
}

/* The greedy baseline: mate if it can, else the move leaving the most material, ties at
 * random. */
static Move greedy_choice(Engine *e, Position *pos, const Move *moves, int n)
{
    const EvalTables *t = eval_tables(pos->v);
    int best = -SCORE_INF;
    Move choice = moves[0];
    for (int i = 0; i < n; i++) {
        Undo u;
        Move replies[MAX_MOVES];
        pos_make(pos, moves[i], &u);
        int score = -material(pos, t) * 64 + (int)rng_below(&e->seed, 64);
        if (gen_legal(pos, replies) == 0 && pos_in_check(pos))
            score = SCORE_INF - 1;
        pos_unmake(pos, moves[i], &u);
        if (score > best) {
            best = score;
            choice = moves[i];
        }
    }
    return choice;
}

/* Was this position (its key) seen before in the game or the search line? */
static bool seen_before(const Worker *w, uint64_t key)
{
    for (int i = 0; i < w->nkeys; i++)
        if (w->keys[i] == key)
            return true;
    return false;
}

/*
 * Perfect play in a won position the endgame tables cover: the fastest mate the 50-move rule
 * cannot interrupt.  A move is safe when, from the current halfmove clock, the next capture,
 * pawn move or mate comes within the 100 plies: the mover's plies to it are 1 after a zeroing
 * move or mate, else 1 + the loser's DTZ.  Whatever the loser replies, a safe move exists
 * again (its DTZ shrinks as the clock grows), so the win is never lost to the clock; among safe
 * moves the shortest mate is taken, avoiding positions already seen.  Materials exempt from
 * the 50-move rule play the shortest mate.  With no safe move (a position set up with a high
 * clock) the soonest zeroing is tried, scored as the draw best defence gets.  Returns
 * MOVE_NONE (the search decides) elsewhere: draws and losses are scored exactly by the
 * search's own probes one ply down.
 */
static Move endgame_root_move(Worker *w, const Move *moves, int n, int *score)
{
    Position *pos = &w->pos;
    const VariantDef *d = pos->v->def;
    EndgameVerdict root, child;
    if (!d->probe_endgame || !d->probe_endgame(pos, true, &root) || root.wdl <= 0)
        return MOVE_NONE;
    bool clock_counts = !(d->fifty_move_exception && d->fifty_move_exception(pos));
    Move best = MOVE_NONE;
    long best_rank = 0;
    for (int i = 0; i < n; i++) {
        bool zeroing = pos_is_capture(pos, moves[i]) || pos->v->is_pawn[pos->board[MOVE_FROM(moves[i])]];
        Undo u;
        pos_make(pos, moves[i], &u);
        bool covered = d->probe_endgame(pos, true, &child);
        bool repeats = seen_before(w, search_key(pos));
        pos_unmake(pos, moves[i], &u);
        if (!covered)
            return MOVE_NONE; /* a table is missing: leave it to the search */
        if (child.wdl >= 0)
            continue;
        int to_zero = zeroing || child.dtm == 0 ? 1 : 1 + child.dtz;
        bool unsafe = clock_counts && pos->halfmove + to_zero > 100;
        /* Rank: safe first (else the soonest zeroing), then new positions, then the mate. */
        long rank = ((long)unsafe * to_zero * 2 + repeats) * 100000 + child.dtm;
        if (best == MOVE_NONE || rank < best_rank) {
            best = moves[i];
            best_rank = rank;
            *score = unsafe ? 0 : SCORE_MATE - (1 + child.dtm); /* unsafe: the clock draws */
        }
    }
    return best;
}

/* One root search at `depth`: a narrow window around the last score, widened on the side that
 * fails until the score falls inside (a full window for shallow depths and mate scores). */
static int aspiration_search(Worker *w, int depth, int last)
{
    int delta = ASPIRATION_DELTA;
    bool narrow = depth >= 4 && abs(last) < SCORE_MATE_BOUND;
    int alpha = narrow ? last - delta : -SCORE_INF, beta = narrow ? last + delta : SCORE_INF;
    for (;;) {
        int score = negamax(w, alpha, beta, depth, 0, pos_in_check(&w->pos), false);
        if (w->stopped || (score > alpha && score < beta))
            return score;
        delta *= 2;
        if (score <= alpha)
            alpha = score - delta > -SCORE_INF ? score - delta : -SCORE_INF;
        else
            beta = score + delta < SCORE_INF ? score + delta : SCORE_INF;
    }
}

static void set_line(SearchLine *line, int score, const Move *moves, int length)
{
    line->score = score;
    line->length = length;
    memcpy(line->moves, moves, sizeof(Move) * (size_t)length);
}

/* Hands the last completed iteration to the observer. */
static void report(Worker *w)
{
    const Shared *sh = w->shared;
    if (!sh->observer || !sh->observer->iteration)
        return;
    w->info.depth = w->completed_depth;
    w->info.nodes = total_nodes(sh);
    w->info.tbhits = total_tbhits(sh);
    w->info.seconds = clock_seconds() - sh->start;
    w->info.hashfull = tt_hashfull(&sh->engine->tt);
    sh->observer->iteration(sh->observer->ctx, &w->pos, &w->info);
}

/* Has the main thread's last iteration said enough to stop under a clock? */
static bool iteration_ends_search(const Worker *w, int nlegal)
{
    const Shared *sh = w->shared;
    int score = w->info.lines[0].score;
    if (sh->limits.mate > 0 && score >= SCORE_MATE_BOUND && score_mate_moves(score) <= sh->limits.mate)
        return true;
    if (sh->limits.infinite || atomic_load(&sh->engine->pondering) || sh->time.optimum <= 0)
        return false;
    /* One legal move, or a mate proven to be the shortest: no need to look further. */
    if (nlegal == 1 || (abs(score) >= SCORE_MATE_BOUND && w->completed_depth >= SCORE_MATE - abs(score) + MATE_PROOF_MARGIN))
        return true;
    return clock_seconds() - sh->start >= time_iteration_limit(&sh->time, &w->trend);
}

/* Orders MultiPV lines best first (a later line can score above an earlier one: each is a
 * search of its own, with its own window); stable, so equal scores keep their order. */
static void sort_lines(SearchLine *lines, int n)
{
    for (int i = 1; i < n; i++) {
        SearchLine line = lines[i];
        int j = i - 1;
        for (; j >= 0 && lines[j].score < line.score; j--)
            lines[j + 1] = lines[j];
        lines[j + 1] = line;
    }
}

/* Iterative deepening on one thread: every MultiPV line at depth 1, 2, ... (helpers one ply
 * deeper on odd threads, so that the threads do not walk in step). */
static void iterate(Worker *w, int nlegal)
{
    Shared *sh = w->shared;
    int lines = w->id == 0 ? sh->engine->multipv : 1;
    if (lines > nlegal)
        lines = nlegal;
    for (int depth = 1; depth <= sh->max_depth; depth++) {
        int target = w->id % 2 && depth < sh->max_depth ? depth + 1 : depth;
        w->seldepth = 0;
        w->nexcluded = 0;
        SearchLine found[MAX_MULTIPV];
        for (int k = 0; k < lines; k++) {
            int last = w->completed_depth ? w->info.lines[k].score : 0;
            int score = aspiration_search(w, target, last);
            if (w->stopped)
                break;
            set_line(&found[k], score, w->pv[0], w->pv_len[0]);
            w->excluded[w->nexcluded++] = w->pv[0][0];
        }
        bool complete = w->nexcluded == lines;
        if (complete) {
            sort_lines(found, lines);
            const SearchLine *last = &w->info.lines[0];
            time_note_iteration(&w->trend, w->completed_depth == 0 || last->length == 0 || found[0].length == 0,
                                found[0].moves[0] == last->moves[0], found[0].score, last->score);
            memcpy(w->info.lines, found, sizeof found[0] * (size_t)lines);
            w->info.nlines = lines;
        } else if (w->completed_depth == 0 && w->pv_len[0] > 0) {
            /* Stopped in the first iteration: the best line among the moves searched. */
            set_line(&w->info.lines[0], 0, w->pv[0], w->pv_len[0]);
            w->info.nlines = 1;
        } else {
            break;
        }
        w->info.seldepth = w->seldepth;
        w->completed_depth = target;
        if (w->id == 0)
            report(w);
        if (!complete || (w->id == 0 && iteration_ends_search(w, nlegal)))
            break;
    }
    w->nexcluded = 0;
}

static void *helper_main(void *arg)
{
    Worker *w = arg;
    Move moves[MAX_MOVES];
    iterate(w, gen_legal(&w->pos, moves));
    return NULL;
}

/* Makes the continuation-history table fit the variant searched, cleared when it changes (in
 * the memory it had if the new table fits there). */
static void prepare_followups(Worker *w, const Variant *v)
{
    for (int i = 0; i <= MAX_PLY; i++)
        w->followup_at[i] = -1;
    if (w->followup && w->followup_variant == v)
        return;
    clear_followups(w);
    w->followup_keys = 2 * v->ntypes * v->geo->ncells;
    size_t entries = (size_t)w->followup_keys * (size_t)w->followup_keys;
    if (!w->followup || entries > w->followup_capacity) {
        free(w->followup);
        w->followup = calloc(entries, sizeof *w->followup);
        w->followup_capacity = w->followup ? entries : 0;
    }
    w->followup_variant = w->followup ? v : NULL;
    for (int code = 0; code < MAX_CODES; code++) {
        int type = PIECE_TYPE(code);
        bool keyed = w->followup && type >= 1 && type <= v->ntypes && code >> 4 <= 1;
        w->followup_base[code] = keyed ? ((code >> 4) * v->ntypes + type - 1) * v->geo->ncells : -1;
    }
}

void engine_prepare(Engine *e, const Variant *v)
{
    tt_touch(&e->tt);
    eval_tables(v);
    for (int i = 0; i < e->threads; i++)
        prepare_followups(e->workers[i], v);
}

/* Readies a worker for a new search of the game's position. */
static void worker_start(Worker *w, Shared *sh, const Game *game)
{
    w->shared = sh;
    w->pos = game->pos;
    pos_attach_scores(&w->pos, &sh->eval->scores);
    w->nkeys = 0;
    int first = game->n + 1 > MAX_HISTORY_KEYS ? game->n + 1 - MAX_HISTORY_KEYS : 0;
    for (int i = first; i < game->n; i++)
        w->keys[w->nkeys++] = game->undos[i].key ^ (game->undos[i].ep != NO_CELL ? zobrist_ep[game->undos[i].ep] : 0);
    w->keys[w->nkeys++] = search_key(&w->pos);
    atomic_store(&w->nodes, 0);
    atomic_store(&w->tbhits, 0);
    w->seldepth = 0;
    w->stopped = false;
    w->nexcluded = 0;
    w->completed_depth = 0;
    w->info.nlines = 0;
    memset(w->killers, 0, sizeof w->killers);
    memset(w->pv_len, 0, sizeof w->pv_len);
    prepare_followups(w, game->pos.v);
}

/* The main thread's search, with the helpers running beside it; returns the line to play. */
static void search_with_helpers(Engine *e, Shared *sh, int nlegal)
{
    Worker *main = e->workers[0];
    int started = 1;
    for (; started < sh->nthreads; started++)
        if (pthread_create(&e->workers[started]->thread, NULL, helper_main, e->workers[started]) != 0)
            break;
    sh->nthreads = started; /* a helper that could not start is not waited for */
    iterate(main, nlegal);
    atomic_store(&sh->abort, true);
    for (int i = 1; i < started; i++)
        pthread_join(e->workers[i]->thread, NULL);
}

SearchResult search_run(Engine *e, Game *game, const SearchLimits *limits, const SearchObserver *observer)
{
    SearchResult r = {0};
    Shared sh = {.engine = e, .eval = eval_tables(game->v), .limits = *limits, .observer = observer};
    sh.start = clock_seconds();
    sh.nthreads = e->threads;
    atomic_init(&sh.abort, false);
    tt_new_search(&e->tt);
    int side = game->pos.side;
    sh.time = time_plan(limits->movetime, limits->time[side], limits->inc[side], limits->movestogo, limits->infinite);
    for (int i = 0; i < e->threads; i++)
        worker_start(e->workers[i], &sh, game);
    Worker *w = e->workers[0];

    Move moves[MAX_MOVES];
    int n = gen_legal(&w->pos, moves);
    if (e->greedy && n > 0) {
        r.best = greedy_choice(e, &w->pos, moves, n);
        r.depth = 1;
        return r;
    }
    sh.max_depth = limits->depth > 0 && limits->depth < MAX_PLY ? limits->depth : MAX_PLY - 1;
    if (e->skill < 20 && sh.max_depth > 1 + e->skill / 3)
        sh.max_depth = 1 + e->skill / 3;
    int tb_score = 0;
    Move tb_move = e->skill == 20 ? endgame_root_move(w, moves, n, &tb_score) : MOVE_NONE;
    if (tb_move != MOVE_NONE) {
        w->completed_depth = 1;
        w->info.nlines = 1;
        set_line(&w->info.lines[0], tb_score, &tb_move, 1);
        report(w);
    } else if (n > 0) {
        if (e->skill < 20)
            sh.nthreads = 1;
        search_with_helpers(e, &sh, n);
    }
    const SearchLine *best = &w->info.lines[0];
    if (w->info.nlines > 0 && best->length > 0) {
        r.best = best->moves[0];
        r.ponder = best->length > 1 ? best->moves[1] : MOVE_NONE;
        r.score = best->score;
    } else {
        r.best = n ? moves[0] : MOVE_NONE;
    }
    r.depth = w->completed_depth;
    if (e->skill < 20 && n > 1 && !w->stopped) {
        r.best = weakened_choice(w, moves, n, r.depth > 0 ? r.depth : 1);
        r.ponder = MOVE_NONE;
    }
    /* `go infinite` and `go ponder` answer only after `stop` (or, pondering, a ponderhit). */
    while ((limits->infinite || atomic_load(&e->pondering)) && !atomic_load(&e->stop)) {
        struct timespec pause = {0, 2000000};
        nanosleep(&pause, NULL);
    }
    r.nodes = total_nodes(&sh);
    r.seconds = clock_seconds() - sh.start;
    return r;
}
