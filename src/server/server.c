/*
 * `starfish serve`: starts the store, loads the unfinished games, starts the engine workers,
 * the clock thread and the HTTP daemon, then waits for SIGINT or SIGTERM and shuts down in
 * the reverse order (every event stream ended, every search stopped, every thread joined,
 * the database closed); SIGHUP opens the --log file again.  The clock thread also frees, every few seconds, the finished games
 * that nobody has used for --evict-after seconds.
 */
#include "server.h"

#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "../core/variant.h"
#include "../util/paths.h"
#include "../util/version.h"
#include "../variants/registry.h"
#include "account_events.h"
#include "account_service.h"
#include "challenge_service.h"
#include "analysis_stream.h"
#include "api.h"
#include "board_stream.h"
#include "bot_service.h"
#include "tournament_director.h"
#include "tournament_service.h"
#include "engine_worker.h"
#include "events.h"
#include "game_log.h"
#include "game_presence.h"
#include "game_service.h"
#include "http.h"
#include "limits.h"
#include "logger.h"
#include "metrics.h"
#include "puzzle_service.h"
#include "relay.h"
#include "seek_service.h"
#include "store_pg.h"
#include "store_sqlite.h"
#include "util.h"

#define EVICT_AFTER_DEFAULT_S 600
#define EVICT_AFTER_MAX_S (365 * 24 * 3600)
#define EVICT_EVERY_MS 2000
#define TIMEOUT_DEFAULT_S 30
/* Connections to a PostgreSQL store for the requests: about one for each thread that uses it
 * at once (the HTTP threads, the engine workers, the clock). */
#define DB_POOL_DEFAULT 4
#define FILES_KEPT 64 /* files that are not connections: the database, the engines' epolls, ... */
#define FILES_WANTED 65536 /* fewer, and the log says how to have more (50,000 streams need them) */

static pthread_mutex_t clock_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t clock_cond = PTHREAD_COND_INITIALIZER;
static bool clock_quit;

/* Every 100 ms: has a flag fallen?  Every EVICT_EVERY_MS: the idle finished games go.
 * arg: the idle time in ms. */
static void *clock_thread(void *arg)
{
    int64_t idle_ms = *(const int64_t *)arg, next_eviction = clock_ms() + EVICT_EVERY_MS;
    pthread_mutex_lock(&clock_lock);
    while (!clock_quit) {
        struct timespec until = clock_after_ns(CLOCK_REALTIME, 100 * 1000000L);
        pthread_cond_timedwait(&clock_cond, &clock_lock, &until);
        if (clock_quit)
            break;
        pthread_mutex_unlock(&clock_lock);
        service_check_flags();
        presence_sweep(util_now_ms());
        if (clock_ms() >= next_eviction) {
            service_evict(idle_ms);
            limits_sweep();
            account_sweep(util_now_ms());
            seek_sweep(util_now_ms());
            bot_sweep(util_now_ms());
            next_eviction = clock_ms() + EVICT_EVERY_MS;
        }
        pthread_mutex_lock(&clock_lock);
    }
    pthread_mutex_unlock(&clock_lock);
    return NULL;
}

/* --trusted-proxy's values. */
static bool trust_proxies(void *target, char **values, char *err, size_t errlen)
{
    (void)target;
    return limits_trust(values[0], err, errlen);
}

/* --log-level's value. */
static bool read_log_level(void *target, char **values, char *err, size_t errlen)
{
    if (logger_level_named(values[0], target))
        return true;
    snprintf(err, errlen, "unknown log level '%s' (debug, info, warn or error)", values[0]);
    return false;
}

static struct {
    int port, evict_after, timeout, connections_per_ip, new_games_per_minute, signups_per_hour, db_pool, claim_after;
    const char *db, *web, *host, *puzzles, *log, *metrics_token_file, *tournaments;
    LogLevel log_level;
} serve = {8080, EVICT_AFTER_DEFAULT_S, TIMEOUT_DEFAULT_S, 0, 0, 0, DB_POOL_DEFAULT, PRESENCE_CLAIM_AFTER_MS / 1000,
           "starfish.db", NULL, "127.0.0.1", NULL, NULL, NULL, NULL, LOG_LEVEL_INFO};

static const Option serve_options[] = {
    OPTION_INT("port", "N", "the port (default 8080; 0 picks a free one)", &serve.port, 0, 65535),
    OPTION_STRING("host", "ADDR", "the address to listen on (default 127.0.0.1)", &serve.host),
    OPTION_STRING("db", "FILE|URI",
                  "the game store: an SQLite file (default starfish.db), or a PostgreSQL database that several "
                  "servers may share (postgresql://USER@HOST:PORT/DB or a libpq connection string)",
                  &serve.db),
    OPTION_INT("db-pool", "N", "connections to a PostgreSQL database for the requests (default 4)", &serve.db_pool, 1,
               64),
    OPTION_STRING("web", "DIR",
                  "the web client's files (default: web/ beside the program, else PREFIX/share/starfish/web where "
                  "it is installed)",
                  &serve.web),
    OPTION_STRING("puzzles", "DIR",
                  "the puzzle sets, VARIANT.epd (default: data/puzzles/ beside the program, else "
                  "PREFIX/share/starfish/data/puzzles)",
                  &serve.puzzles),
    OPTION_INT("evict-after", "SECONDS", "a finished game unused this long leaves memory (default 600)",
               &serve.evict_after, 0, EVICT_AFTER_MAX_S),
    OPTION_INT("timeout", "SECONDS", "a connection idle this long, a stalled client, is closed (default 30)",
               &serve.timeout, 1, 3600),
    OPTION_INT("max-connections-per-ip", "N", "connections one address may hold open; 429 beyond (default 0: any)",
               &serve.connections_per_ip, 0, 1000000),
    OPTION_INT("max-new-games-per-minute", "N", "games one address may create a minute; 429 beyond (default 0: any)",
               &serve.new_games_per_minute, 0, 1000000),
    OPTION_INT("max-signups-per-hour", "N", "accounts one address may try to create an hour; 429 beyond (default 0: any)",
               &serve.signups_per_hour, 0, 1000000),
    OPTION_CALL("trusted-proxy", "ADDR[,ADDR...]",
                "a proxy (nginx) whose X-Forwarded-For names the client that the limits count (repeatable; "
                "default: none, the header is not believed)",
                NULL, 0, trust_proxies),
    OPTION_STRING("log", "FILE",
                  "the log (a JSON object a line: each request, each change of a game) appended to FILE, opened "
                  "again on SIGHUP (default: standard error)",
                  &serve.log),
    OPTION_CALL("log-level", "LEVEL", "the least level logged: debug, info (default), warn or error", &serve.log_level,
                0, read_log_level),
    OPTION_STRING("metrics-token-file", "FILE",
                  "GET /metrics from any address with `Authorization: Bearer TOKEN`, TOKEN the file's first line "
                  "(default: no token, from this machine only)",
                  &serve.metrics_token_file),
    OPTION_INT("claim-after", "SECONDS",
               "a player gone from a game with a clock this long lets the opponent claim the win or a draw "
               "(default 20)",
               &serve.claim_after, 0, 3600),
    OPTION_STRING("tournaments", "FILE",
                  "scheduled tournaments: a JSON list of {name, variant, clockTime, clockIncrement, minutes, every "
                  "(hour, day), at (minutes into it), rated, berserkable, bots} (docs/api-lichess.md)",
                  &serve.tournaments),
    OPTIONS_END,
};

const Command serve_command = {
    "serve", "[OPTIONS]", "the web app (default http://127.0.0.1:8080, games in starfish.db)",
    "Serves the web client and the JSON API of docs/api.md.  Unfinished games are resumed at\n"
    "start and kept in memory; Ctrl-C (or SIGTERM) stops the server cleanly.",
    serve_options, 0, 0};

/* How many files the process may open: the soft limit raised to the hard one (each
 * connection holds a socket). */
static int open_files(void)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) != 0)
        return 1024;
    if (r.rlim_cur < r.rlim_max) {
        r.rlim_cur = r.rlim_max;
        setrlimit(RLIMIT_NOFILE, &r);
        getrlimit(RLIMIT_NOFILE, &r);
    }
    return r.rlim_cur > 1000000 ? 1000000 : (int)r.rlim_cur;
}

/* Frees what start_services made (its threads stopped): the store first, whose thread may
 * tell the service of other processes' changes until it is closed. */
static void free_services(Store *store)
{
    store->ops->close(store);
    service_free_all();
}

const char *server_use_store(Store *store, int64_t claim_after_ms)
{
    service_start(store);
    challenge_start(store);
    seek_start(store);
    tournament_start(store);
    presence_start(store, claim_after_ms);
    metrics_start(store);
    return !account_start(store) ? "cannot start libsodium"
           : !bot_start(store)   ? "cannot make the house bots' accounts"
           : !relay_start(store) ? "cannot hear the other instances' streams"
                                 : NULL;
}

/* The store, the game service and its observers, the unfinished games: NULL after a message
 * when the server cannot start. */
static Store *start_services(const char *db)
{
    char err[512];
    Store *store = store_pg_wanted(db) ? store_pg_open(db, serve.db_pool, err, sizeof err)
                                       : store_sqlite_open(db, err, sizeof err);
    if (!store) {
        fprintf(stderr, "starfish: %s\n", err);
        return NULL;
    }
    const char *failed = server_use_store(store, (int64_t)serve.claim_after * 1000);
    if (!failed)
        failed = !api_start()                    ? "out of memory"
                 : !game_log_start()             ? "cannot log the games"
                 : !events_start()               ? "cannot observe the games"
                 : !account_events_start()       ? "cannot observe the accounts' games"
                 : !board_stream_start()         ? "cannot observe the games for boards"
                 : !workers_start()              ? "cannot start the engine workers"
                 : !director_start(store)        ? "cannot start the tournaments' director"
                 : service_load_unfinished() < 0 ? "cannot read the games in the store"
                                                 : NULL;
    if (!failed)
        return store;
    fprintf(stderr, "starfish: %s (%s)\n", failed, store->name);
    director_stop();
    workers_stop();
    free_services(store);
    return NULL;
}

static void stop_clock(pthread_t clock)
{
    pthread_mutex_lock(&clock_lock);
    clock_quit = true;
    pthread_cond_signal(&clock_cond);
    pthread_mutex_unlock(&clock_lock);
    pthread_join(clock, NULL);
}

/* The log and the metrics' token: false after a message when they cannot be had. */
static bool open_outputs(void)
{
    char err[512];
    if (logger_open(serve.log, serve.log_level, err, sizeof err) &&
        (!serve.metrics_token_file || metrics_use_token_file(serve.metrics_token_file, err, sizeof err)) &&
        (!serve.tournaments || director_schedule(serve.tournaments, err, sizeof err)))
        return true;
    fprintf(stderr, "starfish: %s\n", err);
    return false;
}

/* Waits for SIGINT or SIGTERM; a SIGHUP meanwhile opens the log again. */
static void wait_for_stop(const sigset_t *signals)
{
    for (int sig = 0; sigwait(signals, &sig) != 0 || sig == SIGHUP;)
        if (sig == SIGHUP)
            logger_reopen();
}

int server_main(int argc, char **argv)
{
    int status, nargs;
    if (!options_parse(&serve_command, argc, argv, NULL, &nargs, &status))
        return status;
    limits_set(serve.connections_per_ip, serve.new_games_per_minute, serve.signups_per_hour);

    /* Signals: SIGINT, SIGTERM and SIGHUP are taken by sigwait below, in this thread only. */
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &signals, NULL);
    signal(SIGPIPE, SIG_IGN);
    json_object_seed(0); /* before any thread uses jansson */
    util_json_memory_track();
    variant_at(0); /* builds every variant's tables now */

    if (!open_outputs())
        return 1;
    char err[512], web[PATH_MAX], puzzles[PATH_MAX];
    if (!serve.web)
        serve.web = shared_path("web", web, sizeof web);
    if (!serve.puzzles)
        serve.puzzles = shared_path("data/puzzles", puzzles, sizeof puzzles);
    Store *store = NULL;
    if (!puzzles_load(serve.puzzles, err, sizeof err))
        fprintf(stderr, "starfish: %s\n", err);
    else if (!(store = start_services(serve.db)))
        puzzles_free();
    if (!store) {
        logger_close();
        return 1;
    }
    pthread_t clock;
    int64_t idle_ms = (int64_t)serve.evict_after * 1000;
    pthread_create(&clock, NULL, clock_thread, &idle_ms);
    int bound;
    int files = open_files();
    HttpOptions http = {serve.host, serve.port, serve.web, serve.timeout, files - FILES_KEPT};
    bool listening = http_start(&http, &bound, err, sizeof err);
    if (listening) {
        printf("starfish: serving http://%s:%d (db %s)\n", serve.host, bound, store->name);
        fflush(stdout);
        logger_event(LOG_LEVEL_INFO, "start",
                     json_pack("{s:s, s:s, s:i, s:s, s:i}", "version", version_number(), "host", serve.host, "port",
                               bound, "db", store->name, "connections", http.max_connections));
        if (files < FILES_WANTED)
            logger_event(LOG_LEVEL_WARN, "open_files",
                         json_pack("{s:i, s:i, s:s}", "limit", files, "connections", http.max_connections, "message",
                                   "the open-file hard limit caps the connections (each holds a socket): raise it "
                                   "(LimitNOFILE= in the service, ulimit -Hn) for more"));
        wait_for_stop(&signals);
        logger_event(LOG_LEVEL_INFO, "stop", NULL);
    } else {
        fprintf(stderr, "starfish: %s\n", err);
    }

    /* Shutdown: end the streams, stop the searches, then the daemon and the threads. */
    events_close_all();
    analysis_streams_close_all();
    director_stop();
    workers_stop();
    http_stop();
    events_stop();
    stop_clock(clock);
    free_services(store);
    limits_free();
    puzzles_free();
    logger_close();
    return listening ? 0 : 1;
}
