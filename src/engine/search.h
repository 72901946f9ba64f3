/*
 * The search: iterative deepening with aspiration windows, principal-variation alpha-beta
 * with a transposition table, quiescence (delta pruning, no captures of defended pieces by
 * more valuable ones), move ordering (table move, captures by value, killers, history), check
 * extensions, null-move and reverse futility pruning (both off where zugzwang is common),
 * futility and late-move pruning of quiet moves near the leaves, late-move reductions, mate
 * scores and every variant's own game ends (a "draw" in square-says is a win).
 *
 * Threads search one shared transposition table (Lazy SMP): the main thread reports and
 * decides when to stop, helpers search the same position at staggered depths and leave what
 * they learn in the table.  Results come out as data: after each iteration the main thread
 * hands a SearchInfo (depth, nodes, and per MultiPV line a score and a principal variation
 * as moves) to the caller's observer; the UCI front end prints it, the server reads it.
 */
#ifndef STARFISH_SEARCH_H
#define STARFISH_SEARCH_H

#include <stdatomic.h>

#include "../core/game.h"
#include "tt.h"

#define MAX_PLY 128
#define MAX_MULTIPV 64
#define MAX_THREADS 256
#define SCORE_INF 32000
#define SCORE_MATE 30000
/* Mate scores: SCORE_MATE - plies to mate; endgame tables know mates beyond MAX_PLY. */
#define SCORE_MATE_BOUND (SCORE_MATE - 1000)

typedef struct SearchLimits {
    int depth;      /* 0: no limit */
    uint64_t nodes; /* 0: no limit (all threads together) */
    int movetime;   /* milliseconds, 0: none */
    int time[2], inc[2], movestogo;
    int mate;      /* stop at a mate in this many moves or fewer (`go mate N`); 0: none */
    bool infinite; /* search until stopped */
} SearchLimits;

/* One principal variation: its score for the side to move and its moves. */
typedef struct SearchLine {
    int score;
    int length;
    Move moves[MAX_PLY];
} SearchLine;

/* What an iteration found, best line first. */
typedef struct SearchInfo {
    int depth, seldepth;
    uint64_t nodes, tbhits; /* all threads */
    double seconds;
    int hashfull; /* per mille of the table filled by this search */
    int nlines;
    SearchLine lines[MAX_MULTIPV];
} SearchInfo;

/* Told of the search's progress, on the main search thread. */
typedef struct SearchObserver {
    /* After each completed iteration; `root` is the searched position. */
    void (*iteration)(void *ctx, const Position *root, const SearchInfo *info);
    /* Each root move as the main thread starts it (number counts from 1), once a second has
     * passed. */
    void (*current_move)(void *ctx, const Position *root, Move m, int number, int depth);
    void *ctx;
} SearchObserver;

typedef struct SearchResult {
    Move best, ponder;
    int score, depth;
    uint64_t nodes;
    double seconds;
} SearchResult;

struct Worker;

typedef struct Engine {
    TT tt;
    int threads;       /* 1..MAX_THREADS */
    int multipv;       /* 1..MAX_MULTIPV lines */
    int skill;         /* 0..20; 20 is full strength */
    atomic_bool stop;  /* set by another thread to end the search at once */
    /* Set by the caller before a `go ponder` search: the search keeps no clock until
     * engine_ponderhit() clears it (the clock then counts from the search's start), and it
     * ends only when stopped or after the ponderhit. */
    atomic_bool pondering;
    uint64_t seed;     /* for the weakened play of lower skill levels */
    bool greedy;       /* play the one-ply greedy baseline: the move that wins most material */
    bool use_nnue;     /* evaluate with the variant's net where it has one (nnue.h) */
    struct Worker **workers; /* one per thread, kept between searches */
} Engine;

bool engine_init(Engine *e, size_t hash_mb);
void engine_free(Engine *e);
/* Sets the number of search threads; false (and unchanged) when memory runs out. */
bool engine_set_threads(Engine *e, int threads);
/* Forgets everything learnt (a new game). */
void engine_new_game(Engine *e);
/* Does now the work that would otherwise slow the next search of a game of variant v down
 * (the hash table's first writes, the evaluation's tables, the continuation history's);
 * called while no search runs, when a front end is told to get ready. */
void engine_prepare(Engine *e, const Variant *v);
/* The opponent played the expected move: a `go ponder` search now runs on the clock. */
void engine_ponderhit(Engine *e);
/*
 * Searches the game's current position within the limits, telling the observer (if any) of
 * its progress.  The game is left as it was.
 */
SearchResult search_run(Engine *e, Game *game, const SearchLimits *limits, const SearchObserver *observer);
/* Moves to mate for a mate score (negative: the side to move is mated), else 0. */
int score_mate_moves(int score);

#endif
