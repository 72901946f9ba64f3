/* Perft: the number of leaves of the legal move tree, the rules core's correctness check. */
#ifndef STARFISH_PERFT_H
#define STARFISH_PERFT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "position.h"

/* Leaves at depth (>= 1); the last ply is counted in bulk, without making or listing the
 * moves. */
uint64_t perft(Position *pos, int depth);

/* The divide, as `go perft` and `starfish perft` print it: a line "MOVE: COUNT" for each legal
 * move (its leaves at depth - 1 after it), a blank line, "Nodes searched: TOTAL"; *total is
 * set to the sum.  With stop non-NULL, the count is given up as soon as *stop is set (it is
 * looked at before each subtree): the lines of the moves counted so far are printed, no total,
 * and false is returned. */
bool perft_divide(Position *pos, int depth, FILE *out, const atomic_bool *stop, uint64_t *total);
/* The divide in two parts, for a caller with work to do before the total appears (UCI notes
 * that its `go perft` has ended, so that a `go` sent on reading the total is not refused):
 * the move lines (perft_divide without its total), then the blank line and the total. */
bool perft_divide_moves(Position *pos, int depth, FILE *out, const atomic_bool *stop, uint64_t *total);
void perft_print_total(FILE *out, uint64_t total);

#endif
