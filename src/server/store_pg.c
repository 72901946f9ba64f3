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

#define CHANNELS_MAX 4
#define UNIQUE_VIOLATION "23505"
#define RECONNECT_MS 500

/*
 * A pool of connections for the requests (each used by one thread at a time), one for the
 * claims (session locks: taken and let go of on one connection) and, once watch is called,
 * one for LISTEN on a thread of its own.  A change is a transaction on a connection of the
 * pool (store_games.c takes the game's row first, so that the database decides between
 * processes), ending with NOTIFY, which PostgreSQL delivers at commit.  A claim is a session
 * advisory lock on (the game, the ply), released by unclaim or when the process's connection
 * ends (a process killed with -9 loses its claims at once).
 */
typedef struct PgConn {
    PGconn *conn;
    Sql sql;        /* the statements' runner on this connection */
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
    pthread_mutex_t listen_lock; /* the listening connection and the channels */
    struct {
        char name[64];
        StoreNews news;
        void *ctx;
    } channels[CHANNELS_MAX];
    int nchannels;
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

/* Connects c again (a new server process, whose pid marks its own notifications). */
static void reconnect(PgConn *c)
{
    PQreset(c->conn);
    atomic_store(&c->pid, PQbackendPID(c->conn));
}

/* Makes a connection of the pool usable again when a failure left it broken, or inside a
 * transaction: a ROLLBACK that memory ran out for.  Every statement on it would fail from then
 * on (reads, which open no transaction of their own, too), and the pool hands the connection
 * freed last out first, so one client's requests would all land on it.  If memory is still
 * short this fails again, and the next use tries once more. */
static void make_usable(PgConn *c)
{
    if (PQstatus(c->conn) == CONNECTION_OK && PQtransactionStatus(c->conn) != PQTRANS_IDLE)
        PQclear(PQexec(c->conn, "ROLLBACK"));
    if (PQstatus(c->conn) == CONNECTION_BAD || PQtransactionStatus(c->conn) != PQTRANS_IDLE)
        reconnect(c);
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
    make_usable(c);
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
        reconnect(c);
        r = PQexecParams(c->conn, sql, n, NULL, params, NULL, NULL, 0);
    }
    return r;
}

static bool succeeded(const PGresult *r)
{
    ExecStatusType st = PQresultStatus(r);
    return st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK;
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

/* Copies a result's rows into *out; false when memory runs out. */
static bool copy_rows(const PGresult *r, SqlRows *out)
{
    out->cols = PQnfields(r);
    int rows = PQntuples(r);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < out->cols; j++)
            if (!sql_rows_add(out, PQgetisnull(r, i, j) ? NULL : PQgetvalue(r, i, j), (size_t)PQgetlength(r, i, j)))
                return false;
    return true;
}

/* Sql.run on a connection of ours; outside a transaction, a lost connection is made again
 * once and the statement retried. */
static SqlStatus pg_run(Sql *sql, const char *text, int n, const char *const *params, SqlRows *out)
{
    PgConn *c = sql->db;
    PGresult *r = run(c, text, n, params, PQtransactionStatus(c->conn) == PQTRANS_IDLE);
    const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    SqlStatus status = succeeded(r)                                        ? SQL_OK
                       : state && strcmp(state, UNIQUE_VIOLATION) == 0 ? SQL_DUPLICATE
                                                                           : SQL_FAILED;
    SqlRows rows = {0};
    if (status == SQL_OK) {
        rows.changes = atol(PQcmdTuples(r));
        if (out && PQresultStatus(r) == PGRES_TUPLES_OK && !copy_rows(r, &rows)) {
            fprintf(stderr, "starfish: database: %.40s: out of memory\n", text);
            status = SQL_FAILED;
        }
    } else if (status == SQL_FAILED) {
        char what[48];
        snprintf(what, sizeof what, "%.40s", text);
        log_error(c, what, r);
    }
    PQclear(r);
    if (status != SQL_OK)
        sql_free(&rows);
    if (out)
        *out = status == SQL_OK ? rows : (SqlRows){0};
    else
        sql_free(&rows);
    return status;
}

/* Sql.notify: tells the other processes of a change to game id (at commit). */
static bool pg_notify(Sql *sql, const char *id)
{
    return sql_exec(sql, "SELECT pg_notify('" STORE_GAMES_CHANNEL "', $1)", 1, &id) == SQL_OK;
}

/* A change: one transaction on a connection of the pool, committed when work succeeds. */
static StoreResult change(PgConn *c, StoreWork work, void *ctx)
{
    StoreResult result = begin(c) ? work(&c->sql, ctx) : STORE_FAILED;
    if (result == STORE_OK)
        result = commit(c);
    if (result != STORE_OK && PQtransactionStatus(c->conn) != PQTRANS_IDLE)
        PQclear(PQexec(c->conn, "ROLLBACK"));
    return result;
}

static StoreResult pg_transact(Store *s, bool write, StoreWork work, void *ctx)
{
    PgStore *q = pg_of(s);
    PgConn *c = acquire(q);
    StoreResult result = write ? change(c, work, ctx) : work(&c->sql, ctx);
    release(q, c);
    return result;
}

/* Runs a query on the claims' connection; NULL after a logged error. */
static PGresult *claim_query(PgStore *q, const char *sql, int n, const char *const *params, const char *what)
{
    pthread_mutex_lock(&q->claim_lock);
    PGresult *r = run(&q->claimer, sql, n, params, true);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        log_error(&q->claimer, what, r);
        PQclear(r);
        r = NULL;
    }
    pthread_mutex_unlock(&q->claim_lock);
    return r;
}

/* Runs a query on a connection of the pool; NULL after a logged error. */
static PGresult *query(PgStore *q, const char *sql, int n, const char *const *params, const char *what)
{
    PgConn *c = acquire(q);
    PGresult *r = run(c, sql, n, params, true);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        log_error(c, what, r);
        PQclear(r);
        r = NULL;
    }
    release(q, c);
    return r;
}

/* ---- Other processes: claims and notifications -------------------------------------------- */

static bool pg_claim(Store *s, const char *id, int ply)
{
    char ply_text[SQL_NUMBER_MAX];
    const char *params[] = {id, sql_int_param(ply_text, true, ply)};
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
    char ply_text[SQL_NUMBER_MAX];
    const char *params[] = {id, sql_int_param(ply_text, true, ply)};
    PQclear(claim_query(pg_of(s), "SELECT pg_advisory_unlock(hashtext($1), $2::int)", 2, params, "end a claim"));
}

/* LISTENs to one channel on the listening connection (listen_lock held); false after a message. */
static bool listen_to(PgStore *q, const char *channel)
{
    char *quoted = PQescapeIdentifier(q->listen_conn, channel, strlen(channel));
    char sql[128];
    snprintf(sql, sizeof sql, "LISTEN %s", quoted ? quoted : "");
    PQfreemem(quoted);
    PGresult *r = quoted ? PQexec(q->listen_conn, sql) : NULL;
    bool ok = r && PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok)
        fprintf(stderr, "starfish: database: cannot listen on %s: %s", q->name, PQerrorMessage(q->listen_conn));
    PQclear(r);
    return ok;
}

/* Connects the listening connection and listens to every channel (listen_lock held); false
 * after a message. */
static bool listen_connect(PgStore *q)
{
    if (q->listen_conn)
        PQfinish(q->listen_conn);
    q->listen_conn = PQconnectdb(q->conninfo);
    bool ok = PQstatus(q->listen_conn) == CONNECTION_OK;
    if (!ok)
        fprintf(stderr, "starfish: database: cannot listen on %s: %s", q->name, PQerrorMessage(q->listen_conn));
    for (int i = 0; ok && i < q->nchannels; i++)
        ok = listen_to(q, q->channels[i].name);
    return ok;
}

/* Waits for the listening connection (or the quit pipe); false when told to quit. */
static bool wait_for_news(PgStore *q, bool connected)
{
    pthread_mutex_lock(&q->listen_lock);
    int sock = connected ? PQsocket(q->listen_conn) : -1;
    pthread_mutex_unlock(&q->listen_lock);
    struct pollfd fds[2] = {{q->quit_pipe[0], POLLIN, 0}, {sock, POLLIN, 0}};
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

/* Tells a channel's watcher of a notification (NULL: news may have been lost). */
static void tell(PgStore *q, const char *channel, const char *payload)
{
    for (int i = 0; i < q->nchannels; i++)
        if (!channel || strcmp(q->channels[i].name, channel) == 0)
            q->channels[i].news(q->channels[i].ctx, payload);
}

/* The notifications that arrived (listen_lock held): false when the connection is lost. */
static bool take_notices(PgStore *q, PGnotify **notices, int *n, int max)
{
    if (!PQconsumeInput(q->listen_conn))
        return false;
    PGnotify *note;
    while (*n < max && (note = PQnotifies(q->listen_conn)))
        notices[(*n)++] = note;
    return true;
}

/* The listening thread: tells of every notification but this process's own, each to its
 * channel's watcher, outside the lock.  After a lost connection it connects again and tells
 * every watcher that news may have been lost. */
static void *listener(void *arg)
{
    PgStore *q = arg;
    bool connected = true;
    while (wait_for_news(q, connected)) {
        PGnotify *notices[64];
        int n = 0;
        pthread_mutex_lock(&q->listen_lock);
        bool was = connected;
        connected = was ? take_notices(q, notices, &n, 64) : listen_connect(q);
        pthread_mutex_unlock(&q->listen_lock);
        if (!was && connected)
            tell(q, NULL, NULL);
        for (int i = 0; i < n; i++) {
            if (!own_notice(q, notices[i]->be_pid))
                tell(q, notices[i]->relname, notices[i]->extra);
            PQfreemem(notices[i]);
        }
    }
    return NULL;
}

/* Adds a channel; the first one connects and starts the listening thread. */
static bool pg_watch(Store *s, const char *channel, StoreNews news, void *ctx)
{
    PgStore *q = pg_of(s);
    pthread_mutex_lock(&q->listen_lock);
    bool ok = q->nchannels < CHANNELS_MAX;
    if (ok) {
        int i = q->nchannels++;
        snprintf(q->channels[i].name, sizeof q->channels[i].name, "%s", channel);
        q->channels[i].news = news;
        q->channels[i].ctx = ctx;
        ok = q->listening ? listen_to(q, channel) : pipe(q->quit_pipe) == 0;
        if (ok && !q->listening) {
            ok = listen_connect(q) && pthread_create(&q->listener, NULL, listener, q) == 0;
            q->listening = ok;
            if (!ok) {
                close(q->quit_pipe[0]);
                close(q->quit_pipe[1]);
            }
        }
    }
    pthread_mutex_unlock(&q->listen_lock);
    return ok;
}

/* Tells the other processes `payload` on `channel` at once (a notification outside any
 * transaction, from a connection of the pool: this process's own listener skips it). */
static bool pg_publish(Store *s, const char *channel, const char *payload)
{
    PgStore *q = pg_of(s);
    PgConn *c = acquire(q);
    const char *params[] = {channel, payload};
    bool ok = sql_exec(&c->sql, "SELECT pg_notify($1, $2)", 2, params) == SQL_OK;
    release(q, c);
    return ok;
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
    pthread_mutex_destroy(&q->listen_lock);
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
    .transact = pg_transact,
    .watch = pg_watch,
    .publish = pg_publish,
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
    c->sql = (Sql){.db = c, .lock_rows = " FOR UPDATE", .run = pg_run, .notify = pg_notify};
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
    pthread_mutex_init(&q->listen_lock, NULL);
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
