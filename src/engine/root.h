/*
 * The root of a search (root.c): iterative deepening on one thread, and the root's own ways
 * to choose a move.
 */
#ifndef STARFISH_ROOT_H
#define STARFISH_ROOT_H

#include "worker.h"

/* Iterative deepening on one thread: every MultiPV line at depth 1, 2, ... (helpers one ply
 * deeper on odd threads, so that the threads do not walk in step), until the depth limit,
 * a stop, or (the main thread) the clock; the main thread reports each iteration.  `nlegal`:
 * the root's legal moves. */
void iterate(Worker *w, int nlegal);
/* Perfect play in a won position the endgame tables cover: the fastest mate the 50-move rule
 * cannot interrupt, reported as a one-ply iteration.  False (nothing done) elsewhere: the
 * search decides. */
bool endgame_root_play(Worker *w, const Move *moves, int n);
/* Weaker play (skill levels): every root move scored at a shallow depth, then a noisy choice. */
Move weakened_choice(Worker *w, Move *moves, int n, int depth);
/* The greedy baseline: mate if it can, else the move leaving the most material, ties at
 * random. */
Move greedy_choice(Engine *e, Position *pos, const Move *moves, int n);

#endif
