/*
 * The store: games and moves (and, in store_accounts.h, accounts and ratings), kept in SQLite
 * or PostgreSQL.  A backend (store_sqlite.c: one process owns the file; store_pg.c: shared by
 * any number of server processes) is a table of operations (StoreOps) that runs work on its
 * database, in a transaction for a change; the queries themselves are written once, in SQL
 * both databases read (sql.h), in store_games.c and store_accounts.c.
 *
 * Every change is one transaction, committed before the operation returns; a return other
 * than STORE_OK (or STORE_UNKNOWN: the caller reads the game again to know) means nothing
 * was changed.  A change to a game names the number of moves the caller knows it to have:
 * it is made only on a game still going with exactly those moves (else STORE_CONFLICT:
 * another process changed the game first), so the database, not a process's lock, decides
 * between concurrent changes.  (SQLite, owned by one process whose game locks order the
 * changes, meets no conflicts.)  A backend serialises its own calls; callers take the store
 * after a game's lock, never before.
 */
#ifndef STARFISH_SERVER_STORE_H
#define STARFISH_SERVER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/fen.h"
#include "../core/notation.h"
#include "sql.h"

#define STORE_ID_MAX 16
#define STORE_TOKEN_MAX 48
#define STORE_REASON_MAX 32
#define USER_ID_MAX 20 /* an account's name, and its id (the name in lower case) */

/* An account at a game, on one side (a seat); user "" for none (anonymous, or the engine). */
/* What kind of player an account is (users.bot): a person, a bot account (it plays through the
 * Bot API), or a bot of the house engine (the server's engine plays its moves). */
typedef enum BotKind { NOT_BOT = 0, BOT_ACCOUNT = 1, BOT_HOUSE = 2 } BotKind;

typedef struct SeatRow {
    char user[USER_ID_MAX + 1]; /* the account's id */
    char name[USER_ID_MAX + 1]; /* its name as typed (read with the game) */
    bool closed;                /* the account is closed (read with the game) */
    BotKind bot;                /* (read with the game) */
    int rating;                 /* when it came to the game; after a rated end, before that game */
    bool prov;                  /* that rating was provisional */
    bool has_diff;              /* a rated end has changed the rating by diff */
    int diff;
} SeatRow;

/* A rated game's end: the store applies it to both accounts' ratings in the transaction of
 * the game's result, and writes each seat's rating before it, prov and diff. */
typedef struct RatedEnd {
    const char *variant;
    double score; /* White's: 1, 0.5 or 0 */
    int64_t at_ms;
    SeatRow *seat; /* the game's two seats */
} RatedEnd;

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
    int days; /* correspondence: days a move; 0: none */
    char result[8]; /* "*" while the game goes on */
    char reason[STORE_REASON_MAX];
    int draw_offer; /* -1, WHITE or BLACK */
    int takeback_offer, rematch_offer; /* -1, WHITE or BLACK */
    char rematch_id[STORE_ID_MAX + 1]; /* "": none */
    bool joined[2]; /* has each player opened the game */
    int64_t created_ms, ended_ms;
    bool rated;
    SeatRow seat[2];
    char tournament[STORE_ID_MAX + 1]; /* the tournament it is a game of, or "" */
    bool berserk[2];                   /* each side's berserk (a tournament's: half its clock) */
} GameRow;

/* A move as stored. */
typedef struct MoveRow {
    char move[MOVE_TEXT_MAX]; /* coordinate notation */
    int64_t clock_ms;         /* the mover's time left after the move (increment added), -1: none */
    int64_t at_ms;            /* when it was stored */
} MoveRow;

/* What changes on a game with a move or an event: result, reason, end time, the players'
 * offers (draw, takeback, rematch: -1, WHITE or BLACK), their arrival, their accounts and,
 * at a rated game's end, the ratings. */
typedef struct GameState {
    const char *result;
    const char *reason; /* NULL while the game goes on */
    int64_t ended_ms;   /* 0 while the game goes on */
    int draw_offer, takeback_offer, rematch_offer;
    bool joined[2];
    const SeatRow *seat; /* both seats; an account once seated stays (else STORE_CONFLICT) */
    RatedEnd *rate;      /* a rated game's end, or NULL */
    bool berserk[2];
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
    bool rated;
    SeatRow seat[2];
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

/* The channels on which processes that share a store tell each other news: a game changed
 * or made (its id, sent at the change's commit), a message for the streams of a topic
 * (relay.c). */
#define STORE_GAMES_CHANNEL "starfish_games"
#define STORE_STREAMS_CHANNEL "starfish_streams"
/* Told (on a thread of the store's) of another process's news on a channel: its payload, or
 * NULL when news may have been lost (the connection to the database was lost a while). */
typedef void (*StoreNews)(void *ctx, const char *payload);

/* A piece of work on the database (see transact), its result. */
typedef StoreResult (*StoreWork)(Sql *sql, void *ctx);

typedef struct StoreOps {
    /* Closes the store and frees it. */
    void (*close)(Store *s);
    /* Runs work on the database.  A change (write) is one transaction, committed when work
     * returns STORE_OK and rolled back otherwise; STORE_FAILED or STORE_UNKNOWN then when the
     * commit fails or its answer is lost.  Reads (write false) run outside a transaction.
     * The backend serialises its own calls; work runs on a thread of its choosing while the
     * caller waits. */
    StoreResult (*transact)(Store *s, bool write, StoreWork work, void *ctx);

    /* The rest only for a store that other processes share (NULL otherwise). */
    /* Starts telling `news` of the other processes' notifications on `channel`. */
    bool (*watch)(Store *s, const char *channel, StoreNews news, void *ctx);
    /* Tells the other processes `payload` (at most 7,900 bytes) on `channel`, at once. */
    bool (*publish)(Store *s, const char *channel, const char *payload);
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

/* Do other processes share the store? */
static inline bool store_shared(const Store *s)
{
    return s->ops->watch != NULL;
}

/* For the store's own files (store.c): a read of one statement, its rows in q->rows (false
 * after an error, q->rows then empty); a change of one statement, in its own transaction
 * (*changes: the rows it changed, when not NULL). */
typedef struct StoreQuery {
    const char *text;
    int n;
    const char *const *params;
    SqlRows rows;
} StoreQuery;
bool store_query(Store *s, StoreQuery *q);
StoreResult store_change(Store *s, const char *text, int n, const char *const *params, long *changes);
/* Runs a read and turns each of its rows into an element of a malloc'ed array (*rows of *n
 * elements of `size` bytes) by `read`; false after an error or when memory runs out (*rows then
 * NULL, *n 0). */
bool store_read_rows(Store *s, StoreQuery *q, void *rows, int *n, size_t size,
                     void (*read)(const SqlRows *r, int row, void *out));
/* SQL_OK -> STORE_OK, anything else -> STORE_FAILED. */
StoreResult store_result(SqlStatus status);

/* The games and their moves (store_games.c), on any backend.  Every change is one
 * transaction; a change to a game names the number of moves the caller knows it to have,
 * and is made only on a game still going with exactly those moves (or finished with the
 * result the change keeps): else STORE_CONFLICT. */

/* A new game with the moves it starts with (an imported game's history).  A rematch
 * (rematch_of: the finished game's id, else NULL) becomes that game's rematch_id in the same
 * transaction, its rematch offer gone: STORE_CONFLICT when it has one already.  A game that
 * answers a challenge (from_challenge: the challenge has the game's id) marks it accepted in
 * the same transaction: STORE_CONFLICT when it is no longer open. */
StoreResult store_insert_game(Store *s, const GameRow *g, const MoveRow *moves, int n, const char *rematch_of,
                              bool from_challenge);
/* A move (ply counts from 0: the game has `ply` moves before it) and the state after it. */
StoreResult store_append_move(Store *s, const char *id, int ply, const MoveRow *m, const GameState *st);
/* The game's state alone, the game having `plies` moves: a result off the board
 * (resignation, agreement, flag fall), an offer made or withdrawn, a player's arrival.
 * On a finished game only a change that keeps its result (and end time) is made. */
StoreResult store_set_state(Store *s, const char *id, int plies, const GameState *st);
/* A takeback, the game having `plies` moves: the moves from ply `from` on are removed, and
 * the game's state set. */
StoreResult store_take_back(Store *s, const char *id, int plies, int from, const GameState *st);
/* Is the id in use?  (true on an error, to stay safe) */
bool store_id_taken(Store *s, const char *id);
/* The ids of the games account user_id plays that go on, oldest first (*ids malloc'ed). */
bool store_games_playing(Store *s, const char *user_id, StoreId **ids, int *n);

/* Loads a game and its moves (*moves malloc'ed).  1 found, 0 not found, -1 error. */
int store_load(Store *s, const char *id, GameRow *g, MoveRow **moves, int *n);
/* The ids of the unfinished games, oldest first (*ids malloc'ed). */
bool store_load_unfinished(Store *s, StoreId **ids, int *n);
/* Which games a list holds: the `limit` newest, of one account (user: its id) or all (NULL),
 * created before until_ms (0: any time). */
typedef struct ListQuery {
    int limit;
    const char *user;
    int64_t until_ms;
} ListQuery;
/* The games of the query, newest first (*rows malloc'ed). */
bool store_list(Store *s, const ListQuery *q, ListRow **rows, int *n);
/* How many games the store holds, finished or not (for the metrics); false on an error. */
bool store_count_games(Store *s, int64_t *n);

/* The game TV shows for a variant: one in play with a clock, made since `since`, whose best
 * rated player is the highest (then the newest). */
typedef struct TvRow {
    char id[STORE_ID_MAX + 1];
    int side; /* the best rated player's */
    SeatRow seat;
} TvRow;
/* 1 found, 0 none, -1 error. */
int store_tv_game(Store *s, const char *variant, int64_t since, TvRow *tv);

#endif
