/* The invariants the fuzz targets check (check.h says which). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/fen.h"
#include "../../src/core/movegen.h"
#include "../../src/core/notation.h"
#include "../../src/core/perft.h"
#include "../../src/core/position.h"
#include "../../src/core/variant.h"
#include "../../src/variants/registry.h"
#include "check.h"

#define MAX_INPUT_MOVES 64
/* The words play_moves reads, parsed or not: each costs a parse_move (every legal move's texts
 * rendered), so that the fuzzer's inputs, which grow up to INPUT_MAX bytes, stay cheap. */
#define MAX_INPUT_WORDS (2 * MAX_INPUT_MOVES)
/* The legal moves of a position that check_position parses back, makes and unmakes: all of
 * them would cost O(n^2) (each parse generates the legal moves) for little more coverage. */
#define MOVE_SAMPLE 8
/* play_moves checks one parsed move in this many against the pseudo-legal moves. */
#define FULL_CHECK_ONE_IN 8
/* parse_int in fen.c accepts move counters up to this value. */
#define COUNTER_MAX 1000000

/* ASan keeps freed memory out of use for 16 MB of later frees, not 256 MB: a use after free
 * within an input (or the next few) is still caught, and the targets' allocations come back
 * from memory already mapped, where most of them faulted fresh pages in (tb, uci: a fifth of
 * the time, in the kernel).  And ASan clears the shadow of a large block (unpoisons it) by
 * writing zeros, not by mapping fresh zero pages over it, which it did above 64 KB: the search's
 * continuation history (1 to 26 MB, allocated per search after each new game, so per uci input)
 * then faulted its shadow in afresh, a few MB each time, to poison it.  ASAN_OPTIONS can still
 * set either. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "quarantine_size_mb=16:clear_shadow_mmap_threshold=1073741824";
}

void fuzz_fail(const char *what, const Variant *v, const char *a, const char *b)
{
    fprintf(stderr, "fuzz: invariant broken (%s): %s\n  %s\n  %s\n", v ? v->def->name : "-", what, a ? a : "",
            b ? b : "");
    abort();
}

void check_key(const Position *pos, const char *what)
{
    if (pos->key != pos_compute_key(pos)) {
        char fen[FEN_MAX];
        pos_fen(pos, fen, sizeof fen);
        fuzz_fail(what, pos->v, fen, "pos->key differs from pos_compute_key()");
    }
}

/* The text of pos parses again, to the same text and key. */
static void check_reparse(const Position *pos, const char *what)
{
    const Variant *v = pos->v;
    char fen[FEN_MAX], again[FEN_MAX], err[256];
    Position q;
    pos_fen(pos, fen, sizeof fen);
    if (!pos_set_fen(&q, v, fen, err, sizeof err))
        fuzz_fail(what, v, fen, err);
    pos_fen(&q, again, sizeof again);
    if (strcmp(fen, again) != 0)
        fuzz_fail(what, v, fen, again);
    if (q.key != pos->key)
        fuzz_fail(what, v, fen, "the key of the re-parsed position differs");
}

static int compare_text(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* No two legal moves share a coordinate text (nor is a move listed twice). */
static void check_distinct_texts(const Position *pos, const Move *moves, int n, const char *fen)
{
    static char texts[MAX_MOVES][MOVE_TEXT_MAX];
    for (int i = 0; i < n; i++)
        move_to_text(pos, moves[i], texts[i]);
    qsort(texts, (size_t)n, sizeof texts[0], compare_text);
    for (int i = 1; i < n; i++)
        if (strcmp(texts[i - 1], texts[i]) == 0)
            fuzz_fail("two legal moves (or one listed twice) have the same coordinate text", pos->v, fen, texts[i]);
}

/* A legal move's texts parse back to it; making it keeps the key right and yields a position
 * that re-parses; unmaking it restores the key and the text. */
static void check_move(Position *pos, Move m, const char *fen)
{
    const Variant *v = pos->v;
    char text[MOVE_TEXT_MAX], san[MOVE_TEXT_MAX], after[FEN_MAX], err[256];
    uint64_t key = pos->key;
    move_to_text(pos, m, text);
    if (parse_move(pos, text, err, sizeof err) != m)
        fuzz_fail("coordinate text does not parse back to its move", v, fen, text);
    move_to_san(pos, m, san);
    if (parse_move(pos, san, err, sizeof err) != m)
        fuzz_fail("SAN does not parse back to its move", v, fen, san);

    Undo u;
    pos_make(pos, m, &u);
    check_key(pos, "key after pos_make");
    if (pos->halfmove <= COUNTER_MAX && pos->fullmove <= COUNTER_MAX)
        check_reparse(pos, "the position after a legal move re-parses");
    pos_unmake(pos, m, &u);
    pos_fen(pos, after, sizeof after);
    if (pos->key != key)
        fuzz_fail("pos_unmake does not restore the key", v, fen, text);
    if (strcmp(fen, after) != 0)
        fuzz_fail("pos_unmake does not restore the position text", v, fen, after);
}

void check_position(Position *pos, uint32_t pick)
{
    const Variant *v = pos->v;
    char fen[FEN_MAX];
    check_key(pos, "key after parsing");
    check_reparse(pos, "pos_fen output re-parses to the same text");
    pos_fen(pos, fen, sizeof fen);

    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    if (n < 0 || n > MAX_MOVES)
        fuzz_fail("gen_legal count out of range", v, fen, NULL);
    if (perft(pos, 1) != (uint64_t)n)
        fuzz_fail("perft(1) differs from gen_legal", v, fen, NULL);
    check_distinct_texts(pos, moves, n, fen);
    /* Distinct moves spread over the list, from the one `pick` names. */
    int sample = n < MOVE_SAMPLE ? n : MOVE_SAMPLE;
    for (int k = 0; k < sample; k++)
        check_move(pos, moves[(pick + (uint32_t)(k * n / sample)) % (uint32_t)n], fen);
}

/* Is m legal in pos?  Asked of move_is_legal, which makes it and tests the royal's safety,
 * rather than of gen_legal, which parse_move has just run on pos and which decides most moves
 * by check and pin masks: a second opinion.  One move in FULL_CHECK_ONE_IN (the first of
 * each play among them) is also looked for among the pseudo-legal moves, which move_is_legal
 * takes for granted; generating them for every move was a sixth of the target's time. */
static bool is_legal(Position *pos, Move m, int played)
{
    if (played % FULL_CHECK_ONE_IN == 0) {
        Move pseudo[MAX_MOVES];
        int n = gen_pseudo(pos, pseudo), k = 0;
        while (k < n && pseudo[k] != m)
            k++;
        if (k == n)
            return false;
    }
    return move_is_legal(pos, m);
}

void play_moves(Position pos, const char *list)
{
    char word[INPUT_MAX + 1], err[256];
    int played = 0, words = 0;
    while (*list && played < MAX_INPUT_MOVES && words++ < MAX_INPUT_WORDS) {
        size_t skip = strspn(list, " \t\r\n");
        list += skip;
        size_t len = strcspn(list, " \t\r\n");
        if (!len)
            break;
        memcpy(word, list, len);
        word[len] = 0;
        list += len;
        err[0] = 0;
        Move m = parse_move(&pos, word, err, sizeof err);
        if (m == MOVE_NONE) {
            if (!err[0])
                fuzz_fail("parse_move failed without a message", pos.v, word, NULL);
            continue;
        }
        if (!is_legal(&pos, m, played))
            fuzz_fail("parse_move returned a move that is not legal", pos.v, word, NULL);
        Undo u;
        pos_make(&pos, m, &u);
        check_key(&pos, "key after a parsed move");
        played++;
    }
}

char *fuzz_text(const uint8_t *data, size_t size, char *buf)
{
    if (size > INPUT_MAX)
        size = INPUT_MAX;
    memcpy(buf, data, size);
    buf[size] = 0;
    return buf;
}

uint32_t fuzz_pick(const uint8_t *data, size_t size)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 16777619u;
    return h;
}

const Variant *fuzz_variant(uint8_t selector)
{
    return variant_at((uint8_t)(selector - '0') % variant_count());
}
