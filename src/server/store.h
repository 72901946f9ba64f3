/*
 * The game store, behind an interface.  The game service reaches the store only through a
 * Store: a table of operations (StoreOps) and the backend's own state.  Two backends:
 * store_sqlite.c (one process owns the file) and store_pg.c (PostgreSQL, shared by any number
 * of server processes).
 *
 * Every change is one transaction, committed before the operation returns; a return other
 * than STORE_OK (or STORE_UNKNOWN: the caller reads the game again to know) means nothing
 * was changed.  A change to a game names the number of moves the
 * caller knows it to have: a store that processes share makes it only on a game still going
 * with exactly those moves (else STORE_CONFLICT: another process changed the game first), so
 * the database, not a process's lock, decides between concurrent changes.  (SQLite, owned by
 * one process whose game locks order the changes, has no conflicts.)  A backend serialises its own calls;
 * callers take the store after a game's lock, never before.
 */
#ifndef STARFISH_SERVER_STORE_H
#define STARFISH_SERVER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/fen.h"
#include "../core/notation.h"

#define STORE_ID_MAX 16
#define STORE_TOKEN_MAX 48
#define STORE_REASON_MAX 32

/* A game as stored: its settings and its state. */
typedef struct GameRow {
    char id[STORE_ID_MAX + 1];
    char variant[32];
    char start_fen[FEN_MAX];
    char token[2][STORE_TOKEN_MAX + 1];
    bool engine[2];
    int skill; /* -1: no engine */
    bool has_clock;
    int64_t base_ms, inc_ms;
    char result[8]; /* "*" while the game goes on */
    char reason[STORE_REASON_MAX];
    int draw_offer; /* -1, WHITE or BLACK */
    int takeback_offer, rematch_offer; /* -1, WHITE or BLACK */
    char rematch_id[STORE_ID_MAX + 1]; /* "": none */
    bool joined[2]; /* has each player opened the game */
    int64_t created_ms, ended_ms;
} GameRow;

/* A move as stored. */
typedef struct MoveRow {
    char move[MOVE_TEXT_MAX]; /* coordinate notation */
    int64_t clock_ms;         /* the mover's time left after the move (increment added), -1: none */
    int64_t at_ms;            /* when it was stored */
} MoveRow;

/* What changes on a game with a move or an event: result, reason, end time, the players'
 * offers (draw, takeback, rematch: -1, WHITE or BLACK) and their arrival. */
typedef struct GameState {
    const char *result;
    const char *reason; /* NULL while the game goes on */
    int64_t ended_ms;   /* 0 while the game goes on */
    int draw_offer, takeback_offer, rematch_offer;
    bool joined[2];
} GameState;

/* A line of the recent-games list. */
typedef struct ListRow {
    char id[STORE_ID_MAX + 1];
    char variant[32];
    char result[8];
    char reason[STORE_REASON_MAX];
    int moves;
    int64_t created_ms;
    bool engine[2];
} ListRow;

typedef char StoreId[STORE_ID_MAX + 1];
typedef struct Store Store;

typedef enum StoreResult {
    STORE_OK,
    STORE_CONFLICT, /* the game is over or has other moves than the caller knew of */
    STORE_FAILED,   /* the database failed (a full disk, a lost connection) */
    STORE_UNKNOWN,  /* the answer to the commit was lost (memory ran out in the client library,
                     * the connection broke): the change may or may not be stored */
} StoreResult;

/* Told (on a thread of the store's) that another process changed or created game `id`. */
typedef void (*StoreChanged)(void *ctx, const char *id);

typedef struct StoreOps {
    /* Closes the store and frees it. */
    void (*close)(Store *s);
    /* A new game with the moves it starts with (an imported game's history).  A rematch
     * (rematch_of: the finished game's id, else NULL) becomes that game's rematch_id in the
     * same transaction, its rematch offer gone: STORE_CONFLICT when it has one already. */
    StoreResult (*insert_game)(Store *s, const GameRow *g, const MoveRow *moves, int n, const char *rematch_of);
    /* A move (ply counts from 0: the game has `ply` moves before it) and the state after it. */
    StoreResult (*append_move)(Store *s, const char *id, int ply, const MoveRow *m, const GameState *st);
    /* The game's state alone, the game having `plies` moves: a result off the board
     * (resignation, agreement, flag fall), an offer made or withdrawn, a player's arrival.
     * On a finished game only a change that keeps its result (and end time) is made. */
    StoreResult (*set_state)(Store *s, const char *id, int plies, const GameState *st);
    /* A takeback, the game having `plies` moves: the moves from ply `from` on are removed, and
     * the game's state set. */
    StoreResult (*take_back)(Store *s, const char *id, int plies, int from, const GameState *st);
    /* Is the id in use?  (true on an error, to stay safe) */
    bool (*id_taken)(Store *s, const char *id);
    /* Loads a game and its moves (*moves malloc'ed).  1 found, 0 not found, -1 error. */
    int (*load)(Store *s, const char *id, GameRow *g, MoveRow **moves, int *n);
    /* The ids of the unfinished games, oldest first (*ids malloc'ed). */
    bool (*load_unfinished)(Store *s, StoreId **ids, int *n);
    /* The `limit` newest games, newest first (*rows malloc'ed). */
    bool (*list)(Store *s, int limit, ListRow **rows, int *n);
    /* How many games the store holds, finished or not (for the metrics); false on an error. */
    bool (*count_games)(Store *s, int64_t *n);

    /* The rest only for a store that other processes share (NULL otherwise). */
    /* Starts telling `changed` of the games other processes change or create. */
    bool (*watch)(Store *s, StoreChanged changed, void *ctx);
    /* Claims the engine's move at `ply` of game id for this process: false when another
     * process has it, or the game no longer has `ply` moves and goes on.  A claim ends with
     * unclaim, or with the process. */
    bool (*claim)(Store *s, const char *id, int ply);
    void (*unclaim)(Store *s, const char *id, int ply);
} StoreOps;

/* What every backend's state begins with. */
struct Store {
    const StoreOps *ops;
    const char *name; /* for messages: the file, or the database without its password */
};

#endif
