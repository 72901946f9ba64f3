/* Move notation: coordinate notation (engine protocol, APIs) and SAN (game records). */
#ifndef STARFISH_NOTATION_H
#define STARFISH_NOTATION_H

#include "position.h"

#define MOVE_TEXT_MAX 32

/* Coordinate notation: e2e4, e7e8q, 9-10q, N@17, Ue5Ue6. */
void move_to_text(const Position *pos, Move m, char *buf);
/* Game-record notation (SAN in the variant's style), with check, mate and removal marks. */
void move_to_san(Position *pos, Move m, char *buf);
/*
 * Parses a move in coordinate notation or SAN and returns it if it is legal here.  SAN may be
 * written with figurines (♘f3, ♖14) and a placement with its cell first, as the Polgár
 * notation of the Starchess documents does (17♘).  Otherwise returns MOVE_NONE and explains
 * in err: "illegal move" for a well-formed move that may not be played (with why, where the
 * text names a piece and a destination: no such piece can go there, or several can),
 * "unknown move" for text that names no move.
 */
Move parse_move(Position *pos, const char *text, char *err, size_t errlen);
/*
 * The same for the next move of a list of tokens (n >= 1), which may take two: a placement
 * written as a cell and a piece sign apart ("17 ♘").  *used says how many were read.
 */
Move parse_move_tokens(Position *pos, char *const *tokens, int n, int *used, char *err, size_t errlen);

#endif
