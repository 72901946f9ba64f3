/* Game records: PGN with a Variant tag (and a FEN tag for a non-initial start). */
#ifndef STARFISH_PGN_H
#define STARFISH_PGN_H

#include "game.h"

/*
 * Writes the game as PGN into buf (len bytes; the text is cut short if it does not fit and
 * the return value is the length it needed).  Movement moves are numbered 1., 2., ...;
 * placements of a setup phase are numbered with Roman numerals I., II., ...
 */
size_t game_pgn(Game *g, const char *event, char *buf, size_t len);

#endif
