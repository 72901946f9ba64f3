/*
 * `starfish serve`: starts the store, loads the unfinished games, starts the engine workers,
 * the clock thread and the HTTP daemon, then waits for SIGINT or SIGTERM and shuts down in
 * the reverse order (every event stream ended, every search stopped, every thread joined,
 * the database closed).  The clock thread also frees, every few seconds, the finished games
 * that nobody has used for --evict-after seconds.
 */
#include "server.h"

#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/variant.h"
#include "engine_worker.h"
#include "games.h"
#include "http.h"
#include "store.h"
#include "util.h"

#define EVICT_AFTER_DEFAULT_S 600
#define EVICT_AFTER_MAX_S (365 * 24 * 3600)
#define EVICT_EVERY_MS 2000

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
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&clock_cond, &clock_lock, &until);
        if (clock_quit)
            break;
        pthread_mutex_unlock(&clock_lock);
        games_check_flags();
        if (clock_ms() >= next_eviction) {
            games_evict(idle_ms);
            next_eviction = clock_ms() + EVICT_EVERY_MS;
        }
        pthread_mutex_lock(&clock_lock);
    }
    pthread_mutex_unlock(&clock_lock);
    return NULL;
}

static struct {
    int port, evict_after;
    const char *db, *web, *host;
} serve = {8080, EVICT_AFTER_DEFAULT_S, "starfish.db", "web", "127.0.0.1"};

static const Option serve_options[] = {
    OPTION_INT("port", "N", "the port (default 8080; 0 picks a free one)", &serve.port, 0, 65535),
    OPTION_STRING("host", "ADDR", "the address to listen on (default 127.0.0.1)", &serve.host),
    OPTION_STRING("db", "FILE", "the SQLite game store (default starfish.db)", &serve.db),
    OPTION_STRING("web", "DIR", "the web client's files (default web)", &serve.web),
    OPTION_INT("evict-after", "SECONDS", "a finished game unused this long leaves memory (default 600)",
               &serve.evict_after, 0, EVICT_AFTER_MAX_S),
    OPTIONS_END,
};

const Command serve_command = {
    "serve", "[OPTIONS]", "the web app (default http://127.0.0.1:8080, games in starfish.db)",
    "Serves the web client and the JSON API of docs/api.md.  Unfinished games are resumed at\n"
    "start and kept in memory; Ctrl-C (or SIGTERM) stops the server cleanly.",
    serve_options, 0, 0};

int server_main(int argc, char **argv)
{
    int status, nargs;
    if (!options_parse(&serve_command, argc, argv, NULL, &nargs, &status))
        return status;

    /* Signals: SIGINT and SIGTERM are taken by sigwait below, in this thread only. */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
    signal(SIGPIPE, SIG_IGN);
    json_object_seed(0); /* before any thread uses jansson */
    variant_at(0);       /* builds every variant's tables now */

    char err[512];
    if (!store_open(serve.db, err, sizeof err)) {
        fprintf(stderr, "starfish: %s\n", err);
        return 1;
    }
    if (!workers_start()) {
        fprintf(stderr, "starfish: cannot start the engine workers\n");
        workers_stop();
        workers_free_pool();
        store_close();
        return 1;
    }
    int loaded = games_load_unfinished();
    if (loaded < 0) {
        fprintf(stderr, "starfish: cannot read the games in %s\n", serve.db);
        workers_stop();
        workers_free_pool();
        games_free_all();
        store_close();
        return 1;
    }
    pthread_t clock;
    int64_t idle_ms = (int64_t)serve.evict_after * 1000;
    pthread_create(&clock, NULL, clock_thread, &idle_ms);
    int bound;
    bool listening = http_start(serve.host, serve.port, serve.web, &bound, err, sizeof err);
    if (listening) {
        printf("starfish: serving http://%s:%d (db %s)\n", serve.host, bound, serve.db);
        fflush(stdout);
        int sig;
        sigwait(&stop_signals, &sig);
    } else {
        fprintf(stderr, "starfish: %s\n", err);
    }

    /* Shutdown: end the streams, stop the searches, then the daemon and the threads. */
    http_begin_shutdown();
    games_close_streams();
    workers_stop();
    http_stop();
    pthread_mutex_lock(&clock_lock);
    clock_quit = true;
    pthread_cond_signal(&clock_cond);
    pthread_mutex_unlock(&clock_lock);
    pthread_join(clock, NULL);
    workers_free_pool();
    games_free_all();
    store_close();
    return listening ? 0 : 1;
}
