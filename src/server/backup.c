#include "backup.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <libpq-fe.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backup_sqlite.h"
#include "store_pg.h"

extern char **environ;

static struct {
    const char *db, *out, *from;
    bool force;
} opt;

static const Option backup_options[] = {
    OPTION_STRING("db", "FILE|URI", "the store: an SQLite file, or a PostgreSQL database (as serve's --db)", &opt.db),
    OPTION_STRING("out", "FILE",
                  "the backup to write (strftime conversions allowed: backups/starfish-%Y%m%d-%H%M%S.backup)",
                  &opt.out),
    OPTIONS_END,
};

const Command backup_command = {
    "backup", "--db FILE|URI --out FILE", "a consistent copy of the game store, while the server runs",
    "Copies the game store as it is at one moment, while servers go on using it: an SQLite file\n"
    "by SQLite's online backup API, a PostgreSQL database by pg_dump (custom format).  The copy\n"
    "is checked (integrity, schema version) before it takes FILE's name; `starfish restore`\n"
    "puts it back.  docs/deploy.md, \"Backups\": the nightly timer and what to keep.",
    backup_options, 0, 0};

static const Option restore_options[] = {
    OPTION_STRING("from", "FILE", "the backup (from starfish backup)", &opt.from),
    OPTION_STRING("db", "FILE|URI", "the store to restore into, which no server may be using", &opt.db),
    OPTION_FLAG("force", "replace a store that holds games", &opt.force),
    OPTIONS_END,
};

const Command restore_command = {
    "restore", "--from FILE --db FILE|URI [--force]", "put a backup back into a store (its server stopped)",
    "Checks the backup and copies it into the store: an SQLite backup into an SQLite file (made\n"
    "if it is not there), a PostgreSQL backup into a PostgreSQL database (pg_restore, in one\n"
    "transaction).  Stop the servers that use the store first; a store that holds games is\n"
    "replaced only with --force.",
    restore_options, 0, 0};

/* ---- Files and tools ---------------------------------------------------------------------- */

/* The backup's name: pattern with its strftime conversions made, in local time. */
static bool expand_name(const char *pattern, char *out, size_t len)
{
    time_t now = time(NULL);
    struct tm local;
    localtime_r(&now, &local);
    size_t n = strftime(out, len, pattern, &local);
    return n > 0 && n < len - sizeof ".tmp";
}

/* Makes the finished temporary file `tmp` the backup `out`: on disk, then renamed, then the
 * rename on disk too. */
static bool put_in_place(const char *tmp, const char *out, char *err, size_t errlen)
{
    int fd = open(tmp, O_RDONLY | O_CLOEXEC);
    bool synced = fd >= 0 && fsync(fd) == 0;
    if (fd >= 0)
        close(fd);
    if (!synced || rename(tmp, out) != 0) {
        snprintf(err, errlen, "cannot write %.300s: %s", out, strerror(errno));
        unlink(tmp);
        return false;
    }
    char folder[PATH_MAX];
    snprintf(folder, sizeof folder, "%s", out);
    int dir = open(dirname(folder), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        fsync(dir);
        close(dir);
    }
    return true;
}

/* Runs a tool (found on PATH) with its output on ours, or on /dev/null when quiet; its exit
 * status, or -1 when it could not be run. */
static int run_tool(char *const argv[], bool quiet)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (quiet)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int failed = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    int status;
    if (failed || waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

typedef enum BackupKind { KIND_UNKNOWN, KIND_SQLITE, KIND_PG_DUMP } BackupKind;

/* What a backup file holds, from its first bytes. */
static BackupKind kind_of(const char *path)
{
    char head[16] = {0};
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(head, 1, sizeof head, f) : 0;
    if (f)
        fclose(f);
    return n == 16 && memcmp(head, "SQLite format 3", 16) == 0 ? KIND_SQLITE
           : n >= 5 && memcmp(head, "PGDMP", 5) == 0          ? KIND_PG_DUMP
                                                              : KIND_UNKNOWN;
}

/* ---- PostgreSQL ----------------------------------------------------------------------------- */

static bool pg_dump_readable(const char *path)
{
    char *argv[] = {"pg_restore", "--list", (char *)path, NULL};
    return run_tool(argv, true) == 0;
}

/* The one number a query returns, or -1. */
static long long pg_number(PGconn *conn, const char *sql)
{
    PGresult *r = PQexec(conn, sql);
    long long n = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 ? atoll(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    return n;
}

/* The games in the database (0 when it has no games table yet), or -1 with err set. */
static long long pg_games(const char *uri, char *err, size_t errlen)
{
    PGconn *conn = PQconnectdb(uri);
    long long tables = PQstatus(conn) == CONNECTION_OK
                           ? pg_number(conn, "SELECT count(*) FROM pg_tables WHERE tablename = 'games' "
                                             "AND schemaname = current_schema()")
                           : -1;
    long long n = tables > 0 ? pg_number(conn, "SELECT count(*) FROM games") : tables;
    if (n < 0)
        snprintf(err, errlen, "%s", PQerrorMessage(conn));
    PQfinish(conn);
    return n;
}

static bool pg_backup(const char *uri, const char *tmp, char *err, size_t errlen)
{
    char *argv[] = {"pg_dump", "--format=custom", "--no-owner", "--no-privileges", "--file", (char *)tmp,
                    "--dbname",  (char *)uri,       NULL};
    if (run_tool(argv, false) != 0 || !pg_dump_readable(tmp)) {
        snprintf(err, errlen, "pg_dump could not dump the database");
        unlink(tmp);
        return false;
    }
    return true;
}

static bool pg_restore(const char *from, const char *uri, char *err, size_t errlen)
{
    char *argv[] = {"pg_restore", "--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction",
                    "--exit-on-error", "--dbname", (char *)uri, (char *)from, NULL};
    if (run_tool(argv, false) == 0)
        return true;
    snprintf(err, errlen, "pg_restore failed: the database is as it was");
    return false;
}

/* ---- The commands ------------------------------------------------------------------------- */

static int fail(const char *what, const char *err)
{
    fprintf(stderr, "starfish: %s: %s\n", what, err);
    return 1;
}

static bool parsed(const Command *c, int argc, char **argv, int *status)
{
    int nargs;
    opt.db = opt.out = opt.from = NULL;
    opt.force = false;
    return options_parse(c, argc, argv, NULL, &nargs, status);
}

int backup_main(int argc, char **argv)
{
    int status;
    if (!parsed(&backup_command, argc, argv, &status))
        return status;
    if (!opt.db || !opt.out)
        return options_fail(&backup_command, "--db and --out are needed");
    char out[PATH_MAX], tmp[PATH_MAX + 8], err[512];
    if (!expand_name(opt.out, out, sizeof out))
        return options_fail(&backup_command, "bad --out '%s'", opt.out);
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    bool pg = store_pg_wanted(opt.db);
    BackupContents contents;
    if (!(pg ? pg_backup(opt.db, tmp, err, sizeof err) : sqlite_backup(opt.db, tmp, &contents, err, sizeof err)) ||
        !put_in_place(tmp, out, err, sizeof err))
        return fail("backup", err);
    if (pg)
        printf("starfish: backup of the PostgreSQL database (pg_dump) in %s\n", out);
    else
        printf("starfish: backup of %s: %lld games, %lld moves, schema version %d, in %s\n", opt.db, contents.games,
               contents.moves, contents.version, out);
    return 0;
}

int restore_main(int argc, char **argv)
{
    int status;
    if (!parsed(&restore_command, argc, argv, &status))
        return status;
    if (!opt.db || !opt.from)
        return options_fail(&restore_command, "--from and --db are needed");
    bool pg = store_pg_wanted(opt.db);
    BackupKind kind = kind_of(opt.from);
    char err[512];
    if (kind == KIND_UNKNOWN || (kind == KIND_PG_DUMP && !pg_dump_readable(opt.from)))
        return fail("restore", "not a backup of starfish's (an SQLite file or a pg_dump archive)");
    if ((kind == KIND_PG_DUMP) != pg)
        return fail("restore", pg ? "an SQLite backup goes into an SQLite file" : "a PostgreSQL backup goes into a "
                                                                                  "PostgreSQL database");
    long long games = pg ? pg_games(opt.db, err, sizeof err) : sqlite_games(opt.db, err, sizeof err);
    if (games < 0)
        return fail("restore", err);
    if (games > 0 && !opt.force) {
        snprintf(err, sizeof err, "%s holds %lld games: --force replaces them", pg ? "the database" : opt.db, games);
        return fail("restore", err);
    }
    BackupContents contents = {0};
    if (!(pg ? pg_restore(opt.from, opt.db, err, sizeof err)
             : sqlite_restore(opt.from, opt.db, &contents, err, sizeof err)))
        return fail("restore", err);
    if (pg)
        printf("starfish: restored %s into the PostgreSQL database\n", opt.from);
    else
        printf("starfish: restored %s into %s: %lld games, %lld moves, schema version %d\n", opt.from, opt.db,
               contents.games, contents.moves, contents.version);
    return 0;
}
