/*
 * The game store, behind an interface.  The game service reaches the store only through a
 * Store: a table of operations (StoreOps) and the backend's own state, so that a second
 * backend (PostgreSQL) implements the same table and the service does not change.
 * store_sqlite.c is the first backend.
 *
 * Every change is one transaction, committed before the operation returns; a false return
 * means nothing was changed.  A backend serialises its own calls; callers take the store
 * after a game's lock, never before.
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
    int64_t created_ms, ended_ms;
} GameRow;

/* A move as stored. */
typedef struct MoveRow {
    char move[MOVE_TEXT_MAX]; /* coordinate notation */
    int64_t clock_ms;         /* the mover's time left after the move (increment added), -1: none */
    int64_t at_ms;            /* when it was stored */
} MoveRow;

/* What changes on a game with a move or an event: result, reason, end time, draw offer. */
typedef struct GameState {
    const char *result;
    const char *reason; /* NULL while the game goes on */
    int64_t ended_ms;   /* 0 while the game goes on */
    int draw_offer;
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

typedef struct StoreOps {
    /* Closes the store and frees it. */
    void (*close)(Store *s);
    /* A new game with the moves it starts with (an imported game's history). */
    bool (*insert_game)(Store *s, const GameRow *g, const MoveRow *moves, int n);
    /* A move (ply counts from 0) and the game's state after it. */
    bool (*append_move)(Store *s, const char *id, int ply, const MoveRow *m, const GameState *st);
    /* The game's state alone: a result off the board (resignation, agreement, flag fall)
     * or a draw offer made or withdrawn. */
    bool (*set_state)(Store *s, const char *id, const GameState *st);
    /* A takeback: the moves from ply `ply` on are removed, and the game's state set. */
    bool (*take_back)(Store *s, const char *id, int ply, const GameState *st);
    /* Is the id in use?  (true on an error, to stay safe) */
    bool (*id_taken)(Store *s, const char *id);
    /* Loads a game and its moves (*moves malloc'ed).  1 found, 0 not found, -1 error. */
    int (*load)(Store *s, const char *id, GameRow *g, MoveRow **moves, int *n);
    /* The ids of the unfinished games, oldest first (*ids malloc'ed). */
    bool (*load_unfinished)(Store *s, StoreId **ids, int *n);
    /* The `limit` newest games, newest first (*rows malloc'ed). */
    bool (*list)(Store *s, int limit, ListRow **rows, int *n);
} StoreOps;

/* What every backend's state begins with. */
struct Store {
    const StoreOps *ops;
};

#endif
