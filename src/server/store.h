/*
 * The SQLite store (WAL mode): tables `games` and `moves`.  Every change is one transaction,
 * committed before the function returns; a false return means nothing was changed.
 * One connection, serialised by the store's own mutex (take it after a game's lock, never
 * before).
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

/* A row of `games`. */
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

/* A row of `moves`. */
typedef struct MoveRow {
    char move[MOVE_TEXT_MAX]; /* coordinate notation */
    int64_t clock_ms;         /* the mover's time left after the move (increment added), -1: none */
    int64_t at_ms;            /* when it was stored */
} MoveRow;

/* What changes on a game's row with a move or an event: result, reason, end time, offer. */
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

bool store_open(const char *path, char *err, size_t errlen);
void store_close(void);

/* A new game with the moves it starts with (an imported game's history). */
bool store_insert_game(const GameRow *g, const MoveRow *moves, int n);
/* A move (ply counts from 0) and the game's state after it. */
bool store_add_move(const char *id, int ply, const MoveRow *m, const GameState *st);
/* The game's state alone (resignation, agreement, flag fall, draw offer). */
bool store_set_state(const char *id, const GameState *st);
/* Is the id in use?  (true on a database error, to stay safe) */
bool store_id_taken(const char *id);
/* Loads a game and its moves (*moves malloc'ed).  1 found, 0 not found, -1 error. */
int store_load(const char *id, GameRow *g, MoveRow **moves, int *n);
/* The ids of unfinished games (malloc'ed array of STORE_ID_MAX + 1 strings). */
bool store_unfinished(char (**ids)[STORE_ID_MAX + 1], int *n);
/* The `limit` newest games, newest first (malloc'ed). */
bool store_list(int limit, ListRow **rows, int *n);

#endif
