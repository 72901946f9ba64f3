/*
 * Perft over the rules library alone (build/release/librules.a, every member linked in, with
 * nothing but libc, libm and pthreads): proof that the rules stand on their own.
 *
 *   rules-perft VARIANT DEPTH [FEN]    prints the divide and "Nodes searched: N"
 *
 * tests/run.py runs the smaller counts of the perft suites through it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../src/core/fen.h"
#include "../../src/core/perft.h"
#include "../../src/variants/registry.h"

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: rules-perft VARIANT DEPTH [FEN]\n");
        return 2;
    }
    const Variant *variant = variant_by_name(argv[1]);
    char *end;
    long depth = strtol(argv[2], &end, 10);
    char why[200];
    Position start;
    if (!variant || *end || depth < 1 || depth > 64) {
        fprintf(stderr, "rules-perft: %s\n", variant ? "bad depth (1..64)" : "unknown variant");
        return 2;
    }
    if (!pos_set_fen(&start, variant, argc == 4 ? argv[3] : variant->def->start_fen, why, sizeof why)) {
        fprintf(stderr, "rules-perft: bad position: %s\n", why);
        return 2;
    }
    uint64_t total;
    perft_divide(&start, (int)depth, stdout, NULL, &total);
    return 0;
}
