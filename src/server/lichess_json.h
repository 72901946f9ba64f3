/*
 * Games in the shapes of lichess's API (its OpenAPI specification: github lichess-org/api,
 * doc/specs), so that clients written for lichess (lichess-bot, berserk, board apps) read
 * ours: the game info of an account's events (gameStart, gameFinish), and the board and bot
 * game stream's gameFull and gameState.  Where lichess has nothing (hex cells, placements, two
 * levels), the same fields carry ours: moves in the engine's notation (a placement `K@17`),
 * our variant keys (chess is lichess's `standard`).  Every function reads a game under its
 * lock and answers NULL when memory runs out.
 */
#ifndef STARFISH_SERVER_LICHESS_JSON_H
#define STARFISH_SERVER_LICHESS_JSON_H

#include <jansson.h>

#include "live_game.h"

/* A variant's key as lichess's clients read it ("standard" for chess, else ours). */
const char *lichess_variant_key(const Variant *v);
/* The variant of a lichess key (ours, or "standard"), NULL for none. */
const Variant *lichess_variant(const char *key);
/* {"key", "name", "short"}. */
json_t *lichess_variant_json(const Variant *v);
/* The speed of a clock of base_ms + inc_ms, as lichess names it (days > 0: correspondence). */
const char *lichess_speed(bool has_clock, int64_t base_ms, int64_t inc_ms, int days);

/* GameEventInfo: the game as `side` (an account's) sees it, in gameStart and gameFinish. */
json_t *lichess_game_info(LiveGame *g, int side);
/* gameState: the moves so far, the clocks, the status, the offers. */
json_t *lichess_game_state(LiveGame *g);
/* gameFull: who plays, the variant, the clock, and the state. */
json_t *lichess_game_full(LiveGame *g);

/* lichess's time controls: a clock of 0..180 minutes and an increment of 0..180 s, not both 0;
 * or days a move, 1, 2, 3, 5, 7, 10 or 14; not both (neither: no clock).  NULL when they are
 * one of those, else what is wrong. */
const char *lichess_time_control_error(bool has_clock, int limit_s, int increment_s, int days);

#endif
