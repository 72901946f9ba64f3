/* Perft: the number of leaves of the legal move tree, the rules core's correctness check. */
#ifndef STARFISH_PERFT_H
#define STARFISH_PERFT_H

#include <stdio.h>

#include "position.h"

/* Leaves at depth (>= 1); the last ply is counted in bulk, without making or listing the
 * moves. */
uint64_t perft(Position *pos, int depth);

/* The divide, as `go perft` and `starfish perft` print it: a line "MOVE: COUNT" for each legal
 * move (its leaves at depth - 1 after it), a blank line, "Nodes searched: TOTAL".  Returns the
 * total. */
uint64_t perft_divide(Position *pos, int depth, FILE *out);

#endif
