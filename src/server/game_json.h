/* A live game as JSON: the GAME object of docs/api.md (jansson). */
#ifndef STARFISH_SERVER_GAME_JSON_H
#define STARFISH_SERVER_GAME_JSON_H

#include <jansson.h>

#include "live_game.h"

/* The parts of GAME that differ between its readers, or that a reader may not want; the
 * other fields are always there. */
typedef enum GameParts {
    GAME_MOVES = 1,    /* "moves": the history */
    GAME_CLOCK = 2,    /* "clock" */
    GAME_LEGAL = 4,    /* "legal": the moves of the side to move */
    GAME_NO_LEGAL = 8, /* "legal": [] (a reader who may not move now: an event stream's) */
} GameParts;

/* GAME for g (read under its lock: from a GameCall's or an observer's callback); `you` >= 0
 * adds "you": "white" | "black".  NULL when memory runs out. */
json_t *game_json(LiveGame *g, int you);
/* GAME with the parts of `parts` (GameParts) only; without GAME_LEGAL or GAME_NO_LEGAL, no
 * "legal".  NULL when memory runs out. */
json_t *game_json_parts(LiveGame *g, int you, unsigned parts);
/* GAME's "clock" (null without one), "legal" (NULL when memory runs out) and moves[i]. */
json_t *game_json_clock(const LiveGame *g);
json_t *game_json_legal(LiveGame *g);
json_t *game_json_move(const LiveGame *g, int i);
/* The position's fields of GAME (fen, side, legal, check, last, hand) for `game` into
 * `object` (`over`: no legal moves); *ok cleared when memory runs out. */
void game_json_position(json_t *object, const Variant *v, Game *game, bool over, bool *ok);

/* GAME's fields of the players into `object`: players (each side's account, or null),
 * player_kinds ("human" or "engine"), rated, and ratingDiff once a rated game has changed the
 * ratings; *ok cleared when memory runs out. */
void game_json_players(json_t *object, bool rated, const SeatRow *seat, const bool *engine, bool *ok);
/* Plays mv, legal in g, and appends { uci, san, fen after it } to `record` (POSITION's
 * "moves"); false when memory runs out. */
bool game_json_play_recorded(Game *g, Move mv, json_t *record);

#endif
