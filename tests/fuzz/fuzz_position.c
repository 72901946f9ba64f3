/*
 * libFuzzer target: position text in every variant.
 *
 * The whole input is read as position text (pos_set_fen) for each variant.  A position that
 * parses must keep the invariants of check_position (check.h); one that does not must leave
 * an error message and the position untouched.
 *
 *   make build/fuzz/fuzz-position && build/fuzz/fuzz-position CORPUS tests/fuzz/seeds/position
 */
#include <string.h>

#include "../../src/core/fen.h"
#include "../../src/core/variant.h"
#include "../../src/variants/registry.h"
#include "check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char input[INPUT_MAX + 1];
    fuzz_text(data, size, input);
    for (int i = 0; i < variant_count(); i++) {
        const Variant *v = variant_at(i);
        static Position pos, before;
        char err[256] = "";
        memset(&pos, 0xa5, sizeof pos);
        before = pos;
        if (pos_set_fen(&pos, v, input, err, sizeof err))
            check_position(&pos, fuzz_pick(data, size));
        else if (!err[0])
            fuzz_fail("pos_set_fen failed without a message", v, input, NULL);
        else if (memcmp(&pos, &before, sizeof pos) != 0)
            fuzz_fail("a failed pos_set_fen changed the position", v, input, err);
    }
    return 0;
}
