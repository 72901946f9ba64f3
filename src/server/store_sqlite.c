#include "store_sqlite.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "store_schema.h"

/* A change waiting to be written: each is made inside its own savepoint of a batch's
 * transaction; the caller waits (on its own stack) until the batch is committed. */
typedef struct Write {
    StoreWork work;
    void *ctx;
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
    Sql sql;              /* the statements' runner on db */
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

/* Appends the statement's rows to *out (its cols set); false when memory runs out. */
static bool read_row(sqlite3_stmt *st, SqlRows *out)
{
    bool ok = true;
    for (int i = 0; ok && i < out->cols; i++) {
        int type = sqlite3_column_type(st, i);
        if (type == SQLITE_NULL) {
            ok = sql_rows_add(out, NULL, 0);
        } else if (type == SQLITE_FLOAT) { /* %.17g: read back as the same double */
            char text[SQL_NUMBER_MAX];
            sql_real_param(text, sqlite3_column_double(st, i));
            ok = sql_rows_add(out, text, strlen(text));
        } else {
            const unsigned char *text = sqlite3_column_text(st, i);
            ok = text && sql_rows_add(out, (const char *)text, (size_t)sqlite3_column_bytes(st, i));
        }
    }
    return ok;
}

/* Sql.run on SQLite: the parameters bound as text (SQLite's affinities convert them). */
static SqlStatus sqlite_run(Sql *sql, const char *text, int n, const char *const *params, SqlRows *out)
{
    sqlite3 *db = sql->db;
    sqlite3_stmt *st = NULL;
    SqlRows rows = {0};
    char name[48]; /* the statement's first words, to name it in a message */
    snprintf(name, sizeof name, "%.40s", text);
    if (sqlite3_prepare_v2(db, text, -1, &st, NULL) != SQLITE_OK) {
        log_error(db, name);
        return SQL_FAILED;
    }
    for (int i = 0; i < n; i++) { /* $N is a name to SQLite: its index is where it first appears */
        char name_n[16];
        snprintf(name_n, sizeof name_n, "$%d", i + 1);
        int index = sqlite3_bind_parameter_index(st, name_n);
        /* A parameter left unbound would be NULL: a statement that quietly matches nothing. */
        if (index > 0 && params[i] && sqlite3_bind_text(st, index, params[i], -1, SQLITE_TRANSIENT) != SQLITE_OK) {
            log_error(db, name);
            sqlite3_finalize(st);
            return SQL_FAILED;
        }
    }
    rows.cols = sqlite3_column_count(st);
    int rc;
    bool memory = true;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && (memory = !out || read_row(st, &rows)))
        ;
    int extended = sqlite3_extended_errcode(db);
    SqlStatus status = rc == SQLITE_DONE ? SQL_OK
                       : extended == SQLITE_CONSTRAINT_PRIMARYKEY || extended == SQLITE_CONSTRAINT_UNIQUE
                           ? SQL_DUPLICATE
                           : SQL_FAILED;
    if (!memory)
        fprintf(stderr, "starfish: database: %s: out of memory\n", name);
    else if (status == SQL_FAILED)
        log_error(db, name);
    rows.changes = status == SQL_OK ? sqlite3_changes(db) : 0;
    sqlite3_finalize(st);
    if (status != SQL_OK || !out)
        sql_free(&rows);
    if (out)
        *out = status == SQL_OK ? rows : (SqlRows){0};
    return status;
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

/* ---- Writing: group commit -------------------------------------------------------------- */

/* Writes a batch in one transaction, each change in a savepoint; sets each one's result. */
static void write_batch(SqliteStore *q, Write *batch)
{
    sqlite3 *db = q->db;
    bool began = begin(db);
    for (Write *w = batch; w; w = w->next) {
        bool saved = began && sqlite3_exec(db, "SAVEPOINT change", NULL, NULL, NULL) == SQLITE_OK;
        w->result = saved ? w->work(&q->sql, w->ctx) : STORE_FAILED;
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
        write_batch(q, batch);
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
static StoreResult write_change(SqliteStore *q, Write *w)
{
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

/* A change goes to the writer (one process owns the file and its game locks order the
 * changes); a read runs at once, on the connection between the writer's batches. */
static StoreResult sqlite_transact(Store *s, bool write, StoreWork work, void *ctx)
{
    SqliteStore *q = sqlite_of(s);
    if (write)
        return write_change(q, &(Write){.work = work, .ctx = ctx});
    pthread_mutex_lock(&q->lock);
    StoreResult result = work(&q->sql, ctx);
    pthread_mutex_unlock(&q->lock);
    return result;
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
    .transact = sqlite_transact,
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
    sqlite3_stmt *st = NULL;
    sqlite3_prepare_v2(db, "PRAGMA journal_mode=WAL", -1, &st, NULL);
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
        q->sql = (Sql){.db = q->db, .lock_rows = "", .run = sqlite_run};
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
