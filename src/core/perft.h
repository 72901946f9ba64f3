/* Perft: the number of leaves of the legal move tree, the rules core's correctness check. */
#ifndef STARFISH_PERFT_H
#define STARFISH_PERFT_H

#include "position.h"

/* Leaves at depth (>= 1); the last ply is counted in bulk, without making the moves. */
uint64_t perft(Position *pos, int depth);

#endif
