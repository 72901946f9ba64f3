/*
 * A game held by a long-lived stream (a game's events, a board's stream): the reference to the
 * game the stream keeps, and, for a player's stream in a game that goes on, that player's
 * presence (game_presence.h) for as long as the stream is open.
 */
#ifndef STARFISH_SERVER_GAME_HOLD_H
#define STARFISH_SERVER_GAME_HOLD_H

#include "game_presence.h"
#include "game_service.h"

typedef struct GameHold {
    LiveGame *g;
    Presence *presence; /* NULL for a spectator, a finished game, or when memory ran out */
} GameHold;

/* A hold of g (the caller's reference, which the stream takes over once it is open); NULL
 * when memory runs out. */
GameHold *game_hold_new(LiveGame *g);
/* Under g's lock, as the stream is opened by side `you` (-1: a spectator): whether that side's
 * presence is to be kept (a game with a clock, going on). */
bool game_hold_wants_presence(const LiveGame *g, int you);
/* The stream is open: the side (when `wanted`) is present from now on. */
void game_hold_enter(GameHold *h, int you, bool wanted);
/* The stream has ended (a StreamKind's `ended`): the presence left, the game let go of. */
void game_hold_release(void *hold);

#endif
