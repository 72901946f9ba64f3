/*
 * A live game: a game the server holds in memory, with what the rules core's Game does not
 * know (tokens, players, the clock, the offers) and its moves' notation cached as they
 * are played.  The game service (game_service.c) owns every LiveGame and changes one only
 * under its lock; everyone else reads one through the service (a GameReader, called under
 * the lock).
 */
#ifndef STARFISH_SERVER_LIVE_GAME_H
#define STARFISH_SERVER_LIVE_GAME_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "../core/game.h"
#include "../core/notation.h"
#include "store.h"

#define GAME_ID_LEN 8
#define TOKEN_LEN 32 /* characters of TOKEN_ALPHABET (64): 192 random bits */
#define DAY_MS (24LL * 3600 * 1000)

typedef struct LiveGame {
    pthread_mutex_t lock;
    char id[GAME_ID_LEN + 1];
    const Variant *v;
    Game game;
    /* Coordinate notation and SAN of each move played, and the position text after it (the
     * UI steps through them), cached as they are played; names_cap entries of each. */
    char (*uci)[MOVE_TEXT_MAX];
    char (*san)[MOVE_TEXT_MAX];
    char **fen;
    int names_cap;
    char token[2][TOKEN_LEN + 1];
    bool engine[2]; /* which sides the engine plays */
    int skill;      /* -1: no engine */
    /* The clock: left[side] is what the side had when its turn began (turn_start_ms).  A
     * correspondence game's is `days` whole days, filled up again after each move. */
    bool has_clock;
    int64_t base_ms, inc_ms, left[2], turn_start_ms;
    int days;
    int64_t created_ms, ended_ms;
    ResultKind result; /* RESULT_NONE while the game goes on */
    char reason[STORE_REASON_MAX];
    int draw_offer;     /* -1, WHITE or BLACK */
    int takeback_offer; /* -1, or the side that asks to take back its last move */
    int rematch_offer;  /* -1, or the side that offers a rematch (the game is over) */
    char rematch_id[GAME_ID_LEN + 1]; /* the rematch's id once it is made, or "" */
    bool rematch_making; /* an accepted rematch is being made (outside the lock) */
    bool engine_queued; /* an engine move is asked for and not yet answered by a worker */
    bool joined[2];     /* has the player opened the game (the invite's end) */
    bool rated;         /* counts for the accounts' ratings once both sides have one */
    SeatRow seat[2];    /* the account on each side, if any */
    char tournament[STORE_ID_MAX + 1]; /* the tournament it is a game of, or "" */
    bool berserk[2];    /* a side that berserked: half its clock, no increment */
    atomic_int refs;         /* the holders of a pointer to the game (see game_service.h) */
    _Atomic int64_t used_ms; /* monotonic: when a holder last let go of it or it ended */
    struct LiveGame *next;   /* in the service's table */
} LiveGame;

/* What creating a game needs besides the game to start from: the options of POST /api/games. */
typedef struct GameOptions {
    const Variant *v;
    const char *tokens[2]; /* the players' secrets to keep (a rematch), NULL: new ones */
    const char *rematch_of; /* the finished game this one is the rematch of, or NULL */
    const char *challenge;  /* the challenge it answers (its id becomes the game's), or NULL */
    bool engine_opponent;
    int creator; /* WHITE or BLACK */
    int skill;
    bool has_clock;
    int64_t base_ms, inc_ms;
    int days; /* correspondence: days a move (then no clock of base_ms) */
    bool rated;
    SeatRow seat[2]; /* the accounts seated from the start (the creator's; a rematch's two) */
    const char *tournament; /* the tournament it is a game of, or NULL */
} GameOptions;

/* A new, empty game (no variant yet); NULL when memory runs out. */
LiveGame *live_new(void);
void live_free(LiveGame *g);
/* Plays m, legal in g's position, and caches its notation and the position after it; false
 * (g unchanged) when memory runs out. */
bool live_play(LiveGame *g, Move m);
/* Sets the result (and its reason) that the rules core gave. */
void live_set_result(LiveGame *g, GameResult r);
/* What `side` has on its clock at `now` (wall-clock ms). */
int64_t live_time_left(const LiveGame *g, int side, int64_t now);
/* The side's increment: none after a berserk. */
int64_t live_increment(const LiveGame *g, int side);
/* What a side's clock starts with: half the clock after a berserk. */
int64_t live_initial_time(const LiveGame *g, int side);
/* What the side that moved has on its clock after its move at `now`: the time left plus the
 * increment, or, in correspondence, its days again. */
int64_t live_clock_after_move(const LiveGame *g, int side, int64_t now);
/* Sets up a new game (from live_new) from the options and the game to start from, which it
 * takes over (leaving *initial zeroed); rows[] gets the stored form of the initial moves
 * (initial->n of them).  False when memory runs out. */
bool live_start(LiveGame *g, const GameOptions *o, Game *initial, MoveRow *rows, int64_t now);
/* The game as a row of the store (its settings and its state, no offers). */
void live_to_row(const LiveGame *g, GameRow *row);
/* The game as stored: its row and moves replayed through the rules core.  NULL with err set
 * on a record the rules refuse or when memory runs out. */
LiveGame *live_from_row(const GameRow *row, const MoveRow *moves, int n, char *err, size_t errlen);
/* Takes the game as `fresh` has it (read from the store again) into g, whose lock, references,
 * place in the table and engine job stay; fresh gets g's former contents, to be freed. */
void live_exchange(LiveGame *g, LiveGame *fresh);
/* "white" or "black". */
const char *side_name(int side);
/* How the store writes a result: result_text, but "aborted" for an aborted game (whose PGN
 * result is "*", which the store keeps for games that go on). */
const char *live_result_text(ResultKind k);

#endif
