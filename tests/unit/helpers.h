/* Shared helpers for unit tests: set up positions, list moves as text. */
#ifndef STARFISH_TEST_HELPERS_H
#define STARFISH_TEST_HELPERS_H

#include "../../src/core/game.h"
#include "../../src/core/movegen.h"
#include "../../src/core/notation.h"
#include "../../src/core/perft.h"

/* Sets up pos from fen in the named variant; a failure is recorded and returns false. */
bool setup(Position *pos, const char *variant, const char *fen);
/*
 * The legal moves of pos in coordinate notation, sorted and space-separated into buf; with
 * from != NULL, only the moves from that cell.
 */
const char *legal_moves_text(Position *pos, const char *from, char *buf, size_t len);
/* Plays space-separated moves (any notation) on a game; false (and a failure) on a bad one. */
bool play_moves(Game *g, const char *moves);

#endif
