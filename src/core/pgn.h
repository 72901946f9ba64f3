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

/*
 * Reads the first game of a PGN text into g (zeroed or an earlier game): the variant from the
 * [Variant] tag (or `fallback` when there is none), the start from [FEN], then the movetext
 * (move numbers, Roman numerals, comments, variations, NAGs and the result are skipped).
 * False with err set on an unknown variant, a bad FEN or an illegal move (naming the move).
 */
bool game_from_pgn(Game *g, const char *pgn, const Variant *fallback, char *err, size_t errlen);
/* Copies the value of tag `name` ([Name "value"]) of a PGN text into out; false if absent. */
bool pgn_tag_value(const char *pgn, const char *name, char *out, size_t len);

#endif
