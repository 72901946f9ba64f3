/*
 * Inside the search: what the threads of one search share (Shared), what one search thread
 * holds (Worker), and the few small helpers and entry points its parts call across files.
 *
 * The parts: search.c searches a node (negamax, in numbered steps), quiescence.c below the
 * leaves, and node.c holds what both do around their moves (node.h); movepick.c puts a
 * node's moves in the order they are tried; history.c keeps what the search learns of
 * quiet moves (history, killers, counter moves, continuation histories); root.c iterates
 * deeper at the root and reports; threads.c is the engine's lifecycle and a search's run on
 * its threads (Lazy SMP).
 */
#ifndef STARFISH_WORKER_H
#define STARFISH_WORKER_H

#include <pthread.h>

#include "../nnue/nnue.h"
#include "eval.h"
#include "search.h"
#include "timeman.h"

/* Entries of each correction-history table, a power of two. */
#define CORRECTION_ENTRIES 16384
/* Keys of the game's earlier positions kept for repetitions. */
#define MAX_HISTORY_KEYS 8192
/* The continuation history's keys: a (side, piece type, cell) triple each. */
#define FOLLOWUP_KEYS_MAX (2 * MAX_TYPES * MAX_CELLS)

/* What every thread of one search shares. */
typedef struct Shared {
    Engine *engine;
    const EvalTables *eval;
    const NnueNet *net; /* NULL: the hand-written evaluation */
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
    /* The net's accumulators along the path (net: the search's, or NULL when it has none or
     * the frames' memory could not be had). */
    const NnueNet *net;
    NnueStack *nnue;
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
    /* The move left out of the node at each ply while its singularity is tested (or none). */
    Move singular[MAX_PLY + 1];
    /* The move made at each ply of the path and the piece code it moved (for counter moves). */
    Move path_move[MAX_PLY + 1];
    uint8_t path_piece[MAX_PLY + 1];
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
    /* Kept from search to search, cleared by engine_new_game: how often each quiet move (by
     * side, from, to) cut off, and the quiet move that last refuted each move (by the piece
     * it moved and its target). */
    int history[2][MAX_CELLS][MAX_CELLS];
    /* Correction history, kept like the history: how far searches found the static evaluation
     * off, by side and a hash of the pawns' cells (and of the material), in 1/CORRECTION_GRAIN
     * centipawns (history.h). */
    int16_t pawn_correction[2][CORRECTION_ENTRIES];
    int16_t material_correction[2][CORRECTION_ENTRIES];
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

/* ---- Small helpers every part uses ---------------------------------------------------------- */

/* The key the search uses: the position key plus any en-passant cell. */
static inline uint64_t search_key(const Position *pos)
{
    return pos->key ^ (pos->ep != NO_CELL ? zobrist_ep[pos->ep] : 0);
}

static inline uint64_t counter_read(atomic_uint_fast64_t *c)
{
    return atomic_load_explicit(c, memory_order_relaxed);
}

/* Only the owning thread writes a counter, so a relaxed load and store suffice. */
static inline void counter_add(atomic_uint_fast64_t *c, uint64_t n)
{
    atomic_store_explicit(c, counter_read(c) + n, memory_order_relaxed);
}

static inline uint64_t total_nodes(const Shared *sh)
{
    uint64_t sum = 0;
    for (int i = 0; i < sh->nthreads; i++)
        sum += counter_read(&sh->engine->workers[i]->nodes);
    return sum;
}

static inline uint64_t total_tbhits(const Shared *sh)
{
    uint64_t sum = 0;
    for (int i = 0; i < sh->nthreads; i++)
        sum += counter_read(&sh->engine->workers[i]->tbhits);
    return sum;
}

/* The static evaluation of the worker's position, for the side to move. */
static inline int static_eval(Worker *w)
{
    return w->net ? nnue_evaluate(w->net, w->nnue, &w->pos) : evaluate(&w->pos, w->shared->eval);
}

static inline int piece_value(const Worker *w, uint8_t code)
{
    return code ? w->shared->eval->value[code] : 0;
}

static inline int victim_value(const Worker *w, Move m)
{
    const Position *pos = &w->pos;
    return piece_value(w, MOVE_KIND(m) == MK_EP ? pos->board[pos->ep_victim] : pos->board[MOVE_TO(m)]);
}

/* ---- The node search (search.c, node.c), as the root calls it ----------------------------------- */

/* Fills the late-move reduction table; once, before the first search. */
void init_reductions(void);
/* The main search of the node at `ply`; `check`: the side to move is in check (the caller
 * knows it already, from the move it made). */
int negamax(Worker *w, int alpha, int beta, int depth, int ply, bool check, bool allow_null);
/* A move made and taken back on the worker's position, its key on the path, counted as a
 * node. */
void make(Worker *w, Move m, Undo *u);
void unmake(Worker *w, Move m, const Undo *u);

#endif
