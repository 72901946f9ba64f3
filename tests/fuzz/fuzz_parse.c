/*
 * libFuzzer target over position text and move parsing.
 *
 * The input is read as position text for every variant (pos_set_fen).  A position that parses
 * must satisfy the invariants below; one that does not must only leave an error message.
 * The input is also split at the first '|' byte into a position part and a move list, and the
 * moves are fed through parse_move, on the variant's start position and on the parsed one.
 *
 *   make build/fuzz/fuzz-parse
 *   build/fuzz/fuzz-parse -max_total_time=180 /tmp/corpus tests/fuzz/seeds
 *
 * Invariants of a parsed position:
 *   - pos_fen's text parses again, to a position with the same text and key;
 *   - pos->key equals pos_compute_key();
 *   - gen_legal works, perft depth 1 equals the number of legal moves, and every move is
 *     distinct;
 *   - every legal move's coordinate text parses back to that move, and so does the SAN of a
 *     spread of them;
 *   - making a legal move keeps the key consistent and yields a position whose text parses
 *     again (move counters permitting); unmaking it restores the key and the text exactly.
 */
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

#define INPUT_MAX 4096
#define MAX_INPUT_MOVES 64
#define SAN_SAMPLE 8
/* parse_int in fen.c accepts move counters up to this value. */
#define COUNTER_MAX 1000000

static void fail(const char *what, const Variant *v, const char *a, const char *b)
{
    fprintf(stderr, "fuzz_parse: invariant broken (%s): %s\n  %s\n  %s\n", v->def->name, what, a ? a : "",
            b ? b : "");
    abort();
}

static void check_key(const Position *pos, const char *what)
{
    if (pos->key != pos_compute_key(pos)) {
        char fen[FEN_MAX];
        pos_fen(pos, fen, sizeof fen);
        fail(what, pos->v, fen, "pos->key differs from pos_compute_key()");
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
        fail(what, v, fen, err);
    pos_fen(&q, again, sizeof again);
    if (strcmp(fen, again) != 0)
        fail(what, v, fen, again);
    if (q.key != pos->key)
        fail(what, v, fen, "the key of the re-parsed position differs");
}

static void check_position(Position *pos)
{
    const Variant *v = pos->v;
    char fen[FEN_MAX], after[FEN_MAX], text[MOVE_TEXT_MAX], san[MOVE_TEXT_MAX], err[256];
    check_key(pos, "key after parsing");
    check_reparse(pos, "pos_fen output re-parses to the same text");
    pos_fen(pos, fen, sizeof fen);

    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    if (n < 0 || n > MAX_MOVES)
        fail("gen_legal count out of range", v, fen, NULL);
    if (perft(pos, 1) != (uint64_t)n)
        fail("perft(1) differs from gen_legal", v, fen, NULL);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (moves[i] == moves[j])
                fail("gen_legal lists a move twice", v, fen, NULL);

    uint64_t key = pos->key;
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        move_to_text(pos, m, text);
        if (parse_move(pos, text, err, sizeof err) != m)
            fail("coordinate text does not parse back to its move", v, fen, text);
        /* SAN parsing costs O(n^2) per move: check a spread of at most SAN_SAMPLE moves. */
        if (i % ((n + SAN_SAMPLE - 1) / SAN_SAMPLE) == 0) {
            move_to_san(pos, m, san);
            if (parse_move(pos, san, err, sizeof err) != m)
                fail("SAN does not parse back to its move", v, fen, san);
        }

        Undo u;
        pos_make(pos, m, &u);
        check_key(pos, "key after pos_make");
        if (pos->halfmove <= COUNTER_MAX && pos->fullmove <= COUNTER_MAX)
            check_reparse(pos, "the position after a legal move re-parses");
        pos_unmake(pos, m, &u);
        pos_fen(pos, after, sizeof after);
        if (pos->key != key)
            fail("pos_unmake does not restore the key", v, fen, text);
        if (strcmp(fen, after) != 0)
            fail("pos_unmake does not restore the position text", v, fen, after);
    }
}

/* Plays the whitespace-separated moves of `list` from pos as far as they parse. */
static void play_moves(Position pos, const char *list)
{
    char word[INPUT_MAX + 1], err[256];
    int played = 0;
    while (*list && played < MAX_INPUT_MOVES) {
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
                fail("parse_move failed without a message", pos.v, word, NULL);
            continue;
        }
        Move legal[MAX_MOVES];
        int n = gen_legal(&pos, legal), k = 0;
        while (k < n && legal[k] != m)
            k++;
        if (k == n)
            fail("parse_move returned a move that is not legal", pos.v, word, NULL);
        Undo u;
        pos_make(&pos, m, &u);
        check_key(&pos, "key after a parsed move");
        played++;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char input[INPUT_MAX + 1], fen_part[INPUT_MAX + 1];
    if (size > INPUT_MAX)
        size = INPUT_MAX;
    memcpy(input, data, size);
    input[size] = 0;

    /* Split on the first '|': position text before it, moves after it. */
    const char *moves = NULL;
    char *bar = strchr(input, '|');
    size_t fen_len = bar ? (size_t)(bar - input) : strlen(input);
    memcpy(fen_part, input, fen_len);
    fen_part[fen_len] = 0;
    if (bar)
        moves = bar + 1;

    for (int i = 0; i < variant_count(); i++) {
        const Variant *v = variant_at(i);
        Position pos, start;
        char err[256];

        /* The whole input as position text; a failure must leave pos untouched. */
        static Position before;
        memset(&pos, 0xa5, sizeof pos);
        before = pos;
        err[0] = 0;
        if (pos_set_fen(&pos, v, input, err, sizeof err))
            check_position(&pos);
        else if (!err[0])
            fail("pos_set_fen failed without a message", v, input, NULL);
        else if (memcmp(&pos, &before, sizeof pos) != 0)
            fail("a failed pos_set_fen changed the position", v, input, err);

        if (!moves)
            continue;
        if (!pos_set_fen(&start, v, v->def->start_fen, err, sizeof err))
            fail("the start position does not parse", v, v->def->start_fen, err);
        play_moves(start, moves);
        err[0] = 0;
        if (pos_set_fen(&pos, v, fen_part, err, sizeof err)) {
            check_position(&pos);
            play_moves(pos, moves);
        } else if (!err[0]) {
            fail("pos_set_fen failed without a message", v, fen_part, NULL);
        }
    }
    return 0;
}
