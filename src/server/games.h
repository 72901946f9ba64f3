/*
 * Live games: the in-memory registry, one mutex per game.  Every change (a move, a result, a
 * draw offer, a flag fall) happens under the game's lock, is stored in one transaction and
 * then sent to the game's event subscribers; when the store fails the change is undone and
 * the caller gets a 5xx.  Legality and game ends come from the rules core only.
 *
 * Lock order: registry -> game -> (store, subscriber, engine queue).
 *
 * Lifetime: whoever keeps a LiveGame pointer beyond the registry lock holds a reference to it
 * (refs): the request handler from games_find or games_create until games_release, an event
 * stream's subscriber until it is dropped, a queued engine job until the worker is done with
 * it.  A reference is only made under the registry lock or by a holder of one, so a game that
 * has none while the registry lock is held cannot be reached by anyone else: games_evict frees
 * such games when they are over and have been idle long enough.  An evicted game is loaded
 * from the store again when it is next asked for.
 */
#ifndef STARFISH_SERVER_GAMES_H
#define STARFISH_SERVER_GAMES_H

#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "../core/game.h"
#include "../core/notation.h"
#include "store.h"

#define GAME_ID_LEN 8
#define TOKEN_LEN 32

struct Subscriber;

typedef struct LiveGame {
    pthread_mutex_t lock;
    char id[GAME_ID_LEN + 1];
    const Variant *v;
    Game game;
    /* Coordinate notation and SAN of each move played, cached as they are played. */
    char (*uci)[MOVE_TEXT_MAX];
    char (*san)[MOVE_TEXT_MAX];
    char **fen; /* the position text after each move (the UI steps through them) */
    int names_cap;
    char token[2][TOKEN_LEN + 1];
    bool engine[2]; /* which sides the engine plays */
    int skill;      /* -1: no engine */
    /* The clock: left[side] is what the side had when its turn began (turn_start_ms). */
    bool has_clock;
    int64_t base_ms, inc_ms, left[2], turn_start_ms;
    int64_t created_ms, ended_ms;
    ResultKind result; /* RESULT_NONE while the game goes on */
    char reason[STORE_REASON_MAX];
    int draw_offer;     /* -1, WHITE or BLACK */
    bool engine_queued; /* an engine move is requested and not yet taken by a worker */
    struct Subscriber *subs;
    atomic_int refs;         /* the holders of a pointer to the game (see above) */
    _Atomic int64_t used_ms; /* monotonic: when a holder last let go of it or it ended */
    struct LiveGame *next;
} LiveGame;

/* What creating a game needs: the options of POST /api/games and the game to start from. */
typedef struct GameOptions {
    const Variant *v;
    bool engine_opponent;
    int creator; /* WHITE or BLACK */
    int skill;
    bool has_clock;
    int64_t base_ms, inc_ms;
} GameOptions;

/* An engine move to think about: a copy of what the worker needs, taken under the lock. */
typedef struct EngineTask {
    const Variant *v;
    char start_fen[FEN_MAX];
    Move *moves; /* malloc'ed */
    int n;
    int skill;
    int movetime_ms;
} EngineTask;

/* Loads every unfinished game from the store; returns how many, or -1 on an error. */
int games_load_unfinished(void);
/* Frees every game (at shutdown, when no other thread runs). */
void games_free_all(void);

/*
 * Creates a game from `initial` (its moves become the game's history; the game takes it over
 * and leaves *initial zeroed).  Returns 0, or an HTTP status with err set.  The new game (with
 * a reference for the caller) and the tokens are written to *out, creator_token, invite
 * (invite "" when there is none).
 */
int games_create(const GameOptions *o, Game *initial, LiveGame **out, char *creator_token, char *invite, char *err,
                 size_t errlen);
/* The game with that id (loaded from the store when it is not in memory), or NULL.  Like
 * games_create, it hands the caller a reference that the caller gives back with
 * games_release. */
LiveGame *games_find(const char *id);
/* Takes another reference to g for a holder of one (a subscriber, an engine job). */
void games_hold(LiveGame *g);
/* Gives back a reference (no lock needed; g must not be used after it). */
void games_release(LiveGame *g);
/* Frees every game that is over, has no reference and was last used idle_ms or more ago;
 * returns how many. */
int games_evict(int64_t idle_ms);
/* How many games are in memory. */
int games_in_memory(void);

/* The rest want g->lock held. */

/* The side whose secret the token is, or -1. */
int games_side_of_token(const LiveGame *g, const char *token);
/* Brings the game up to date before it is read: a flag that has fallen ends the game now
 * rather than at the clock thread's next look. */
void games_refresh(LiveGame *g);
/* GAME as docs/api.md describes it; `you` >= 0 adds "you": "white" | "black". */
json_t *games_state(LiveGame *g, int you);
/* Each returns 0, or an HTTP status (4xx/5xx) with err set. */
int games_move(LiveGame *g, int side, const char *text, char *err, size_t errlen);
int games_resign(LiveGame *g, int side, char *err, size_t errlen);
/* action: "offer", "accept" or "decline".  An offer to the engine is answered at once (the
 * lock is let go while the engine thinks about it). */
int games_draw(LiveGame *g, int side, const char *action, char *err, size_t errlen);
/* The game as PGN (malloc'ed). */
char *games_pgn(LiveGame *g);

/* The clock thread: ends every game whose side to move has run out of time. */
void games_check_flags(void);
/* Shutdown: ends every event stream. */
void games_close_streams(void);

/* The engine workers (no lock held): take the task for the engine's move (false when there
 * is nothing to do), then hand in the move found. */
bool games_engine_task(LiveGame *g, EngineTask *t);
void games_engine_reply(LiveGame *g, const EngineTask *t, Move best);

#endif
