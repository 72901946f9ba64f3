#include "store.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/types.h"

static sqlite3 *db;
static pthread_mutex_t store_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const schema =
    "CREATE TABLE IF NOT EXISTS games ("
    "  id          TEXT PRIMARY KEY,"
    "  variant     TEXT NOT NULL,"
    "  start_fen   TEXT NOT NULL,"
    "  white_token TEXT NOT NULL,"
    "  black_token TEXT NOT NULL,"
    "  white       TEXT NOT NULL CHECK (white IN ('human', 'engine')),"
    "  black       TEXT NOT NULL CHECK (black IN ('human', 'engine')),"
    "  skill       INTEGER,"          /* NULL without an engine */
    "  base_ms     INTEGER,"          /* NULL without a clock */
    "  inc_ms      INTEGER,"
    "  result      TEXT NOT NULL DEFAULT '*',"
    "  reason      TEXT,"
    "  draw_offer  TEXT CHECK (draw_offer IN ('white', 'black')),"
    "  created_ms  INTEGER NOT NULL,"
    "  ended_ms    INTEGER"
    ");"
    "CREATE INDEX IF NOT EXISTS games_by_created ON games (created_ms DESC);"
    "CREATE INDEX IF NOT EXISTS games_by_result ON games (result);"
    "CREATE TABLE IF NOT EXISTS moves ("
    "  game_id  TEXT NOT NULL REFERENCES games (id),"
    "  ply      INTEGER NOT NULL,"
    "  move     TEXT NOT NULL,"
    "  clock_ms INTEGER,"             /* the mover's time left after it; NULL without a clock */
    "  at_ms    INTEGER NOT NULL,"
    "  PRIMARY KEY (game_id, ply)"
    ") WITHOUT ROWID;";

static void log_error(const char *what)
{
    fprintf(stderr, "starfish: database: %s: %s\n", what, sqlite3_errmsg(db));
}

bool store_open(const char *path, char *err, size_t errlen)
{
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL) !=
        SQLITE_OK) {
        snprintf(err, errlen, "cannot open %s: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        db = NULL;
        return false;
    }
    sqlite3_busy_timeout(db, 5000);
    /* WAL: readers never block the writer; synchronous=FULL: a commit is on disk when it returns. */
    sqlite3_stmt *st;
    bool wal = false;
    if (sqlite3_prepare_v2(db, "PRAGMA journal_mode=WAL", -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) {
            const char *mode = (const char *)sqlite3_column_text(st, 0);
            wal = mode && strcmp(mode, "wal") == 0;
        }
        sqlite3_finalize(st);
    }
    char *msg = NULL;
    if (!wal || sqlite3_exec(db, "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;", NULL, NULL, &msg) != SQLITE_OK ||
        sqlite3_exec(db, schema, NULL, NULL, &msg) != SQLITE_OK) {
        snprintf(err, errlen, "cannot set up %s: %s", path, msg ? msg : !wal ? "WAL mode refused" : sqlite3_errmsg(db));
        sqlite3_free(msg);
        sqlite3_close(db);
        db = NULL;
        return false;
    }
    return true;
}

void store_close(void)
{
    pthread_mutex_lock(&store_lock);
    if (db)
        sqlite3_close(db);
    db = NULL;
    pthread_mutex_unlock(&store_lock);
}

static const char *side_name(int side)
{
    return side == WHITE ? "white" : side == BLACK ? "black" : NULL;
}

static int side_of(const unsigned char *text)
{
    if (!text)
        return -1;
    return strcmp((const char *)text, "white") == 0 ? WHITE : strcmp((const char *)text, "black") == 0 ? BLACK : -1;
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *text)
{
    if (text)
        sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

static void copy_text(char *out, size_t len, const unsigned char *text)
{
    snprintf(out, len, "%s", text ? (const char *)text : "");
}

/* Runs a prepared statement that returns no rows and finalizes it. */
static bool run(sqlite3_stmt *st, const char *what)
{
    int rc = sqlite3_step(st);
    if (rc != SQLITE_DONE)
        log_error(what);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE;
}

static bool begin(void)
{
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK)
        return true;
    log_error("begin");
    return false;
}

static bool finish(bool ok)
{
    if (ok && sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return true;
    if (ok)
        log_error("commit");
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return false;
}

static bool insert_move(const char *id, int ply, const MoveRow *m)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "INSERT INTO moves (game_id, ply, move, clock_ms, at_ms) VALUES (?, ?, ?, ?, ?)", -1,
                           &st, NULL) != SQLITE_OK) {
        log_error("prepare insert move");
        return false;
    }
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, ply);
    sqlite3_bind_text(st, 3, m->move, -1, SQLITE_TRANSIENT);
    if (m->clock_ms >= 0)
        sqlite3_bind_int64(st, 4, m->clock_ms);
    else
        sqlite3_bind_null(st, 4);
    sqlite3_bind_int64(st, 5, m->at_ms);
    return run(st, "insert move");
}

static bool update_state(const char *id, const GameState *s)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "UPDATE games SET result = ?, reason = ?, ended_ms = ?, draw_offer = ? WHERE id = ?", -1,
                           &st, NULL) != SQLITE_OK) {
        log_error("prepare update game");
        return false;
    }
    sqlite3_bind_text(st, 1, s->result, -1, SQLITE_TRANSIENT);
    bind_text_or_null(st, 2, s->reason);
    if (s->ended_ms > 0)
        sqlite3_bind_int64(st, 3, s->ended_ms);
    else
        sqlite3_bind_null(st, 3);
    bind_text_or_null(st, 4, side_name(s->draw_offer));
    sqlite3_bind_text(st, 5, id, -1, SQLITE_TRANSIENT);
    if (!run(st, "update game"))
        return false;
    if (sqlite3_changes(db) != 1) {
        fprintf(stderr, "starfish: database: game %s not found for an update\n", id);
        return false;
    }
    return true;
}

bool store_insert_game(const GameRow *g, const MoveRow *moves, int n)
{
    pthread_mutex_lock(&store_lock);
    bool ok = db && begin();
    if (ok) {
        sqlite3_stmt *st;
        ok = sqlite3_prepare_v2(db,
                                "INSERT INTO games (id, variant, start_fen, white_token, black_token, white, black, "
                                "skill, base_ms, inc_ms, result, reason, draw_offer, created_ms, ended_ms) "
                                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                -1, &st, NULL) == SQLITE_OK;
        if (ok) {
            sqlite3_bind_text(st, 1, g->id, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(st, 2, g->variant, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(st, 3, g->start_fen, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(st, 4, g->token[WHITE], -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(st, 5, g->token[BLACK], -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(st, 6, g->engine[WHITE] ? "engine" : "human", -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 7, g->engine[BLACK] ? "engine" : "human", -1, SQLITE_STATIC);
            if (g->skill >= 0)
                sqlite3_bind_int(st, 8, g->skill);
            else
                sqlite3_bind_null(st, 8);
            if (g->has_clock) {
                sqlite3_bind_int64(st, 9, g->base_ms);
                sqlite3_bind_int64(st, 10, g->inc_ms);
            } else {
                sqlite3_bind_null(st, 9);
                sqlite3_bind_null(st, 10);
            }
            sqlite3_bind_text(st, 11, g->result, -1, SQLITE_TRANSIENT);
            bind_text_or_null(st, 12, g->reason[0] ? g->reason : NULL);
            bind_text_or_null(st, 13, side_name(g->draw_offer));
            sqlite3_bind_int64(st, 14, g->created_ms);
            if (g->ended_ms > 0)
                sqlite3_bind_int64(st, 15, g->ended_ms);
            else
                sqlite3_bind_null(st, 15);
            ok = run(st, "insert game");
        } else {
            log_error("prepare insert game");
        }
        for (int i = 0; ok && i < n; i++)
            ok = insert_move(g->id, i, &moves[i]);
        ok = finish(ok);
    }
    pthread_mutex_unlock(&store_lock);
    return ok;
}

bool store_add_move(const char *id, int ply, const MoveRow *m, const GameState *s)
{
    pthread_mutex_lock(&store_lock);
    bool ok = db && begin();
    if (ok)
        ok = finish(insert_move(id, ply, m) && update_state(id, s));
    pthread_mutex_unlock(&store_lock);
    return ok;
}

bool store_set_state(const char *id, const GameState *s)
{
    pthread_mutex_lock(&store_lock);
    bool ok = db && begin();
    if (ok)
        ok = finish(update_state(id, s));
    pthread_mutex_unlock(&store_lock);
    return ok;
}

bool store_id_taken(const char *id)
{
    pthread_mutex_lock(&store_lock);
    bool taken = true;
    sqlite3_stmt *st;
    if (db && sqlite3_prepare_v2(db, "SELECT 1 FROM games WHERE id = ?", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
        int rc = sqlite3_step(st);
        taken = rc != SQLITE_DONE;
        sqlite3_finalize(st);
    }
    pthread_mutex_unlock(&store_lock);
    return taken;
}

static int load_locked(const char *id, GameRow *g, MoveRow **moves, int *n)
{
    sqlite3_stmt *st;
    *moves = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT id, variant, start_fen, white_token, black_token, white, black, skill, base_ms, "
                           "inc_ms, result, reason, draw_offer, created_ms, ended_ms FROM games WHERE id = ?",
                           -1, &st, NULL) != SQLITE_OK) {
        log_error("prepare load game");
        return -1;
    }
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        if (rc != SQLITE_DONE)
            log_error("load game");
        sqlite3_finalize(st);
        return rc == SQLITE_DONE ? 0 : -1;
    }
    memset(g, 0, sizeof *g);
    copy_text(g->id, sizeof g->id, sqlite3_column_text(st, 0));
    copy_text(g->variant, sizeof g->variant, sqlite3_column_text(st, 1));
    copy_text(g->start_fen, sizeof g->start_fen, sqlite3_column_text(st, 2));
    copy_text(g->token[WHITE], sizeof g->token[WHITE], sqlite3_column_text(st, 3));
    copy_text(g->token[BLACK], sizeof g->token[BLACK], sqlite3_column_text(st, 4));
    g->engine[WHITE] = strcmp((const char *)sqlite3_column_text(st, 5), "engine") == 0;
    g->engine[BLACK] = strcmp((const char *)sqlite3_column_text(st, 6), "engine") == 0;
    g->skill = sqlite3_column_type(st, 7) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 7);
    g->has_clock = sqlite3_column_type(st, 8) != SQLITE_NULL;
    g->base_ms = sqlite3_column_int64(st, 8);
    g->inc_ms = sqlite3_column_int64(st, 9);
    copy_text(g->result, sizeof g->result, sqlite3_column_text(st, 10));
    copy_text(g->reason, sizeof g->reason, sqlite3_column_text(st, 11));
    g->draw_offer = side_of(sqlite3_column_text(st, 12));
    g->created_ms = sqlite3_column_int64(st, 13);
    g->ended_ms = sqlite3_column_int64(st, 14);
    sqlite3_finalize(st);

    if (sqlite3_prepare_v2(db, "SELECT move, clock_ms, at_ms FROM moves WHERE game_id = ? ORDER BY ply", -1, &st,
                           NULL) != SQLITE_OK) {
        log_error("prepare load moves");
        return -1;
    }
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    int cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 64;
            MoveRow *grown = realloc(*moves, sizeof **moves * (size_t)cap);
            if (!grown) {
                rc = SQLITE_NOMEM;
                break;
            }
            *moves = grown;
        }
        MoveRow *m = &(*moves)[(*n)++];
        copy_text(m->move, sizeof m->move, sqlite3_column_text(st, 0));
        m->clock_ms = sqlite3_column_type(st, 1) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 1);
        m->at_ms = sqlite3_column_int64(st, 2);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        log_error("load moves");
        free(*moves);
        *moves = NULL;
        *n = 0;
        return -1;
    }
    return 1;
}

int store_load(const char *id, GameRow *g, MoveRow **moves, int *n)
{
    pthread_mutex_lock(&store_lock);
    int found = db ? load_locked(id, g, moves, n) : -1;
    pthread_mutex_unlock(&store_lock);
    return found;
}

bool store_unfinished(char (**ids)[STORE_ID_MAX + 1], int *n)
{
    pthread_mutex_lock(&store_lock);
    sqlite3_stmt *st;
    bool ok = false;
    *ids = NULL;
    *n = 0;
    if (db && sqlite3_prepare_v2(db, "SELECT id FROM games WHERE result = '*' ORDER BY created_ms", -1, &st, NULL) ==
                  SQLITE_OK) {
        int rc = SQLITE_DONE, cap = 0;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            if (*n == cap) {
                cap = cap ? cap * 2 : 64;
                void *grown = realloc(*ids, sizeof **ids * (size_t)cap);
                if (!grown) {
                    rc = SQLITE_NOMEM;
                    break;
                }
                *ids = grown;
            }
            copy_text((*ids)[(*n)++], STORE_ID_MAX + 1, sqlite3_column_text(st, 0));
        }
        ok = rc == SQLITE_DONE;
        if (!ok)
            log_error("list unfinished games");
        sqlite3_finalize(st);
    }
    pthread_mutex_unlock(&store_lock);
    return ok;
}

bool store_list(int limit, ListRow **rows, int *n)
{
    pthread_mutex_lock(&store_lock);
    sqlite3_stmt *st;
    bool ok = false;
    *rows = calloc((size_t)(limit > 0 ? limit : 1), sizeof **rows);
    *n = 0;
    if (*rows && db &&
        sqlite3_prepare_v2(db,
                           "SELECT g.id, g.variant, g.result, g.reason, g.created_ms, g.white, g.black, "
                           "(SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id) "
                           "FROM games g ORDER BY g.created_ms DESC, g.rowid DESC LIMIT ?",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int(st, 1, limit);
        int rc = SQLITE_DONE;
        while (*n < limit && (rc = sqlite3_step(st)) == SQLITE_ROW) {
            ListRow *r = &(*rows)[(*n)++];
            copy_text(r->id, sizeof r->id, sqlite3_column_text(st, 0));
            copy_text(r->variant, sizeof r->variant, sqlite3_column_text(st, 1));
            copy_text(r->result, sizeof r->result, sqlite3_column_text(st, 2));
            copy_text(r->reason, sizeof r->reason, sqlite3_column_text(st, 3));
            r->created_ms = sqlite3_column_int64(st, 4);
            r->engine[WHITE] = strcmp((const char *)sqlite3_column_text(st, 5), "engine") == 0;
            r->engine[BLACK] = strcmp((const char *)sqlite3_column_text(st, 6), "engine") == 0;
            r->moves = sqlite3_column_int(st, 7);
        }
        ok = *n == limit || rc == SQLITE_DONE;
        if (!ok)
            log_error("list games");
        sqlite3_finalize(st);
    }
    pthread_mutex_unlock(&store_lock);
    if (!ok) {
        free(*rows);
        *rows = NULL;
        *n = 0;
    }
    return ok;
}
