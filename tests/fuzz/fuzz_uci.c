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
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../../src/engine/search.h"
#include "../../src/frontend/uci.h"

#define INPUT_MAX 65536
#define HASH_MB 0

bool __real_engine_init(Engine *e, size_t hash_mb);

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
    if (in && out)
        uci_loop(in, out);
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    free(text);
    return 0;
}
