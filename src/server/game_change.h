/*
 * The game service's inner workings, shared by its files: game_change.c (changes, and the
 * checks before one), game_service.c (the table of games, the store's news, creating, moves,
 * resignations, clocks, the engine's moves) and game_offers.c (draw, takeback and rematch
 * offers).  Nothing else includes this.
 *
 * Every function here but svc_lock is called with the game's lock held.  A change is made in
 * memory after svc_save, then svc_settle lets the caller read the game, stores the change
 * (one transaction) and tells the observers, or undoes it when either fails.
 */
#ifndef STARFISH_SERVER_GAME_CHANGE_H
#define STARFISH_SERVER_GAME_CHANGE_H

#include <stdbool.h>
#include <stdint.h>

#include "game_call.h"

/* What a change may touch, kept to undo it (moves taken back, up to two, are kept too). */
typedef struct Saved {
    int n; /* moves played */
    Move last[2]; /* the last two moves (a takeback's to play again) */
    GameResult ended;
    int64_t left[2], turn_start_ms, ended_ms;
    ResultKind result;
    char reason[STORE_REASON_MAX];
    int draw_offer, takeback_offer, rematch_offer;
    bool joined[2];
    SeatRow seat[2];
    bool berserk[2];
} Saved;

/* The store the service uses (set by service_start). */
extern Store *svc_store;

/* Sets call->message and returns status. */
GameStatus svc_fail(GameCall *call, GameStatus status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Lets the caller read the game: GAME_OK, or GAME_NO_MEMORY when the reading ran out of memory. */
GameStatus svc_done(LiveGame *g, GameCall *call, int you);
/* Locks g for an action, up to date with the store. */
void svc_lock(LiveGame *g);
/* The caller's side (by its game token, or its account's seat), or -1 with the status set: a
 * player is needed (or, when `optional`, a given token must be a player's; the caller is
 * otherwise a spectator).  A side held by an account is that account's alone, and in a rated
 * game a side without one is no one's until an account joins. */
int svc_player(LiveGame *g, GameCall *call, bool optional, GameStatus *status);
/* The checks every action makes first: the game goes on and no flag has fallen. */
GameStatus svc_still_going(LiveGame *g, int64_t now, GameCall *call);
/* When the side to move's time has run out, ends the game; true when it did. */
bool svc_flag_fell(LiveGame *g, int64_t now);

Saved svc_save(const LiveGame *g);
/* Completes a change made in memory since `before` (a move: `move` with the state after it;
 * fewer moves than before: a takeback; else the state alone); `what` names it in messages. */
GameStatus svc_settle(LiveGame *g, const Saved *before, const MoveRow *move, const char *what, GameCall *call, int you);
/* Ends the game off the board through the rules core: `how` (resign, timeout) for `side`, or
 * by agreement when how is NULL. */
GameStatus svc_finish(LiveGame *g, void (*how)(Game *, int), int side, int64_t ended, GameCall *call);
/* Tells the observers that g changed; asks them for the engine's move when it is due. */
void svc_tell_changed(LiveGame *g);
/* Tells the observers that an account took `side` of g. */
void svc_tell_seated(LiveGame *g, int side);
void svc_want_engine_move(LiveGame *g);
/* When other processes share the store, brings g up to date with it (the observers hear
 * of a change as of this process's own). */
void svc_refresh(LiveGame *g);
/* The game's state as the store keeps it. */
GameState svc_state_of(const LiveGame *g);
/* After a commit whose answer was lost: does the store hold g as it is now? */
StoreResult svc_stored_or_not(const LiveGame *g);
/* The status of a change after the store's answer `stored`; `what` names it in messages. */
GameStatus svc_stored_status(GameStatus status, StoreResult stored, const LiveGame *g, const char *what,
                             GameCall *call);
/* Plays m, legal for the side to move, at `now`: the clocks, the offers it ends, the result it
 * gives, all stored as one change. */
GameStatus svc_play(LiveGame *g, Move m, int64_t now, GameCall *call, int you);
/* Copies the game's start and moves; false when memory runs out. */
bool svc_copy_game(const LiveGame *g, GameCopy *c);

#endif
