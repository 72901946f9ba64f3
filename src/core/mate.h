/*
 * Forced mates proven by exhaustive search of the legal moves, with no heuristics: for the
 * tests of the engine's mate finding, and for puzzles.  "Mate" here is the side to move having
 * no legal move and losing by it: checkmate, or a stalemate the variant scores as a loss for
 * the stalemated side (Starvation's with no pawn next to the king, square-says' for the side
 * that captured more), as the engine scores both.  The cost grows with the branching factor to the
 * power 2N-1, so N stays small (3 in chess, 2 in Megastar is seconds at most).
 */
#ifndef STARFISH_MATE_H
#define STARFISH_MATE_H

#include "position.h"

#define MATE_MOVES_MAX 8 /* the longest mate these searches are asked for */

/* Can the side to move force mate within `moves` of its own moves (moves >= 1)? */
bool mate_within(Position *pos, int moves);
/* Does playing m (legal) force mate within `moves` moves of its mover, m included? */
bool move_mates_within(Position *pos, Move m, int moves);
/* The length of the shortest forced mate by the side to move within `most` moves, or 0. */
int mate_length(Position *pos, int most);
/*
 * The best defence: the side to move faces a mate within `moves` moves of its opponent;
 * returns its legal move after which the opponent's shortest forced mate is longest (the first
 * such in generation order), with that length in *left (0 when it escapes a mate within
 * `moves`), or MOVE_NONE when it has no legal move.
 */
Move mate_best_defence(Position *pos, int moves, int *left);
/*
 * A main line of the shortest forced mate within `moves` moves of the side to move: the first
 * move (in generation order) that forces it, the best defence, and so on to the mate.  Returns
 * the number of plies written to line (room for 2 * MATE_MOVES_MAX - 1), 0 when there is no such
 * mate (or none within MATE_MOVES_MAX).
 */
int mate_line(Position *pos, int moves, Move *line);

#endif
