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
 * Parses a move in coordinate notation or SAN and returns it if it is legal here.  Otherwise
 * returns MOVE_NONE and explains in err: "illegal move" for a well-formed move that may not
 * be played, "unknown move" for text that names no move.
 */
Move parse_move(Position *pos, const char *text, char *err, size_t errlen);

#endif
