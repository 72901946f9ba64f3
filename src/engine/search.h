/*
 * The search: iterative deepening with aspiration windows, principal-variation alpha-beta
 * with a transposition table, quiescence (delta pruning, no captures of defended pieces by
 * more valuable ones), move ordering (table move, captures by value, killers, history), check
 * extensions, null-move and reverse futility pruning (both off where zugzwang is common),
 * futility and late-move pruning of quiet moves near the leaves, late-move reductions, mate
 * scores and every variant's own game ends (a "draw" in square-says is a win).
 */
#ifndef STARFISH_SEARCH_H
#define STARFISH_SEARCH_H

#include <stdatomic.h>
#include <stdio.h>

#include "../core/game.h"
#include "tt.h"

#define MAX_PLY 128
#define SCORE_INF 32000
#define SCORE_MATE 30000
/* Mate scores: SCORE_MATE - plies to mate; endgame tables know mates beyond MAX_PLY. */
#define SCORE_MATE_BOUND (SCORE_MATE - 1000)

typedef struct SearchLimits {
    int depth;      /* 0: no limit */
    uint64_t nodes; /* 0: no limit */
    int movetime;   /* milliseconds, 0: none */
    int time[2], inc[2], movestogo;
    bool infinite;
} SearchLimits;

typedef struct Engine {
    TT tt;
    int skill;         /* 0..20; 20 is full strength */
    atomic_bool stop;  /* set by another thread to end the search at once */
    uint64_t seed;     /* for the weakened play of lower skill levels */
    bool greedy;       /* play the one-ply greedy baseline: the move that wins most material */
} Engine;

typedef struct SearchResult {
    Move best, ponder;
    int score, depth;
    uint64_t nodes;
    double seconds;
} SearchResult;

bool engine_init(Engine *e, size_t hash_mb);
void engine_free(Engine *e);
/* Forgets everything learnt (a new game). */
void engine_new_game(Engine *e);
/*
 * Searches the game's current position within the limits.  With `out`, prints UCI `info`
 * lines after each iteration.  The game is left as it was.
 */
SearchResult search_run(Engine *e, Game *game, const SearchLimits *limits, FILE *out);

#endif
