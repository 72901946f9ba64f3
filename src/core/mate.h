/*
 * Forced mates proven by exhaustive search of the legal moves, with no heuristics: for the
 * tests of the engine's mate finding, and for puzzles.  "Mate" here is checkmate: the side to
 * move is in check and has no legal move.  The cost grows with the branching factor to the
 * power 2N-1, so N stays small (3 in chess, 2 in Megastar is seconds at most).
 */
#ifndef STARFISH_MATE_H
#define STARFISH_MATE_H

#include "position.h"

/* Can the side to move force checkmate within `moves` of its own moves (moves >= 1)? */
bool mate_within(Position *pos, int moves);
/* Does playing m (legal) force checkmate within `moves` moves of its mover, m included? */
bool move_mates_within(Position *pos, Move m, int moves);

#endif
