/*
 * libFuzzer target: move text, coordinate and SAN, in every variant.
 *
 * The first byte of the input picks the variant (fuzz_variant in check.h); the rest is
 * "POSITION|MOVES" or "MOVES": the whitespace-separated moves are played from the variant's
 * start position and, when the text before the first '|' is a position of the variant, from
 * that position too, as far as they parse (play_moves in check.h: a move that fails says why,
 * a move that parses is legal, the key stays right).
 *
 *   make build/fuzz/fuzz-moves && build/fuzz/fuzz-moves CORPUS tests/fuzz/seeds/moves
 */
#include <string.h>

#include "../../src/core/fen.h"
#include "../../src/core/variant.h"
#include "check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char input[INPUT_MAX + 1];
    if (!size)
        return 0;
    const Variant *v = fuzz_variant(data[0]);
    fuzz_text(data + 1, size - 1, input);
    char *bar = strchr(input, '|');
    const char *moves = bar ? bar + 1 : input;
    if (bar)
        *bar = 0;
    Position pos;
    char err[256] = "";
    if (!pos_set_fen(&pos, v, v->def->start_fen, err, sizeof err))
        fuzz_fail("the start position does not parse", v, v->def->start_fen, err);
    play_moves(pos, moves);
    if (bar && pos_set_fen(&pos, v, input, err, sizeof err))
        play_moves(pos, moves);
    return 0;
}
