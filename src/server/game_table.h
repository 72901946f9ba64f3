/*
 * The table of live games, which the game service keeps: every game in memory by its id,
 * and the references that keep a game from being freed (see game_service.h).  One lock for
 * the table, taken before a game's own lock, never after.
 */
#ifndef STARFISH_SERVER_GAME_TABLE_H
#define STARFISH_SERVER_GAME_TABLE_H

#include "live_game.h"

/* Another reference to g, for a holder of one; table_release gives one back. */
void table_hold(LiveGame *g);
void table_release(LiveGame *g);
/* The game with that id, with a reference for the caller, or NULL. */
LiveGame *table_find(const char *id);
/* Adds g with a reference for the caller; if a game with its id is there already, that one
 * is returned instead (with a reference) and g is left to the caller. */
LiveGame *table_add(LiveGame *g);
/* Calls fn for every game, the table locked. */
void table_each(void (*fn)(LiveGame *g, void *ctx), void *ctx);
/* Frees the games that nobody holds and that can_go allows; returns how many. */
int table_evict(bool (*can_go)(const LiveGame *g, void *ctx), void *ctx);
/* How many games are in memory. */
int table_size(void);
/* Frees every game (at shutdown, when no other thread runs). */
void table_free_all(void);

#endif
