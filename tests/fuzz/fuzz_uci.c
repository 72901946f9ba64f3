/*
 * libFuzzer target over the UCI loop: the input is a session's standard input, commands and
 * junk alike, searches started and stopped by whatever follows them.  The loop must end (at
 * the end of the input, every search stopped), never crash, and keep its memory bounded.
 *
 *   make build/fuzz/fuzz-uci
 *   build/fuzz/fuzz-uci -max_total_time=60 /tmp/corpus tests/fuzz/seeds/uci
 *
 * Two things are kept out of reach, because they are resources, not defects: option names
 * for the table size and the thread count are blunted ("Hash" -> "Hxsh"), so that inputs
 * cannot ask for gigabytes or hundreds of threads per run; and depths and times are left as
 * they are, since the next line (or the end of the input) stops any search at once.
 *
 * Each session's engine starts with the smallest table, one bucket (tt_resize of 0 MB), where
 * uci_loop asks for the default 16 MB: the target is linked with --wrap=engine_init and
 * --wrap=engine_free (Makefile), and allocating, clearing and freeing 16 MB under ASan for every
 * input took half of the target's time (1 MB still about a tenth, in page faults).  One bucket
 * keeps every path of the table's code, and makes its replacements more frequent.
 *
 * Nor does each session allocate its engine: the search thread's worker (some 700 KB, mostly
 * the history tables) came from mmap and went back to it per input, a fifth of the CPU.  One
 * engine serves every session instead: engine_free hands it back, and engine_init gives it out
 * as a new one would be (the options' values as engine_init set them the first time, a new
 * one-bucket table, the history and counter moves cleared by engine_new_game), so every input
 * starts from the same state.
 *
 * Each search stops at SEARCH_NODES nodes (--wrap=search_run), whatever its limits: the next
 * line stops it anyway, but only once the input's thread gets the CPU to read that line, so a
 * search ran for as long as the scheduler left it alone (on a loaded machine, milliseconds).
 * `go infinite` and `go ponder` still wait for their `stop`, without using the CPU.  A `go
 * perft` counts at most PERFT_DEPTH plies (--wrap=perft_divide_moves): at the end of the input
 * a perft finishes its count, and a deep one would never end.
 *
 * And one thread runs every search (--wrap=pthread_create,pthread_join): uci.c starts a thread
 * per `go` and joins it when the search stops, which under ASan maps and unmaps a stack and
 * its shadow, and allocates the thread's pawn table (eval.c) afresh.  While an input is read,
 * a thread created with default attributes while the search thread is idle is that thread;
 * joining it waits for its work to end.  Other threads (libFuzzer's, detached ones, a second
 * at once) are real threads.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../src/core/perft.h"
#include "../../src/engine/search.h"
#include "../../src/frontend/uci.h"

#define INPUT_MAX 65536
#define HASH_MB 0
#define SEARCH_NODES 4096
#define PERFT_DEPTH 2

bool __real_engine_init(Engine *e, size_t hash_mb);
SearchResult __real_search_run(Engine *e, Game *game, const SearchLimits *limits, const SearchObserver *observer);
bool __real_perft_divide_moves(Position *pos, int depth, FILE *out, const atomic_bool *stop, uint64_t *total);
int __real_pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*run)(void *), void *arg);
int __real_pthread_join(pthread_t thread, void **result);

/* The engine as engine_init left it (its values; the memory it points to is the live one). */
static Engine pristine;
static bool have_engine;

bool __wrap_engine_init(Engine *e, size_t hash_mb)
{
    (void)hash_mb;
    if (!have_engine && !__real_engine_init(&pristine, HASH_MB))
        return false;
    have_engine = true;
    *e = pristine;
    engine_new_game(e);
    bool ok = tt_resize(&e->tt, HASH_MB); /* on failure the old table stays */
    pristine.tt = e->tt;
    return ok;
}

/* Keeps the engine's memory for the next session (the Threads option is out of reach, so it
 * has the one worker it started with). */
void __wrap_engine_free(Engine *e)
{
    pristine.tt = e->tt;
    pristine.workers = e->workers;
}

SearchResult __wrap_search_run(Engine *e, Game *game, const SearchLimits *limits, const SearchObserver *observer)
{
    SearchLimits capped = *limits;
    if (!capped.nodes || capped.nodes > SEARCH_NODES)
        capped.nodes = SEARCH_NODES;
    return __real_search_run(e, game, &capped, observer);
}

bool __wrap_perft_divide_moves(Position *pos, int depth, FILE *out, const atomic_bool *stop, uint64_t *total)
{
    return __real_perft_divide_moves(pos, depth < PERFT_DEPTH ? depth : PERFT_DEPTH, out, stop, total);
}

/* The search thread: work handed to it (run, arg), done when run is NULL again. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    pthread_t thread;
    bool started, reading_input;
    void *(*run)(void *);
    void *arg, *result;
} searcher = {.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER};

static void *searcher_main(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&searcher.lock);
    for (;;) {
        while (!searcher.run)
            pthread_cond_wait(&searcher.changed, &searcher.lock);
        void *(*run)(void *) = searcher.run;
        void *arg = searcher.arg;
        pthread_mutex_unlock(&searcher.lock);
        void *result = run(arg);
        pthread_mutex_lock(&searcher.lock);
        searcher.result = result;
        searcher.run = NULL;
        pthread_cond_broadcast(&searcher.changed);
    }
    return NULL;
}

int __wrap_pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*run)(void *), void *arg)
{
    pthread_mutex_lock(&searcher.lock);
    bool mine = searcher.reading_input && !attr && !searcher.run;
    if (mine && !searcher.started)
        searcher.started = __real_pthread_create(&searcher.thread, NULL, searcher_main, NULL) == 0;
    mine = mine && searcher.started;
    if (mine) {
        searcher.run = run;
        searcher.arg = arg;
        *thread = searcher.thread;
        pthread_cond_broadcast(&searcher.changed);
    }
    pthread_mutex_unlock(&searcher.lock);
    return mine ? 0 : __real_pthread_create(thread, attr, run, arg);
}

int __wrap_pthread_join(pthread_t thread, void **result)
{
    pthread_mutex_lock(&searcher.lock);
    bool mine = searcher.started && pthread_equal(thread, searcher.thread);
    while (mine && searcher.run)
        pthread_cond_wait(&searcher.changed, &searcher.lock);
    if (mine && result)
        *result = searcher.result;
    pthread_mutex_unlock(&searcher.lock);
    return mine ? 0 : __real_pthread_join(thread, result);
}

static void blunt(char *text, size_t len, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; i + n <= len; i++)
        if (strncasecmp(text + i, word, n) == 0)
            text[i + 1] = 'x';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > INPUT_MAX)
        return 0;
    char *text = malloc(size);
    if (!text)
        return 0;
    memcpy(text, data, size);
    blunt(text, size, "hash");
    blunt(text, size, "threads");
    FILE *in = fmemopen(text, size, "r");
    FILE *out = fopen("/dev/null", "w");
    searcher.reading_input = true;
    if (in && out)
        uci_loop(in, out);
    searcher.reading_input = false;
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    free(text);
    return 0;
}
