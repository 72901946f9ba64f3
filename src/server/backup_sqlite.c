#include "backup_sqlite.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "store_schema.h"

/* How long a copy waits for a lock held by the server's writer, in all (ms). */
#define LOCK_WAIT_MS 10000

static bool failed(sqlite3 *db, const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
    return false;
}

static sqlite3 *open_db(const char *path, int flags, char *err, size_t errlen)
{
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
        failed(db, path, err, errlen);
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_busy_timeout(db, LOCK_WAIT_MS);
    return db;
}

/* The one integer a query returns; false when it fails. */
static bool query_int(sqlite3 *db, const char *sql, long long *out)
{
    sqlite3_stmt *st = NULL;
    bool ok = sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW;
    if (ok)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return ok;
}

/* The whole of `src` into `dst` in one step of the online backup API: one read transaction
 * on src, so the copy is the database at one moment.  A lock the writer holds is waited for. */
static bool copy(sqlite3 *src, sqlite3 *dst, char *err, size_t errlen)
{
    sqlite3_backup *b = sqlite3_backup_init(dst, "main", src, "main");
    if (!b)
        return failed(dst, "cannot start the copy", err, errlen);
    int rc, waited = 0;
    while ((rc = sqlite3_backup_step(b, -1)) == SQLITE_BUSY || rc == SQLITE_LOCKED) {
        if (waited >= LOCK_WAIT_MS)
            break;
        sqlite3_sleep(10);
        waited += 10;
    }
    sqlite3_backup_finish(b);
    if (rc != SQLITE_DONE) {
        snprintf(err, errlen, "the copy failed: %s", sqlite3_errstr(rc));
        return false;
    }
    return true;
}

/* A copy is whole (SQLite's integrity check), of a schema this program knows, and holds
 * what it holds. */
static bool check(sqlite3 *db, const char *name, BackupContents *c, char *err, size_t errlen)
{
    sqlite3_stmt *st = NULL;
    bool whole = sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) == SQLITE_OK &&
                 sqlite3_step(st) == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(st, 0), "ok") == 0;
    sqlite3_finalize(st);
    long long version = 0;
    if (!whole)
        snprintf(err, errlen, "%s fails SQLite's integrity check", name);
    else if (!query_int(db, "SELECT version FROM schema_version", &version) || version < 1 || version > SCHEMA_VERSION)
        snprintf(err, errlen, "%s is not a game store of schema version 1 to %d", name, SCHEMA_VERSION);
    else if (!query_int(db, "SELECT count(*) FROM games", &c->games) ||
             !query_int(db, "SELECT count(*) FROM moves", &c->moves))
        return failed(db, name, err, errlen);
    else
        c->version = (int)version;
    return whole && c->version;
}

bool sqlite_backup(const char *db, const char *out, BackupContents *contents, char *err, size_t errlen)
{
    unlink(out);
    sqlite3 *src = open_db(db, SQLITE_OPEN_READONLY, err, errlen);
    sqlite3 *dst = src ? open_db(out, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, err, errlen) : NULL;
    *contents = (BackupContents){0};
    bool ok = dst && copy(src, dst, err, errlen) && check(dst, out, contents, err, errlen);
    /* The copy is one file on its own: no write-ahead log beside it. */
    ok = ok && sqlite3_exec(dst, "PRAGMA journal_mode=DELETE", NULL, NULL, NULL) == SQLITE_OK;
    sqlite3_close(dst);
    sqlite3_close(src);
    if (!ok)
        unlink(out);
    return ok;
}

long long sqlite_games(const char *db, char *err, size_t errlen)
{
    if (access(db, F_OK) != 0)
        return 0;
    sqlite3 *d = open_db(db, SQLITE_OPEN_READONLY, err, errlen);
    long long tables = 0, games = 0;
    bool ok = d && query_int(d, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'games'", &tables) &&
              (!tables || query_int(d, "SELECT count(*) FROM games", &games));
    if (d && !ok)
        failed(d, db, err, errlen);
    sqlite3_close(d);
    return ok ? games : -1;
}

bool sqlite_restore(const char *from, const char *db, BackupContents *contents, char *err, size_t errlen)
{
    sqlite3 *src = open_db(from, SQLITE_OPEN_READONLY, err, errlen);
    sqlite3 *dst = NULL;
    bool ok = src && check(src, from, contents, err, errlen) &&
              (dst = open_db(db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, err, errlen)) &&
              copy(src, dst, err, errlen);
    sqlite3_close(dst);
    sqlite3_close(src);
    return ok;
}
