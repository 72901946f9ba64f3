#include "store_sqlite.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/types.h"
#include "metrics.h"
#include "store_schema.h"

/* A change waiting to be written: each is made inside its own savepoint of a batch's
 * transaction; the caller waits (on its own stack) until the batch is committed. */
typedef struct Write {
    StoreResult (*apply)(sqlite3 *db, const struct Write *w);
    const GameRow *game; /* insert: the game and the moves it starts with, the game it is a */
    const MoveRow *moves; /* rematch of (or NULL) */
    int n;
    const char *rematch_of;
    const char *id; /* a move (ply, move) and the state after it, the state alone, or a takeback
                     * (the moves from `from` on removed) */
    int from;
    int ply;
    const MoveRow *move;
    const GameState *state;
    bool done;
    StoreResult result;
    struct Write *next;
} Write;

/*
 * Group commit: changes are written by one thread, in batches of whatever has queued up
 * meanwhile, one transaction (and one fsync, synchronous=FULL) per batch, each change in a
 * savepoint of its own so that one that fails leaves the others.  Concurrent moves in
 * different games share their fsync instead of queueing for one each; a caller still returns
 * only once its change is on disk.
 */
typedef struct SqliteStore {
    Store base;
    sqlite3 *db;
    pthread_mutex_t lock; /* one statement or transaction at a time on the connection */
    pthread_mutex_t queue_lock;
    pthread_cond_t queued, written;
    Write *head, *tail;
    bool quit;
    pthread_t writer;
} SqliteStore;

static SqliteStore *sqlite_of(Store *s)
{
    return (SqliteStore *)s;
}

static void log_error(sqlite3 *db, const char *what)
{
    metrics_store_error();
    fprintf(stderr, "starfish: database: %s: %s\n", what, sqlite3_errmsg(db));
}

static bool is_engine(sqlite3_stmt *st, int column)
{
    const unsigned char *text = sqlite3_column_text(st, column);
    return text && strcmp((const char *)text, "engine") == 0;
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *text)
{
    if (text)
        sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

/* Binds a time or amount that only exists when `present` (NULL otherwise). */
static void bind_int64_or_null(sqlite3_stmt *st, int i, bool present, int64_t value)
{
    if (present)
        sqlite3_bind_int64(st, i, value);
    else
        sqlite3_bind_null(st, i);
}

static void copy_text(char *out, size_t len, const unsigned char *text)
{
    snprintf(out, len, "%s", text ? (const char *)text : "");
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql, const char *what)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
        log_error(db, what);
        return NULL;
    }
    return st;
}

/* Runs a prepared statement that returns no rows and finalizes it. */
static bool run(sqlite3 *db, sqlite3_stmt *st, const char *what)
{
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE)
        log_error(db, what);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE;
}

static bool begin(sqlite3 *db)
{
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK)
        return true;
    log_error(db, "begin");
    return false;
}

/* Commits when ok, else (or when the commit fails) rolls back. */
static bool commit_if(sqlite3 *db, bool ok)
{
    if (ok && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return true;
    if (ok)
        log_error(db, "commit");
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return false;
}

static bool insert_move(sqlite3 *db, const char *id, int ply, const MoveRow *m)
{
    sqlite3_stmt *st =
        prepare(db, "INSERT INTO moves (game_id, ply, move, clock_ms, at_ms) VALUES (?, ?, ?, ?, ?)", "insert move");
    if (!st)
        return false;
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, ply);
    sqlite3_bind_text(st, 3, m->move, -1, SQLITE_TRANSIENT);
    bind_int64_or_null(st, 4, m->clock_ms >= 0, m->clock_ms);
    sqlite3_bind_int64(st, 5, m->at_ms);
    return run(db, st, "insert move");
}

static bool delete_moves_from(sqlite3 *db, const char *id, int ply)
{
    sqlite3_stmt *st = prepare(db, "DELETE FROM moves WHERE game_id = ? AND ply >= ?", "take back moves");
    if (!st)
        return false;
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, ply);
    return run(db, st, "take back moves");
}

/* One process owns the file and its game locks order the changes: no conflict to look for. */
static bool update_state(sqlite3 *db, const char *id, const GameState *s)
{
    sqlite3_stmt *st =
        prepare(db,
                "UPDATE games SET result = ?, reason = ?, ended_ms = ?, draw_offer = ?, takeback_offer = ?, "
                "rematch_offer = ?, white_joined = ?, black_joined = ? WHERE id = ?",
                "update game");
    if (!st)
        return false;
    sqlite3_bind_text(st, 1, s->result, -1, SQLITE_TRANSIENT);
    bind_text_or_null(st, 2, s->reason);
    bind_int64_or_null(st, 3, s->ended_ms > 0, s->ended_ms);
    bind_text_or_null(st, 4, schema_side_text(s->draw_offer));
    bind_text_or_null(st, 5, schema_side_text(s->takeback_offer));
    bind_text_or_null(st, 6, schema_side_text(s->rematch_offer));
    sqlite3_bind_int(st, 7, s->joined[WHITE]);
    sqlite3_bind_int(st, 8, s->joined[BLACK]);
    sqlite3_bind_text(st, 9, id, -1, SQLITE_TRANSIENT);
    if (!run(db, st, "update game"))
        return false;
    if (sqlite3_changes(db) != 1) {
        fprintf(stderr, "starfish: database: game %s not found for an update\n", id);
        return false;
    }
    return true;
}

static bool insert_game_row(sqlite3 *db, const GameRow *g)
{
    sqlite3_stmt *st = prepare(db,
                               "INSERT INTO games (id, variant, start_fen, white_token, black_token, white, black, "
                               "skill, base_ms, inc_ms, result, reason, draw_offer, created_ms, ended_ms, "
                               "white_joined, black_joined) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               "insert game");
    if (!st)
        return false;
    sqlite3_bind_text(st, 1, g->id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, g->variant, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, g->start_fen, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, g->token[WHITE], -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, g->token[BLACK], -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 6, g->engine[WHITE] ? "engine" : "human", -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 7, g->engine[BLACK] ? "engine" : "human", -1, SQLITE_STATIC);
    bind_int64_or_null(st, 8, g->skill >= 0, g->skill);
    bind_int64_or_null(st, 9, g->has_clock, g->base_ms);
    bind_int64_or_null(st, 10, g->has_clock, g->inc_ms);
    sqlite3_bind_text(st, 11, g->result, -1, SQLITE_TRANSIENT);
    bind_text_or_null(st, 12, g->reason[0] ? g->reason : NULL);
    bind_text_or_null(st, 13, schema_side_text(g->draw_offer));
    sqlite3_bind_int64(st, 14, g->created_ms);
    bind_int64_or_null(st, 15, g->ended_ms > 0, g->ended_ms);
    sqlite3_bind_int(st, 16, g->joined[WHITE]);
    sqlite3_bind_int(st, 17, g->joined[BLACK]);
    return run(db, st, "insert game");
}

/* Makes `id` the rematch of game `of`, unless it has one. */
static StoreResult set_rematch(sqlite3 *db, const char *of, const char *id)
{
    sqlite3_stmt *st = prepare(
        db, "UPDATE games SET rematch_id = ?, rematch_offer = NULL WHERE id = ? AND rematch_id IS NULL", "rematch");
    if (!st)
        return STORE_FAILED;
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, of, -1, SQLITE_TRANSIENT);
    if (!run(db, st, "rematch"))
        return STORE_FAILED;
    return sqlite3_changes(db) == 1 ? STORE_OK : STORE_CONFLICT;
}

/* ---- Writing: group commit -------------------------------------------------------------- */

static StoreResult apply_insert(sqlite3 *db, const Write *w)
{
    bool ok = insert_game_row(db, w->game);
    for (int i = 0; ok && i < w->n; i++)
        ok = insert_move(db, w->game->id, i, &w->moves[i]);
    if (ok && w->rematch_of)
        return set_rematch(db, w->rematch_of, w->game->id);
    return ok ? STORE_OK : STORE_FAILED;
}

static StoreResult apply_move(sqlite3 *db, const Write *w)
{
    return insert_move(db, w->id, w->ply, w->move) && update_state(db, w->id, w->state) ? STORE_OK : STORE_FAILED;
}

static StoreResult apply_state(sqlite3 *db, const Write *w)
{
    return update_state(db, w->id, w->state) ? STORE_OK : STORE_FAILED;
}

/* A takeback: the moves from w->from on go, and the state is set. */
static StoreResult apply_take_back(sqlite3 *db, const Write *w)
{
    return delete_moves_from(db, w->id, w->from) && update_state(db, w->id, w->state) ? STORE_OK : STORE_FAILED;
}

/* Writes a batch in one transaction, each change in a savepoint; sets each one's result. */
static void write_batch(sqlite3 *db, Write *batch)
{
    bool began = begin(db);
    for (Write *w = batch; w; w = w->next) {
        bool saved = began && sqlite3_exec(db, "SAVEPOINT change", NULL, NULL, NULL) == SQLITE_OK;
        w->result = saved ? w->apply(db, w) : STORE_FAILED;
        if (saved && w->result != STORE_OK)
            sqlite3_exec(db, "ROLLBACK TO change", NULL, NULL, NULL);
        if (began)
            sqlite3_exec(db, "RELEASE change", NULL, NULL, NULL);
    }
    if (began && !commit_if(db, true)) /* nothing of the batch was written */
        for (Write *w = batch; w; w = w->next)
            w->result = STORE_FAILED;
}

static void *writer(void *arg)
{
    SqliteStore *q = arg;
    pthread_mutex_lock(&q->queue_lock);
    for (;;) {
        while (!q->head && !q->quit)
            pthread_cond_wait(&q->queued, &q->queue_lock);
        if (!q->head)
            break;
        Write *batch = q->head;
        q->head = q->tail = NULL;
        pthread_mutex_unlock(&q->queue_lock);
        pthread_mutex_lock(&q->lock);
        write_batch(q->db, batch);
        pthread_mutex_unlock(&q->lock);
        pthread_mutex_lock(&q->queue_lock);
        for (Write *w = batch; w; w = w->next)
            w->done = true;
        pthread_cond_broadcast(&q->written);
    }
    pthread_mutex_unlock(&q->queue_lock);
    return NULL;
}

/* Queues w for the writer and waits until it is written; its result. */
static StoreResult write_change(Store *s, Write *w)
{
    SqliteStore *q = sqlite_of(s);
    w->next = NULL;
    pthread_mutex_lock(&q->queue_lock);
    if (q->tail)
        q->tail->next = w;
    else
        q->head = w;
    q->tail = w;
    pthread_cond_signal(&q->queued);
    while (!w->done)
        pthread_cond_wait(&q->written, &q->queue_lock);
    pthread_mutex_unlock(&q->queue_lock);
    return w->result;
}

static StoreResult sqlite_insert_game(Store *s, const GameRow *g, const MoveRow *moves, int n, const char *rematch_of)
{
    return write_change(s, &(Write){.apply = apply_insert, .game = g, .moves = moves, .n = n, .rematch_of = rematch_of});
}

static StoreResult sqlite_append_move(Store *s, const char *id, int ply, const MoveRow *m, const GameState *st)
{
    return write_change(s, &(Write){.apply = apply_move, .id = id, .ply = ply, .move = m, .state = st});
}

static StoreResult sqlite_set_state(Store *s, const char *id, int plies, const GameState *st)
{
    (void)plies; /* this process's game locks keep its count right */
    return write_change(s, &(Write){.apply = apply_state, .id = id, .state = st});
}

static StoreResult sqlite_take_back(Store *s, const char *id, int plies, int from, const GameState *st)
{
    (void)plies;
    return write_change(s, &(Write){.apply = apply_take_back, .id = id, .from = from, .state = st});
}

static bool sqlite_id_taken(Store *s, const char *id)
{
    SqliteStore *q = sqlite_of(s);
    pthread_mutex_lock(&q->lock);
    bool taken = true;
    sqlite3_stmt *st = prepare(q->db, "SELECT 1 FROM games WHERE id = ?", "look up an id");
    if (st) {
        sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
        taken = sqlite3_step(st) != SQLITE_DONE;
        sqlite3_finalize(st);
    }
    pthread_mutex_unlock(&q->lock);
    return taken;
}

static bool sqlite_count_games(Store *s, int64_t *n)
{
    SqliteStore *q = sqlite_of(s);
    pthread_mutex_lock(&q->lock);
    sqlite3_stmt *st = prepare(q->db, "SELECT count(*) FROM games", "count the games");
    bool counted = st && sqlite3_step(st) == SQLITE_ROW;
    if (counted)
        *n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    pthread_mutex_unlock(&q->lock);
    return counted;
}

static void read_game_row(sqlite3_stmt *st, GameRow *g)
{
    memset(g, 0, sizeof *g);
    copy_text(g->id, sizeof g->id, sqlite3_column_text(st, 0));
    copy_text(g->variant, sizeof g->variant, sqlite3_column_text(st, 1));
    copy_text(g->start_fen, sizeof g->start_fen, sqlite3_column_text(st, 2));
    copy_text(g->token[WHITE], sizeof g->token[WHITE], sqlite3_column_text(st, 3));
    copy_text(g->token[BLACK], sizeof g->token[BLACK], sqlite3_column_text(st, 4));
    g->engine[WHITE] = is_engine(st, 5);
    g->engine[BLACK] = is_engine(st, 6);
    g->skill = sqlite3_column_type(st, 7) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 7);
    g->has_clock = sqlite3_column_type(st, 8) != SQLITE_NULL;
    g->base_ms = sqlite3_column_int64(st, 8);
    g->inc_ms = sqlite3_column_int64(st, 9);
    copy_text(g->result, sizeof g->result, sqlite3_column_text(st, 10));
    copy_text(g->reason, sizeof g->reason, sqlite3_column_text(st, 11));
    g->draw_offer = schema_side_of((const char *)sqlite3_column_text(st, 12));
    g->created_ms = sqlite3_column_int64(st, 13);
    g->ended_ms = sqlite3_column_int64(st, 14);
    g->takeback_offer = schema_side_of((const char *)sqlite3_column_text(st, 15));
    g->rematch_offer = schema_side_of((const char *)sqlite3_column_text(st, 16));
    copy_text(g->rematch_id, sizeof g->rematch_id, sqlite3_column_text(st, 17));
    g->joined[WHITE] = sqlite3_column_int(st, 18);
    g->joined[BLACK] = sqlite3_column_int(st, 19);
}

/* The game's row: 1 found, 0 not found, -1 error. */
static int load_game_row(sqlite3 *db, const char *id, GameRow *g)
{
    sqlite3_stmt *st = prepare(db,
                               "SELECT id, variant, start_fen, white_token, black_token, white, black, skill, base_ms, "
                               "inc_ms, result, reason, draw_offer, created_ms, ended_ms, takeback_offer, rematch_offer, "
                               "rematch_id, white_joined, black_joined FROM games WHERE id = ?",
                               "load game");
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        read_game_row(st, g);
    else if (rc != SQLITE_DONE)
        log_error(db, "load game");
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

static bool load_moves(sqlite3 *db, const char *id, MoveRow **moves, int *n)
{
    sqlite3_stmt *st =
        prepare(db, "SELECT move, clock_ms, at_ms FROM moves WHERE game_id = ? ORDER BY ply", "load moves");
    if (!st)
        return false;
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    int rc, cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (!schema_grow_array(moves, &cap, *n, sizeof **moves)) {
            rc = SQLITE_NOMEM;
            break;
        }
        MoveRow *m = &(*moves)[(*n)++];
        copy_text(m->move, sizeof m->move, sqlite3_column_text(st, 0));
        m->clock_ms = sqlite3_column_type(st, 1) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 1);
        m->at_ms = sqlite3_column_int64(st, 2);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        log_error(db, "load moves");
    return rc == SQLITE_DONE;
}

static int sqlite_load(Store *s, const char *id, GameRow *g, MoveRow **moves, int *n)
{
    SqliteStore *q = sqlite_of(s);
    *moves = NULL;
    *n = 0;
    pthread_mutex_lock(&q->lock);
    int found = load_game_row(q->db, id, g);
    if (found == 1 && !load_moves(q->db, id, moves, n)) {
        free(*moves);
        *moves = NULL;
        *n = 0;
        found = -1;
    }
    pthread_mutex_unlock(&q->lock);
    return found;
}

static bool sqlite_load_unfinished(Store *s, StoreId **ids, int *n)
{
    SqliteStore *q = sqlite_of(s);
    *ids = NULL;
    *n = 0;
    pthread_mutex_lock(&q->lock);
    sqlite3_stmt *st = prepare(q->db, "SELECT id FROM games WHERE result = '*' ORDER BY created_ms", "list unfinished");
    int rc = SQLITE_ERROR, cap = 0;
    while (st && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (!schema_grow_array(ids, &cap, *n, sizeof **ids)) {
            rc = SQLITE_NOMEM;
            break;
        }
        copy_text((*ids)[(*n)++], sizeof **ids, sqlite3_column_text(st, 0));
    }
    if (st && rc != SQLITE_DONE)
        log_error(q->db, "list unfinished games");
    sqlite3_finalize(st);
    pthread_mutex_unlock(&q->lock);
    return rc == SQLITE_DONE;
}

static bool sqlite_list(Store *s, int limit, ListRow **rows, int *n)
{
    SqliteStore *q = sqlite_of(s);
    *rows = calloc((size_t)(limit > 0 ? limit : 1), sizeof **rows);
    *n = 0;
    if (!*rows)
        return false;
    pthread_mutex_lock(&q->lock);
    sqlite3_stmt *st = prepare(q->db,
                               "SELECT g.id, g.variant, g.result, g.reason, g.created_ms, g.white, g.black, "
                               "(SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) "
                               "FROM games g ORDER BY g.created_ms DESC, g.rowid DESC LIMIT ?",
                               "list games");
    int rc = SQLITE_ERROR;
    if (st)
        sqlite3_bind_int(st, 1, limit);
    while (st && *n < limit && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        ListRow *r = &(*rows)[(*n)++];
        copy_text(r->id, sizeof r->id, sqlite3_column_text(st, 0));
        copy_text(r->variant, sizeof r->variant, sqlite3_column_text(st, 1));
        copy_text(r->result, sizeof r->result, sqlite3_column_text(st, 2));
        copy_text(r->reason, sizeof r->reason, sqlite3_column_text(st, 3));
        r->created_ms = sqlite3_column_int64(st, 4);
        r->engine[WHITE] = is_engine(st, 5);
        r->engine[BLACK] = is_engine(st, 6);
        r->moves = sqlite3_column_int(st, 7);
    }
    bool ok = *n == limit || rc == SQLITE_DONE;
    if (st && !ok)
        log_error(q->db, "list games");
    sqlite3_finalize(st);
    pthread_mutex_unlock(&q->lock);
    if (!ok) {
        free(*rows);
        *rows = NULL;
        *n = 0;
    }
    return ok;
}

static void sqlite_close(Store *s)
{
    SqliteStore *q = sqlite_of(s);
    pthread_mutex_lock(&q->queue_lock);
    q->quit = true;
    pthread_cond_signal(&q->queued);
    pthread_mutex_unlock(&q->queue_lock);
    pthread_join(q->writer, NULL);
    sqlite3_close(q->db);
    pthread_mutex_destroy(&q->lock);
    pthread_mutex_destroy(&q->queue_lock);
    pthread_cond_destroy(&q->queued);
    pthread_cond_destroy(&q->written);
    free(q);
}

static const StoreOps sqlite_ops = {
    .close = sqlite_close,
    .insert_game = sqlite_insert_game,
    .append_move = sqlite_append_move,
    .set_state = sqlite_set_state,
    .take_back = sqlite_take_back,
    .id_taken = sqlite_id_taken,
    .load = sqlite_load,
    .load_unfinished = sqlite_load_unfinished,
    .list = sqlite_list,
    .count_games = sqlite_count_games,
};

/* ---- The schema ------------------------------------------------------------------------- */

/* For schema_migrate: SQLite's side. */
static bool schema_exec(void *db, const char *sql)
{
    return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK;
}

static bool schema_query_int(void *db, const char *sql, const char *arg1, const char *arg2, int *out)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return false;
    if (arg1)
        sqlite3_bind_text(st, 1, arg1, -1, SQLITE_STATIC);
    if (arg2)
        sqlite3_bind_text(st, 2, arg2, -1, SQLITE_STATIC);
    bool ok = sqlite3_step(st) == SQLITE_ROW;
    if (ok)
        *out = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return ok;
}

static const char *schema_error(void *db)
{
    return sqlite3_errmsg(db);
}

/* The first access: is it a database, can it be written? */
static void explain_begin(sqlite3 *db, const char *path, char *err, size_t errlen)
{
    int rc = sqlite3_extended_errcode(db) & 0xff;
    if (rc == SQLITE_NOTADB)
        snprintf(err, errlen, "%s is not an SQLite database", path);
    else if (rc == SQLITE_READONLY)
        snprintf(err, errlen, "%s is read-only", path);
    else
        snprintf(err, errlen, "cannot open %s: %s", path, sqlite3_errmsg(db));
}

/* Brings the database to the current schema version and checks it, in one transaction: on
 * failure nothing is changed. */
static bool migrate(sqlite3 *db, const char *path, char *err, size_t errlen)
{
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
        explain_begin(db, path, err, errlen);
        return false;
    }
    SchemaAccess access = {
        db, path, schema_exec, schema_query_int, schema_error,
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = $1",
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        "SELECT count(*) FROM pragma_table_info($1) WHERE name = $2",
    };
    bool ok = schema_migrate(&access, err, errlen);
    if (ok && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return true;
    if (ok)
        snprintf(err, errlen, "cannot write %s: %s", path, sqlite3_errmsg(db));
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return false;
}

/* WAL: readers never block the writer; synchronous=FULL: a commit is on disk when it returns. */
static bool set_up(sqlite3 *db, const char *path, char *err, size_t errlen)
{
    sqlite3_busy_timeout(db, 5000);
    sqlite3_exec(db, "PRAGMA foreign_keys=ON", NULL, NULL, NULL);
    if (!migrate(db, path, err, errlen))
        return false;
    bool wal = false;
    sqlite3_stmt *st = prepare(db, "PRAGMA journal_mode=WAL", "journal mode");
    if (st && sqlite3_step(st) == SQLITE_ROW) {
        const char *mode = (const char *)sqlite3_column_text(st, 0);
        wal = mode && strcmp(mode, "wal") == 0;
    }
    sqlite3_finalize(st);
    if (!wal || sqlite3_exec(db, "PRAGMA synchronous=FULL", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "cannot set up %s: %s", path, !wal ? "WAL mode refused" : sqlite3_errmsg(db));
        return false;
    }
    return true;
}

Store *store_sqlite_open(const char *path, char *err, size_t errlen)
{
    SqliteStore *q = calloc(1, sizeof *q);
    if (!q) {
        snprintf(err, errlen, "cannot open %s: out of memory", path);
        return NULL;
    }
    int rc = sqlite3_open_v2(path, &q->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, errlen, "cannot open %s: %s", path, q->db ? sqlite3_errmsg(q->db) : "out of memory");
    } else if (set_up(q->db, path, err, errlen)) {
        q->base.ops = &sqlite_ops;
        q->base.name = path;
        pthread_mutex_init(&q->lock, NULL);
        pthread_mutex_init(&q->queue_lock, NULL);
        pthread_cond_init(&q->queued, NULL);
        pthread_cond_init(&q->written, NULL);
        if (pthread_create(&q->writer, NULL, writer, q) == 0)
            return &q->base;
        snprintf(err, errlen, "cannot start the database's writer thread");
    }
    sqlite3_close(q->db);
    free(q);
    return NULL;
}
