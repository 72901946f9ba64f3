/* Random openings, for self-play (`starfish tune --generate`) and matches (`starfish match`). */
#ifndef STARFISH_OPENING_H
#define STARFISH_OPENING_H

#include <stdint.h>

#include "game.h"

/*
 * Plays a random opening on g, which stands at its start: every placement of a setup phase
 * (pieces in hand: Starchess's setup) at random, then `plies` random movement plies.  A move
 * that would end the game, or let the opponent end it at once (a random Starchess setup can
 * leave a mate in one), is not chosen, so no game is decided before the players move.  Where
 * a random line runs out of such moves, another is drawn from the start.  The same seed gives
 * the same opening.  False, with g back at its start, when 100 lines all ran out.
 */
bool opening_random(Game *g, int plies, uint64_t seed);
/* The same, but where the board has a mirror, Black places each piece on the image of the
 * cell where White placed the same piece just before: the setup (Starchess's 120 of its
 * 14,400) then favours neither side, and only the random plies and the first move do. */
bool opening_random_mirrored(Game *g, int plies, uint64_t seed);
/* The first `placements` placements of a setup phase at random (fewer if it ends first), on
 * the same terms; the rest of the setup is the players'. */
bool opening_random_setup(Game *g, int placements, uint64_t seed);

#endif
