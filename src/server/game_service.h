/*
 * The game service: the domain work of the server.  It keeps the table of live games,
 * creates them, plays moves, resignations and draw offers, runs the clocks, and tells its
 * observers (the event streams, the engine workers) of every change.  It answers in domain
 * terms (GameStatus and a message); the HTTP layer (api.c) turns those into status codes.
 * Legality and game ends come from the rules core only.
 *
 * Locking: each live game has its own lock, and the service takes it: no caller locks a
 * game.  Every change happens under the game's lock, is stored in one transaction and then
 * told to the observers (called under the lock); when the store fails the change is undone.
 * A caller reads a game through a GameCall's `read` function, which the service calls under
 * the lock.  Lock order: the table -> a game -> (the store, an observer's own locks).
 *
 * Several processes on one store: when other processes share the store (PostgreSQL), every
 * unfinished game is in memory in each of them, and the store decides between their changes:
 * a change made on a game that another process has changed meanwhile fails (GAME_CONFLICT)
 * and the game is read again.  Each action first reads the game again from the store, and
 * the store tells of the other processes' changes as they are committed (the observers hear
 * of them as of this process's own); an engine move is searched by the one process that
 * claims it in the store, and a flag fall is stored by whichever process sees it first.
 *
 * Lifetime: whoever keeps a LiveGame pointer beyond the table's lock holds a reference to it:
 * a request from service_find until service_release, an event stream until it ends, a
 * queued engine job until the worker is done with it.  A reference is only made under the
 * table's lock or by a holder of one, so a game without references cannot be reached while
 * the table is locked: service_evict frees such games when they are over and have been idle
 * long enough.  An evicted game is loaded from the store again when it is next asked for.
 */
#ifndef STARFISH_SERVER_GAME_SERVICE_H
#define STARFISH_SERVER_GAME_SERVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "game_call.h"

/* The engine's move to think about. */
typedef struct EngineTask {
    GameCopy game;
    int skill;
    int movetime_ms;
    bool claimed; /* in a store that other processes share */
} EngineTask;

/* A draw offer for the engine to answer, playing engine_side. */
typedef struct DrawQuestion {
    GameCopy game;
    int engine_side;
    int asked; /* how often the engine has been asked (the game may move on meanwhile) */
} DrawQuestion;

/* Told of changes, under the game's lock; each callback may be NULL. */
typedef struct GameObserver {
    /* The game changed: a move, a result, a draw offer, a flag fall. */
    void (*changed)(void *ctx, LiveGame *g);
    /* An account took `side` of the game (when it was made, or by joining it). */
    void (*seated)(void *ctx, LiveGame *g, int side);
    /* The game ended (told after `changed`). */
    void (*finished)(void *ctx, LiveGame *g);
    /* The engine is to move in g.  True when a job is queued (holding a reference, taken
     * with service_hold); the service then asks no more until service_engine_task. */
    bool (*engine_to_move)(void *ctx, LiveGame *g);
    void *ctx;
} GameObserver;

/* Starts the service on a store (which it uses, not owns). */
void service_start(Store *store);
/* Adds an observer (at start, before any game is loaded or served); false when full. */
bool service_observe(const GameObserver *o);
/* Loads every unfinished game from the store; returns how many, or -1 on an error. */
int service_load_unfinished(void);
/* Frees every game (at shutdown, when no other thread runs). */
void service_free_all(void);

/* Creates a game from `initial` (its moves become the game's history; the service takes it
 * over and frees it).  call->read sees the game as its creator (the tokens are in it). */
GameStatus service_create(const GameOptions *o, Game *initial, GameCall *call);
/* The game with that id (loaded from the store when it is not in memory) in *g; the caller
 * holds a reference and gives it back with service_release.  GAME_NOT_FOUND when there is
 * none. */
GameStatus service_find(const char *id, LiveGame **g, GameCall *call);
/* Another reference to g, for a holder of one. */
void service_hold(LiveGame *g);
/* Gives back a reference; g must not be used after it. */
void service_release(LiveGame *g);

/* Reads the game (brought up to date: a fallen flag ends it first).  A token is optional;
 * one that is given must be a player's. */
GameStatus service_read(LiveGame *g, GameCall *call);
/* The same, for a player of the game only (its token or its account). */
GameStatus service_read_player(LiveGame *g, GameCall *call);
GameStatus service_move(LiveGame *g, GameCall *call, const char *move_text);
GameStatus service_resign(LiveGame *g, GameCall *call);
/* action: "offer", "accept" or "decline".  An offer to the engine gives GAME_ENGINE_DECIDES
 * with the question in *q: ask the engine, then answer with service_draw_answer.  The
 * caller frees q->game.moves in the end. */
GameStatus service_draw(LiveGame *g, GameCall *call, const char *action, DrawQuestion *q);
/* The engine's answer: accepted, the game is drawn by agreement; declined, nothing changes.
 * GAME_ENGINE_DECIDES again when the game moved on while the engine thought (a few times
 * at most): ask again about the new position. */
GameStatus service_draw_answer(LiveGame *g, GameCall *call, DrawQuestion *q, bool accepted);
/* Takebacks (action "offer", "accept" or "decline"): an accepted offer takes back the
 * offerer's last move, and the opponent's reply after it, and is stored as the moves'
 * removal.  The engine accepts at once in a game without a clock, and refuses otherwise
 * (GAME_NO_TAKEBACK); an offer stands until answered or until a move is played. */
GameStatus service_takeback(LiveGame *g, GameCall *call, const char *action);
/* Rematches of a finished game (action "offer", "accept" or "decline"): an accepted offer
 * (the engine accepts at once) makes a new game, colours swapped, the same variant, start and
 * clock, each player keeping their token; its id is then the old game's `rematch_id`. */
GameStatus service_rematch(LiveGame *g, GameCall *call, const char *action);
/* An account (seat: its id, name and rating now) joins the side that `invite` (that side's
 * token) is for: GAME_OWN_GAME when it holds the other side, GAME_SEAT_TAKEN when another
 * account holds this one.  Joining again is no change. */
GameStatus service_join(LiveGame *g, GameCall *call, const char *invite, const SeatRow *seat);
/* Either player ends the game with no result, before a side has made its first move (a
 * placement counts): no rating changes. */
GameStatus service_abort(LiveGame *g, GameCall *call);
/* The caller's side berserks (a tournament's game: the tournament service says whether it may):
 * half its clock, no increment, before its first move. */
GameStatus service_berserk(LiveGame *g, GameCall *call);
/* The caller claims the win (or, draw: a draw) against an opponent who has left a game with a
 * clock, both sides having moved, and has been gone for the claim delay (game_presence.h):
 * GAME_NO_CLAIM otherwise, its message saying why (and how long is left to wait). */
GameStatus service_claim(LiveGame *g, GameCall *call, bool draw);
/* The game as PGN (malloc'ed), NULL when memory runs out. */
char *service_pgn(LiveGame *g);

/* For the clock thread: ends every game whose side to move has run out of time, and asks
 * again for the engine's moves that could not be asked for. */
void service_check_flags(void);
/* Frees every game that is over, has no reference and was last used idle_ms or more ago;
 * returns how many. */
int service_evict(int64_t idle_ms);
/* Calls `each` (under the game's lock) for every unfinished game in which account user_id has a
 * side, oldest first: the store says which (a game made on another instance is read from it).
 * False when the store fails. */
bool service_each_seated(const char *user_id, void (*each)(void *ctx, LiveGame *g, int side), void *ctx);
/* Account user_id was closed: the games in memory show it so (those read from the store do). */
void service_account_closed(const char *user_id);
/* The game TV shows for variant v (store_tv_game): 1 found, 0 none, -1 when the store fails. */
int service_tv_game(const Variant *v, int64_t since, TvRow *tv);
/* How many games are in memory. */
int service_count(void);
/* The games of the query in the store, newest first (*rows malloc'ed). */
bool service_list(const ListQuery *q, ListRow **rows, int *n);

/* For the engine workers: the task for the engine's move (false when there is nothing to
 * do); after a task, always the reply: the move found (MOVE_NONE: none), played if the game
 * is still where the task left it. */
bool service_engine_task(LiveGame *g, EngineTask *t);
void service_engine_reply(LiveGame *g, const EngineTask *t, Move best);
void game_copy_free(GameCopy *c);

#endif
