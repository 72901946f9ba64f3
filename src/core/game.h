/*
 * A game: a start position, the moves played, and the history that end conditions need
 * (repetition keys).  game_status() is the one place that decides whether a game is over.
 */
#ifndef STARFISH_GAME_H
#define STARFISH_GAME_H

#include "fen.h"
#include "position.h"

typedef struct Game {
    const Variant *v;
    Position pos;
    char start_fen[FEN_MAX];
    Move *moves;
    Undo *undos;
    uint64_t *keys; /* keys[i]: repetition key of the position before move i; keys[n]: now */
    int n, cap;
    GameResult ended; /* a result not read off the board: resignation, timeout, agreement */
} Game;

/* Starts a game from fen (NULL: the variant's start).  False with err set on bad text. */
bool game_init(Game *g, const Variant *v, const char *fen, char *err, size_t errlen);
void game_free(Game *g);
/* Plays a legal move; false (the game unchanged) when memory runs out. */
bool game_play(Game *g, Move m);
/* Takes back the last move; false when there is none. */
bool game_undo(Game *g);
/* Over or not, and why. */
GameResult game_status(Game *g);
/* Ends the game off the board: `side` resigns, or its time ran out; or both agree a draw,
 * whose result the variant decides (square-says gives it to the side that captured more). */
void game_resign(Game *g, int side);
void game_timeout(Game *g, int side);
void game_agree_draw(Game *g);
/* Ends the game because `side` left it: its opponent wins, or (draw) it is drawn as an agreed
 * draw is. */
void game_abandoned(Game *g, int side, bool draw);
/* Ends the game with no result: aborted before it really began. */
void game_abort(Game *g);
/* Has the 50-move rule (100 plies without capture or pawn move, unless the variant exempts
 * the material) run out in this position? */
bool fifty_move_rule_reached(const Position *pos);
/* "1-0", "0-1", "1/2-1/2" or "*" (also for an aborted game, as PGN has it). */
const char *result_text(ResultKind k);

#endif
