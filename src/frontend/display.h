/* Text drawing of a position for terminals (UCI `d`, the command line). */
#ifndef STARFISH_DISPLAY_H
#define STARFISH_DISPLAY_H

#include <stdio.h>

#include "../core/game.h"

/* Draws the board, then the position text, side to move, pieces in hand and the status. */
void display_game(FILE *out, Game *g);

#endif
