/*
 * Static exchange evaluation: what a capture wins or loses in material once both sides have
 * recaptured on its cell with their least valuable attackers for as long as it pays.  It
 * plays the exchange on a set of occupied cells, taking each capturer off it and asking the
 * rules core for the attackers from the attack tables, so pieces uncovered behind the
 * capturers (x-rays, rose paths) and the screens of hopping pieces (Megastar's Slings) come
 * out right on every geometry.  The value is exact: each side stops where that pays best.
 */
#ifndef STARFISH_SEE_H
#define STARFISH_SEE_H

#include "../core/position.h"

/* The material balance of the exchange a move starts, for the mover, in the units of
 * `value` (by piece code; royal pieces count as worth more than everything else). */
int see(const Position *pos, Move m, const int *value);

#endif
