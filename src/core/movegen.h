/* Move generation: pseudo-legal moves from the move programs, then the legality filter. */
#ifndef STARFISH_MOVEGEN_H
#define STARFISH_MOVEGEN_H

#include "position.h"

/* Moves that follow the pieces' movement, ignoring whether the mover's royal stays safe. */
int gen_pseudo(const Position *pos, Move *out);
/* The pseudo-legal captures and promotions alone, in the order gen_pseudo lists them (for
 * quiescence); none during a setup phase. */
int gen_captures(const Position *pos, Move *out);
/* Legal moves (the rules core's one answer to "what may be played here?"). */
int gen_legal(Position *pos, Move *out);
/* Is a pseudo-legal move legal? */
bool move_is_legal(Position *pos, Move m);

#endif
