#include "store_pg.h"

#include <errno.h>
#include <inttypes.h>
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/types.h"
#include "metrics.h"
#include "store_schema.h"

#define CHANNEL "starfish_games"
#define UNIQUE_VIOLATION "23505"
#define RECONNECT_MS 500

/*
 * A pool of connections for the requests (each used by one thread at a time), one for the
 * claims (session locks: taken and let go of on one connection) and, once watch is called,
 * one for LISTEN on a thread of its own.  Every change to a game is a transaction that first takes
 * the game's row (UPDATE ... WHERE result = '*'), then checks its number of moves, so that of
 * two processes changing one game the second waits for the first and then finds the game
 * changed (STORE_CONFLICT); it ends with NOTIFY, which PostgreSQL delivers at commit.  A claim
 * is a session advisory lock on (the game, the ply), released by unclaim or when the
 * process's connection ends (a process killed with -9 loses its claims at once).
 */
typedef struct PgConn {
    PGconn *conn;
    atomic_int pid; /* its server process: notifications it sent are this process's own */
    struct PgConn *next_free;
} PgConn;

typedef struct PgStore {
    Store base;
    char *conninfo;
    char name[160]; /* the database as messages name it (no password) */
    PgConn *pool;
    int npool;
    PgConn *free_conns; /* the pool's connections not in use */
    pthread_mutex_t pool_lock;
    pthread_cond_t pool_freed;
    PgConn claimer; /* the claims' connection (and, at start, the migrations') */
    pthread_mutex_t claim_lock;
    PGconn *listen_conn;
    StoreChanged changed;
    void *ctx;
    bool listening;
    int quit_pipe[2];
    pthread_t listener;
} PgStore;

static PgStore *pg_of(Store *s)
{
    return (PgStore *)s;
}

static void log_error(PgConn *c, const char *what, const PGresult *r)
{
    metrics_store_error();
    const char *msg = r ? PQresultErrorMessage(r) : "";
    fprintf(stderr, "starfish: database: %s: %s", what, *msg ? msg : PQerrorMessage(c->conn));
    if (!*msg && !*PQerrorMessage(c->conn))
        fputc('\n', stderr);
}

/* A connection of the pool, for this thread alone until release (waiting for one to be free). */
static PgConn *acquire(PgStore *q)
{
    pthread_mutex_lock(&q->pool_lock);
    while (!q->free_conns)
        pthread_cond_wait(&q->pool_freed, &q->pool_lock);
    PgConn *c = q->free_conns;
    q->free_conns = c->next_free;
    pthread_mutex_unlock(&q->pool_lock);
    metrics_db_pool_use(+1);
    return c;
}

static void release(PgStore *q, PgConn *c)
{
    metrics_db_pool_use(-1);
    pthread_mutex_lock(&q->pool_lock);
    c->next_free = q->free_conns;
    q->free_conns = c;
    pthread_cond_signal(&q->pool_freed);
    pthread_mutex_unlock(&q->pool_lock);
}

/* Runs a statement with text parameters on a connection that the thread holds; after a lost
 * connection it connects again once and retries when `retry` (outside a transaction). */
static PGresult *run(PgConn *c, const char *sql, int n, const char *const *params, bool retry)
{
    PGresult *r = PQexecParams(c->conn, sql, n, NULL, params, NULL, NULL, 0);
    if (retry && PQstatus(c->conn) == CONNECTION_BAD) {
        PQclear(r);
        PQreset(c->conn);
        atomic_store(&c->pid, PQbackendPID(c->conn));
        r = PQexecParams(c->conn, sql, n, NULL, params, NULL, NULL, 0);
    }
    return r;
}

static bool succeeded(const PGresult *r)
{
    ExecStatusType st = PQresultStatus(r);
    return st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
}

/* Runs a statement that returns nothing of interest; false after a logged error. */
static bool command(PgConn *c, const char *sql, int n, const char *const *params, const char *what)
{
    PGresult *r = run(c, sql, n, params, false);
    bool ok = succeeded(r);
    if (!ok)
        log_error(c, what, r);
    PQclear(r);
    return ok;
}

static bool begin(PgConn *c)
{
    PGresult *r = run(c, "BEGIN", 0, NULL, true);
    bool ok = succeeded(r);
    if (!ok)
        log_error(c, "begin", r);
    PQclear(r);
    return ok;
}

/* Tells the other processes of a change to game id (at commit). */
static bool notify(PgConn *c, const char *id)
{
    return command(c, "SELECT pg_notify('" CHANNEL "', $1)", 1, &id, "notify");
}

/* Commits: STORE_FAILED when the database refused (its error has an SQLSTATE), STORE_UNKNOWN
 * when its answer was lost (libpq ran out of memory reading it, the connection broke). */
static StoreResult commit(PgConn *c)
{
    PGresult *r = run(c, "COMMIT", 0, NULL, false);
    StoreResult result = succeeded(r) ? STORE_OK : PQresultErrorField(r, PG_DIAG_SQLSTATE) ? STORE_FAILED : STORE_UNKNOWN;
    if (result != STORE_OK)
        log_error(c, "commit", r);
    PQclear(r);
    return result;
}

/* Ends a change's transaction: on STORE_OK, tells the other processes (NOTIFY) and commits;
 * otherwise rolls back.  The change's result. */
static StoreResult finish(PgConn *c, const char *id, StoreResult result)
{
    if (result == STORE_OK)
        result = notify(c, id) ? commit(c) : STORE_FAILED;
    if (result != STORE_OK && PQtransactionStatus(c->conn) != PQTRANS_IDLE)
        PQclear(PQexec(c->conn, "ROLLBACK"));
    return result;
}

/* A 64-bit number as a parameter's text in buf, or NULL (SQL NULL) when not `present`. */
static const char *int_param(char buf[24], bool present, int64_t value)
{
    if (!present)
        return NULL;
    snprintf(buf, 24, "%" PRId64, value);
    return buf;
}

static int64_t int_value(const PGresult *r, int row, int col)
{
    return strtoll(PQgetvalue(r, row, col), NULL, 10);
}

static void copy_value(char *out, size_t len, const PGresult *r, int row, int col)
{
    snprintf(out, len, "%s", PQgetvalue(r, row, col));
}

/* ---- Changes ------------------------------------------------------------------------------ */

static bool insert_move(PgConn *c, const char *id, int ply, const MoveRow *m, bool *conflict)
{
    char ply_text[24], clock[24], at[24];
    const char *params[] = {id, int_param(ply_text, true, ply), m->move, int_param(clock, m->clock_ms >= 0, m->clock_ms),
                            int_param(at, true, m->at_ms)};
    PGresult *r = run(c, "INSERT INTO moves (game_id, ply, move, clock_ms, at_ms) VALUES ($1, $2, $3, $4, $5)", 5,
                      params, false);
    bool ok = succeeded(r);
    const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    *conflict = !ok && state && strcmp(state, UNIQUE_VIOLATION) == 0;
    if (!ok && !*conflict)
        log_error(c, "insert move", r);
    PQclear(r);
    return ok;
}

/* Runs an UPDATE of one game's row: STORE_CONFLICT when its condition leaves no row. */
static StoreResult update_one(PgConn *c, const char *sql, int n, const char *const *params, const char *what)
{
    PGresult *r = run(c, sql, n, params, false);
    StoreResult result = !succeeded(r) ? STORE_FAILED : atoi(PQcmdTuples(r)) == 1 ? STORE_OK : STORE_CONFLICT;
    if (result == STORE_FAILED)
        log_error(c, what, r);
    PQclear(r);
    return result;
}

/* Takes the row of a game still going, or finished with the result that the state keeps
 * (waiting for another process's change to it to end), and sets its state, then checks that
 * it has `plies` moves. */
static StoreResult take_game(PgConn *c, const char *id, int plies, const GameState *s)
{
    char ended[24];
    const char *params[] = {id,
                            s->result,
                            s->reason,
                            int_param(ended, s->ended_ms > 0, s->ended_ms),
                            schema_side_text(s->draw_offer),
                            schema_side_text(s->takeback_offer),
                            schema_side_text(s->rematch_offer),
                            s->joined[WHITE] ? "1" : "0",
                            s->joined[BLACK] ? "1" : "0"};
    StoreResult result =
        update_one(c,
                   "UPDATE games SET result = $2, reason = $3, ended_ms = $4, draw_offer = $5, takeback_offer = $6, "
                   "rematch_offer = $7, white_joined = $8, black_joined = $9 "
                   "WHERE id = $1 AND (result = '*' OR (result = $2 AND ended_ms IS NOT DISTINCT FROM $4))",
                   9, params, "update game");
    if (result != STORE_OK)
        return result;
    /* A statement of its own, so that it sees the moves committed while it waited for the row. */
    PGresult *r = run(c, "SELECT count(*) FROM moves WHERE game_id = $1", 1, params, false);
    result = !succeeded(r) ? STORE_FAILED : int_value(r, 0, 0) == plies ? STORE_OK : STORE_CONFLICT;
    if (result == STORE_FAILED)
        log_error(c, "count moves", r);
    PQclear(r);
    return result;
}

static StoreResult pg_append_move(Store *s, const char *id, int ply, const MoveRow *m, const GameState *st)
{
    PgStore *q = pg_of(s);
    PgConn *c = acquire(q);
    StoreResult result = begin(c) ? take_game(c, id, ply, st) : STORE_FAILED;
    bool conflict = false;
    if (result == STORE_OK && !insert_move(c, id, ply, m, &conflict))
        result = conflict ? STORE_CONFLICT : STORE_FAILED;
    result = finish(c, id, result);
    release(q, c);
    return result;
}

static StoreResult pg_set_state(Store *s, const char *id, int plies, const GameState *st)
{
    PgStore *q = pg_of(s);
    PgConn *c = acquire(q);
    StoreResult result = finish(c, id, begin(c) ? take_game(c, id, plies, st) : STORE_FAILED);
    release(q, c);
    return result;
}

static StoreResult pg_take_back(Store *s, const char *id, int plies, int from, const GameState *st)
{
    PgStore *q = pg_of(s);
    char from_text[24];
    const char *params[] = {id, int_param(from_text, true, from)};
    PgConn *c = acquire(q);
    StoreResult result = begin(c) ? take_game(c, id, plies, st) : STORE_FAILED;
    if (result == STORE_OK &&
        !command(c, "DELETE FROM moves WHERE game_id = $1 AND ply >= $2", 2, params, "take back moves"))
        result = STORE_FAILED;
    result = finish(c, id, result);
    release(q, c);
    return result;
}

static bool insert_game_row(PgConn *c, const GameRow *g)
{
    char skill[24], base[24], inc[24], created[24], ended[24];
    const char *params[] = {g->id,
                            g->variant,
                            g->start_fen,
                            g->token[WHITE],
                            g->token[BLACK],
                            g->engine[WHITE] ? "engine" : "human",
                            g->engine[BLACK] ? "engine" : "human",
                            int_param(skill, g->skill >= 0, g->skill),
                            int_param(base, g->has_clock, g->base_ms),
                            int_param(inc, g->has_clock, g->inc_ms),
                            g->result,
                            g->reason[0] ? g->reason : NULL,
                            schema_side_text(g->draw_offer),
                            int_param(created, true, g->created_ms),
                            int_param(ended, g->ended_ms > 0, g->ended_ms),
                            g->joined[WHITE] ? "1" : "0",
                            g->joined[BLACK] ? "1" : "0"};
    return command(c,
                   "INSERT INTO games (id, variant, start_fen, white_token, black_token, white, black, skill, base_ms, "
                   "inc_ms, result, reason, draw_offer, created_ms, ended_ms, white_joined, black_joined) "
                   "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
                   17, params, "insert game");
}

/* Makes `id` the rematch of game `of` (told to the other processes), unless it has one. */
static StoreResult set_rematch(PgConn *c, const char *of, const char *id)
{
    const char *params[] = {of, id};
    StoreResult result = update_one(
        c, "UPDATE games SET rematch_id = $2, rematch_offer = NULL WHERE id = $1 AND rematch_id IS NULL", 2, params,
        "rematch");
    return result == STORE_OK && !notify(c, of) ? STORE_FAILED : result;
}

static StoreResult pg_insert_game(Store *s, const GameRow *g, const MoveRow *moves, int n, const char *rematch_of)
{
    PgStore *q = pg_of(s);
    PgConn *c = acquire(q);
    bool ok = begin(c) && insert_game_row(c, g);
    for (int i = 0; ok && i < n; i++) {
        bool conflict; /* none possible: the game is new */
        ok = insert_move(c, g->id, i, &moves[i], &conflict);
    }
    StoreResult result = !ok ? STORE_FAILED : rematch_of ? set_rematch(c, rematch_of, g->id) : STORE_OK;
    result = finish(c, g->id, result);
    release(q, c);
    return result;
}

/* ---- Reading ------------------------------------------------------------------------------ */

/* Runs a query on connection c, which the thread holds; NULL after a logged error. */
static PGresult *query_on(PgConn *c, const char *sql, int n, const char *const *params, const char *what)
{
    PGresult *r = run(c, sql, n, params, true);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        log_error(c, what, r);
        PQclear(r);
        r = NULL;
    }
    return r;
}

/* Runs a query on a connection of the pool. */
static PGresult *query(PgStore *q, const char *sql, int n, const char *const *params, const char *what)
{
    PgConn *c = acquire(q);
    PGresult *r = query_on(c, sql, n, params, what);
    release(q, c);
    return r;
}

/* Runs a query on the claims' connection. */
static PGresult *claim_query(PgStore *q, const char *sql, int n, const char *const *params, const char *what)
{
    pthread_mutex_lock(&q->claim_lock);
    PGresult *r = query_on(&q->claimer, sql, n, params, what);
    pthread_mutex_unlock(&q->claim_lock);
    return r;
}

static bool pg_id_taken(Store *s, const char *id)
{
    PGresult *r = query(pg_of(s), "SELECT 1 FROM games WHERE id = $1", 1, &id, "look up an id");
    bool taken = !r || PQntuples(r) > 0;
    PQclear(r);
    return taken;
}

static bool pg_count_games(Store *s, int64_t *n)
{
    PGresult *r = query(pg_of(s), "SELECT count(*) FROM games", 0, NULL, "count the games");
    bool counted = r && PQntuples(r) == 1;
    if (counted)
        *n = int_value(r, 0, 0);
    PQclear(r);
    return counted;
}

static void read_game_row(const PGresult *r, GameRow *g)
{
    memset(g, 0, sizeof *g);
    copy_value(g->id, sizeof g->id, r, 0, 0);
    copy_value(g->variant, sizeof g->variant, r, 0, 1);
    copy_value(g->start_fen, sizeof g->start_fen, r, 0, 2);
    copy_value(g->token[WHITE], sizeof g->token[WHITE], r, 0, 3);
    copy_value(g->token[BLACK], sizeof g->token[BLACK], r, 0, 4);
    g->engine[WHITE] = strcmp(PQgetvalue(r, 0, 5), "engine") == 0;
    g->engine[BLACK] = strcmp(PQgetvalue(r, 0, 6), "engine") == 0;
    g->skill = PQgetisnull(r, 0, 7) ? -1 : (int)int_value(r, 0, 7);
    g->has_clock = !PQgetisnull(r, 0, 8);
    g->base_ms = int_value(r, 0, 8);
    g->inc_ms = int_value(r, 0, 9);
    copy_value(g->result, sizeof g->result, r, 0, 10);
    copy_value(g->reason, sizeof g->reason, r, 0, 11);
    g->draw_offer = PQgetisnull(r, 0, 12) ? -1 : schema_side_of(PQgetvalue(r, 0, 12));
    g->created_ms = int_value(r, 0, 13);
    g->ended_ms = int_value(r, 0, 14);
    g->takeback_offer = PQgetisnull(r, 0, 15) ? -1 : schema_side_of(PQgetvalue(r, 0, 15));
    g->rematch_offer = PQgetisnull(r, 0, 16) ? -1 : schema_side_of(PQgetvalue(r, 0, 16));
    copy_value(g->rematch_id, sizeof g->rematch_id, r, 0, 17);
    g->joined[WHITE] = int_value(r, 0, 18) != 0;
    g->joined[BLACK] = int_value(r, 0, 19) != 0;
}

#define MOVE_COLUMN 20 /* where a move's columns begin in pg_load's rows */

/* The game and its moves in one statement, so in one snapshot: a row per move (one with
 * NULL moves for a game without any). */
static int pg_load(Store *s, const char *id, GameRow *g, MoveRow **moves, int *n)
{
    *moves = NULL;
    *n = 0;
    PGresult *r = query(pg_of(s),
                        "SELECT g.id, g.variant, g.start_fen, g.white_token, g.black_token, g.white, g.black, g.skill, "
                        "g.base_ms, g.inc_ms, g.result, g.reason, g.draw_offer, g.created_ms, g.ended_ms, "
                        "g.takeback_offer, g.rematch_offer, g.rematch_id, g.white_joined, g.black_joined, m.move, "
                        "m.clock_ms, m.at_ms FROM games g LEFT JOIN moves m ON m.game_id = g.id WHERE g.id = $1 "
                        "ORDER BY m.ply",
                        1, &id, "load game");
    if (!r)
        return -1;
    int rows = PQntuples(r), found = rows > 0;
    if (found)
        read_game_row(r, g);
    if (rows > 0 && !PQgetisnull(r, 0, MOVE_COLUMN)) {
        *moves = calloc((size_t)rows, sizeof **moves);
        found = *moves ? 1 : -1;
        for (int i = 0; *moves && i < rows; i++) {
            MoveRow *m = &(*moves)[(*n)++];
            copy_value(m->move, sizeof m->move, r, i, MOVE_COLUMN);
            m->clock_ms = PQgetisnull(r, i, MOVE_COLUMN + 1) ? -1 : int_value(r, i, MOVE_COLUMN + 1);
            m->at_ms = int_value(r, i, MOVE_COLUMN + 2);
        }
    }
    PQclear(r);
    return found;
}

static bool pg_load_unfinished(Store *s, StoreId **ids, int *n)
{
    *ids = NULL;
    *n = 0;
    PGresult *r =
        query(pg_of(s), "SELECT id FROM games WHERE result = '*' ORDER BY created_ms", 0, NULL, "list unfinished games");
    if (!r)
        return false;
    int rows = PQntuples(r), cap = 0;
    bool ok = true;
    for (int i = 0; ok && i < rows; i++)
        if ((ok = schema_grow_array(ids, &cap, *n, sizeof **ids)))
            copy_value((*ids)[(*n)++], sizeof **ids, r, i, 0);
    PQclear(r);
    return ok;
}

static bool pg_list(Store *s, int limit, ListRow **rows, int *n)
{
    char limit_text[24];
    const char *param = int_param(limit_text, true, limit);
    *n = 0;
    *rows = NULL;
    PGresult *r = query(pg_of(s),
                        "SELECT g.id, g.variant, g.result, coalesce(g.reason, ''), g.created_ms, g.white, g.black, "
                        "(SELECT count(*) FROM moves m WHERE m.game_id = g.id) "
                        "FROM games g ORDER BY g.created_ms DESC, g.id DESC LIMIT $1",
                        1, &param, "list games");
    if (!r)
        return false;
    int count = PQntuples(r);
    *rows = calloc((size_t)(count > 0 ? count : 1), sizeof **rows);
    for (int i = 0; *rows && i < count; i++) {
        ListRow *row = &(*rows)[(*n)++];
        copy_value(row->id, sizeof row->id, r, i, 0);
        copy_value(row->variant, sizeof row->variant, r, i, 1);
        copy_value(row->result, sizeof row->result, r, i, 2);
        copy_value(row->reason, sizeof row->reason, r, i, 3);
        row->created_ms = int_value(r, i, 4);
        row->engine[WHITE] = strcmp(PQgetvalue(r, i, 5), "engine") == 0;
        row->engine[BLACK] = strcmp(PQgetvalue(r, i, 6), "engine") == 0;
        row->moves = (int)int_value(r, i, 7);
    }
    PQclear(r);
    return *rows != NULL;
}

/* ---- Other processes: claims and notifications -------------------------------------------- */

static bool pg_claim(Store *s, const char *id, int ply)
{
    char ply_text[24];
    const char *params[] = {id, int_param(ply_text, true, ply)};
    PgStore *q = pg_of(s);
    PGresult *r =
        claim_query(q, "SELECT pg_try_advisory_lock(hashtext($1), $2::int)", 2, params, "claim an engine move");
    bool claimed = r && strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    PQclear(r);
    if (!claimed)
        return false;
    /* The move may have been made (and its claim let go) before this claim: look again. */
    r = query(q, "SELECT (SELECT count(*) FROM moves WHERE game_id = $1) = $2::int FROM games "
                 "WHERE id = $1 AND result = '*'",
              2, params, "check a claim");
    bool current = r && PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "t") == 0;
    PQclear(r);
    if (!current)
        s->ops->unclaim(s, id, ply);
    return current;
}

static void pg_unclaim(Store *s, const char *id, int ply)
{
    char ply_text[24];
    const char *params[] = {id, int_param(ply_text, true, ply)};
    PQclear(claim_query(pg_of(s), "SELECT pg_advisory_unlock(hashtext($1), $2::int)", 2, params, "end a claim"));
}

/* Connects the listening connection and listens; false after a message. */
static bool listen_connect(PgStore *q)
{
    if (q->listen_conn)
        PQfinish(q->listen_conn);
    q->listen_conn = PQconnectdb(q->conninfo);
    PGresult *r = PQstatus(q->listen_conn) == CONNECTION_OK ? PQexec(q->listen_conn, "LISTEN " CHANNEL) : NULL;
    bool ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok)
        fprintf(stderr, "starfish: database: cannot listen on %s: %s", q->name, PQerrorMessage(q->listen_conn));
    PQclear(r);
    return ok;
}

/* Waits for the listening connection (or the quit pipe); false when told to quit. */
static bool wait_for_news(PgStore *q, bool connected)
{
    struct pollfd fds[2] = {{q->quit_pipe[0], POLLIN, 0}, {connected ? PQsocket(q->listen_conn) : -1, POLLIN, 0}};
    while (poll(fds, 2, connected ? -1 : RECONNECT_MS) < 0)
        if (errno != EINTR)
            return false;
    return !(fds[0].revents & POLLIN);
}

/* Did this process's connections send the notification from server process pid? */
static bool own_notice(PgStore *q, int pid)
{
    for (int i = 0; i < q->npool; i++)
        if (atomic_load(&q->pool[i].pid) == pid)
            return true;
    return false;
}

/* The listening thread: tells of every notification but this process's own.  After a lost
 * connection it connects again and tells of every game (NULL), some news may be lost. */
static void *listener(void *arg)
{
    PgStore *q = arg;
    bool connected = true;
    while (wait_for_news(q, connected)) {
        if (!connected) {
            if ((connected = listen_connect(q)))
                q->changed(q->ctx, NULL);
            continue;
        }
        if (!PQconsumeInput(q->listen_conn)) {
            connected = false;
            continue;
        }
        for (PGnotify *n; (n = PQnotifies(q->listen_conn)); PQfreemem(n))
            if (!own_notice(q, n->be_pid))
                q->changed(q->ctx, n->extra);
    }
    return NULL;
}

static bool pg_watch(Store *s, StoreChanged changed, void *ctx)
{
    PgStore *q = pg_of(s);
    q->changed = changed;
    q->ctx = ctx;
    if (pipe(q->quit_pipe) != 0)
        return false;
    if (listen_connect(q) && pthread_create(&q->listener, NULL, listener, q) == 0)
        return q->listening = true;
    close(q->quit_pipe[0]);
    close(q->quit_pipe[1]);
    return false;
}

/* Closes the connections and frees q. */
static void free_store(PgStore *q)
{
    for (int i = 0; i < q->npool; i++)
        PQfinish(q->pool[i].conn);
    PQfinish(q->claimer.conn);
    pthread_mutex_destroy(&q->pool_lock);
    pthread_cond_destroy(&q->pool_freed);
    pthread_mutex_destroy(&q->claim_lock);
    free(q->pool);
    free(q->conninfo);
    free(q);
}

static void pg_close(Store *s)
{
    PgStore *q = pg_of(s);
    if (q->listening) {
        if (write(q->quit_pipe[1], "q", 1) != 1)
            perror("starfish: database listener");
        pthread_join(q->listener, NULL);
        close(q->quit_pipe[0]);
        close(q->quit_pipe[1]);
    }
    if (q->listen_conn)
        PQfinish(q->listen_conn);
    free_store(q);
}

static const StoreOps pg_ops = {
    .close = pg_close,
    .insert_game = pg_insert_game,
    .append_move = pg_append_move,
    .set_state = pg_set_state,
    .take_back = pg_take_back,
    .id_taken = pg_id_taken,
    .load = pg_load,
    .load_unfinished = pg_load_unfinished,
    .list = pg_list,
    .count_games = pg_count_games,
    .watch = pg_watch,
    .claim = pg_claim,
    .unclaim = pg_unclaim,
};

/* ---- The schema --------------------------------------------------------------------------- */

static bool schema_exec(void *db, const char *sql)
{
    PGresult *r = PQexec(db, sql);
    bool ok = succeeded(r);
    PQclear(r);
    return ok;
}

static bool schema_query_int(void *db, const char *sql, const char *arg1, const char *arg2, int *out)
{
    const char *params[] = {arg1, arg2};
    PGresult *r = PQexecParams(db, sql, arg2 ? 2 : arg1 ? 1 : 0, NULL, params, NULL, NULL, 0);
    bool ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
    if (ok)
        *out = atoi(PQgetvalue(r, 0, 0));
    PQclear(r);
    return ok;
}

static const char *schema_error(void *db)
{
    return PQerrorMessage(db);
}

/* Brings the database to the current schema, in one transaction; server processes starting
 * together take turns (a transaction advisory lock). */
static bool migrate(PgStore *q, char *err, size_t errlen)
{
    PGconn *conn = q->claimer.conn;
    SchemaAccess access = {
        conn, q->name, schema_exec, schema_query_int, schema_error,
        "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = $1",
        "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()",
        "SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 "
        "AND column_name = $2",
    };
    bool ok = schema_exec(conn, "BEGIN") && schema_exec(conn, "SELECT pg_advisory_xact_lock(hashtext('starfish "
                                                                    "schema'))");
    if (!ok)
        snprintf(err, errlen, "cannot use %s: %s", q->name, PQerrorMessage(conn));
    ok = ok && schema_migrate(&access, err, errlen);
    if (ok && schema_exec(conn, "COMMIT"))
        return true;
    if (ok)
        snprintf(err, errlen, "cannot write %s: %s", q->name, PQerrorMessage(conn));
    schema_exec(conn, "ROLLBACK");
    return false;
}

/* How messages name the database: user@host:port/dbname, never the password. */
static void name_database(PgStore *q, PGconn *conn)
{
    const char *host = PQhost(conn);
    snprintf(q->name, sizeof q->name, "postgresql://%s@%s:%s/%s", PQuser(conn), host && *host ? host : "localhost",
             PQport(conn), PQdb(conn));
}

bool store_pg_wanted(const char *db)
{
    return strncmp(db, "postgresql:", 11) == 0 || strncmp(db, "postgres:", 9) == 0 || strchr(db, '=') != NULL;
}

/* Connects c; false with err set (libpq's message on one line). */
static bool connect_one(PgStore *q, PgConn *c, char *err, size_t errlen)
{
    c->conn = PQconnectdb(q->conninfo);
    if (PQstatus(c->conn) == CONNECTION_OK) {
        atomic_store(&c->pid, PQbackendPID(c->conn));
        return true;
    }
    snprintf(err, errlen, "cannot connect to the database: %s", PQerrorMessage(c->conn));
    err[strcspn(err, "\n")] = '\0'; /* libpq's messages end with a newline */
    return false;
}

/* The pool's connections, all free. */
static bool connect_pool(PgStore *q, char *err, size_t errlen)
{
    for (int i = 0; i < q->npool; i++) {
        if (!connect_one(q, &q->pool[i], err, errlen))
            return false;
        q->pool[i].next_free = q->free_conns;
        q->free_conns = &q->pool[i];
    }
    metrics_db_pool_size(q->npool);
    return true;
}

Store *store_pg_open(const char *conninfo, int pool, char *err, size_t errlen)
{
    PgStore *q = calloc(1, sizeof *q);
    if (!q || !(q->conninfo = strdup(conninfo)) || !(q->pool = calloc((size_t)pool, sizeof *q->pool))) {
        if (q)
            free(q->conninfo);
        free(q);
        snprintf(err, errlen, "cannot open the database: out of memory");
        return NULL;
    }
    q->npool = pool;
    pthread_mutex_init(&q->pool_lock, NULL);
    pthread_cond_init(&q->pool_freed, NULL);
    pthread_mutex_init(&q->claim_lock, NULL);
    if (connect_one(q, &q->claimer, err, errlen)) {
        name_database(q, q->claimer.conn);
        if (migrate(q, err, errlen) && connect_pool(q, err, errlen)) {
            q->base.ops = &pg_ops;
            q->base.name = q->name;
            return &q->base;
        }
        err[strcspn(err, "\n")] = '\0';
    }
    free_store(q);
    return NULL;
}
