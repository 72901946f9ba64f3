/* The network's inference (src/nnue): accumulators kept by the moves equal the ones computed
 * from scratch, in every variant (placements, castling, en passant, promotions, Starvation's
 * removals); and a damaged net is refused with its reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/nnue/nnue.h"
#include "../../src/util/rng.h"
#include "helpers.h"
#include "test.h"

static uint8_t *put16(uint8_t *p, int v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    return p + 2;
}

static uint8_t *put32(uint8_t *p, int v)
{
    return put16(put16(p, v), v >> 16);
}

/* A net file of random weights for variant v, in the layout of docs/nnue.md: version 1, or
 * with `buckets` > 1 version 2, whose king buckets are cells chosen at random. */
static uint8_t *random_net(const Variant *v, int hidden, int buckets, uint64_t seed, size_t *size)
{
    int cells = v->geo->ncells, types = v->ntypes, hand = v->def->fen_hand ? 2 * types : 0;
    int features = (buckets > 1 ? buckets : 1) * 2 * types * cells + hand;
    size_t tables = (buckets > 1 ? 2 : 1) * (size_t)cells;
    *size = 52 + tables + 2 * ((size_t)features * (size_t)hidden + (size_t)hidden) +
            2 * NNUE_L1 * 2 * (size_t)hidden + 4 * NNUE_L1 + 2 * NNUE_L1 + 4;
    uint8_t *d = calloc(1, *size), *p = d + 8;
    memcpy(d, "sfnnue\0\0", 8);
    p = put16(p, buckets > 1 ? 2 : 1);
    p = put16(put16(put16(p, cells), types), hand);
    p = put32(put32(put32(p, features), hidden), NNUE_L1);
    snprintf((char *)p, 24, "%s", v->def->name);
    p += 24;
    Cell mirror[MAX_CELLS];
    geo_mirror_cells(v->geo, mirror);
    memcpy(p, mirror, (size_t)cells);
    p += cells;
    if (buckets > 1) {
        for (int c = 0; c < cells; c++) /* every bucket present, the rest at random */
            p[c] = (uint8_t)(c < buckets ? c : (int)rng_below(&seed, (uint64_t)buckets));
        p += cells;
    }
    for (int i = 0; i < features * hidden + hidden; i++)
        p = put16(p, (int)rng_below(&seed, 161) - 80);
    for (int i = 0; i < NNUE_L1 * 2 * hidden; i++)
        p = put16(p, (int)rng_below(&seed, 401) - 200);
    for (int i = 0; i < NNUE_L1; i++)
        p = put32(p, (int)rng_below(&seed, 20001) - 10000);
    for (int i = 0; i < NNUE_L1; i++)
        p = put16(p, (int)rng_below(&seed, 2001) - 1000);
    put32(p, 1234);
    return d;
}

/* Do the top frame's sums (after an evaluation) equal a refresh of pos? */
static bool top_is_fresh(const NnueNet *net, NnueStack *s, const Position *pos)
{
    static NnueFrame fresh;
    nnue_refresh(net, pos, &fresh);
    const NnueFrame *top = &s->frames[s->top];
    size_t row = sizeof(int16_t) * (size_t)net->hidden;
    return top->computed && memcmp(top->v[0], fresh.v[0], row) == 0 && memcmp(top->v[1], fresh.v[1], row) == 0;
}

/* Random games of every variant from the start (Starchess's from its setup phase), with the
 * net's stack following each move and each take-back; evaluated at a third of the plies on the
 * way (so the rest are caught up lazily) and at every ply on the way back.  With king buckets
 * too (a king's move into another bucket changes its view's every feature). */
TEST(incremental_accumulators_equal_a_refresh_in_every_variant)
{
    static Move path[200];
    static Undo undo[200];
    for (int i = 0; i < 2 * variant_count(); i++) {
        const Variant *v = variant_at(i / 2);
        int buckets = i % 2 ? 5 : 1;
        size_t size;
        uint8_t *blob = random_net(v, 32, buckets, 7 + (uint64_t)i, &size);
        char why[200] = "";
        NnueNet *net = nnue_parse(blob, size, "random.nnue", why, sizeof why);
        CHECK_EQ_STR(why, "");
        NnueStack *s = nnue_stack_new(200);
        uint64_t seed = 99 + (uint64_t)i;
        int compared = 0, mismatched = 0;
        for (int game = 0; game < 6 && net && s; game++) {
            Game g = {0};
            char err[200];
            CHECK(game_init(&g, v, NULL, err, sizeof err));
            Position pos = g.pos;
            nnue_stack_reset(s);
            int ply = 0;
            for (; ply < 160; ply++) {
                Move moves[MAX_MOVES];
                int n = gen_legal(&pos, moves);
                if (n == 0)
                    break;
                path[ply] = moves[rng_below(&seed, (uint64_t)n)];
                NnueMoveNote note;
                nnue_before(&note, &pos, path[ply]);
                pos_make(&pos, path[ply], &undo[ply]);
                nnue_push(s, &note, &pos);
                if (ply % 3 == 2) {
                    nnue_evaluate(net, s, &pos);
                    compared++;
                    mismatched += !top_is_fresh(net, s, &pos);
                }
            }
            while (ply-- > 0) {
                nnue_pop(s);
                pos_unmake(&pos, path[ply], &undo[ply]);
                int incremental = nnue_evaluate(net, s, &pos);
                compared++;
                mismatched += !top_is_fresh(net, s, &pos) || incremental != nnue_evaluate_position(net, &pos);
            }
            game_free(&g);
        }
        if (mismatched)
            printf("  %s (%d king buckets): %d of %d positions differ\n", v->def->name, buckets, mismatched, compared);
        CHECK_EQ_INT(mismatched, 0);
        CHECK(compared > 100);
        nnue_free(net);
        free(s);
        free(blob);
    }
}

/* The reason a damaged copy of a good net gets (after `damage` changed it). */
static const char *refusal(const uint8_t *good, size_t size, size_t cut, size_t at, uint8_t value)
{
    static char why[200];
    uint8_t *copy = malloc(size);
    memcpy(copy, good, size);
    if (at < size)
        copy[at] = value;
    NnueNet *net = nnue_parse(copy, size - cut, "bad.nnue", why, sizeof why);
    if (net)
        snprintf(why, sizeof why, "(accepted)");
    nnue_free(net);
    free(copy);
    return why;
}

TEST(damaged_nets_are_refused_with_their_reason)
{
    const Variant *v = variant_by_name("chess");
    size_t size;
    uint8_t *good = random_net(v, 32, 1, 1, &size);
    CHECK_EQ_STR(refusal(good, size, 0, size, 0), "(accepted)");
    CHECK(strstr(refusal(good, size, 1, size, 0), "truncated or damaged") != NULL);
    CHECK(strstr(refusal(good, size, size - 20, size, 0), "no 'sfnnue' header") != NULL);
    CHECK(strstr(refusal(good, size, 0, 0, 'x'), "no 'sfnnue' header") != NULL);
    CHECK(strstr(refusal(good, size, 0, 8, 3), "version 3") != NULL);
    CHECK(strstr(refusal(good, size, 0, 28, 'X'), "unknown variant 'Xhess'") != NULL);
    CHECK(strstr(refusal(good, size, 0, 10, 63), "board (63 cells") != NULL);
    CHECK(strstr(refusal(good, size, 0, 24, 16), "layer widths 32 and 16") != NULL);
    CHECK(strstr(refusal(good, size, 0, 52, 9), "mirror table") != NULL);
    free(good);
    /* Version 2: a king bucket table after the mirror, whose buckets the features must match. */
    good = random_net(v, 32, 4, 1, &size);
    CHECK_EQ_STR(refusal(good, size, 0, size, 0), "(accepted)");
    CHECK(strstr(refusal(good, size, 0, 52 + 64 + 10, 64), "a king bucket above 63") != NULL);
    CHECK(strstr(refusal(good, size, 0, 52 + 64 + 10, 4), "with 5 king buckets has 3840") != NULL);
    CHECK(strstr(refusal(good, size, 0, 8, 1), "the net has 3072 features, chess with 1 king bucket has 768") != NULL);
    free(good);
    /* A file that is not there, or not a net: refused, the variant's net unchanged. */
    const NnueNet *before = nnue_net_for(v);
    char why[200];
    CHECK(!nnue_load_file("/nonexistent/x.nnue", why, sizeof why));
    CHECK(strstr(why, "cannot open") != NULL);
    CHECK(!nnue_load_file("/etc/hostname", why, sizeof why));
    CHECK(nnue_net_for(v) == before);
}

/* Starchess's Ludii reading has no net of its own: its data name Starchess's, which it uses
 * (the same board, armies and hand); chess's net, were it loaded, would not be taken for it. */
TEST(a_variant_without_a_net_uses_the_one_its_data_name)
{
    const Variant *ludii = variant_by_name("starchess-ludii"), *star = variant_by_name("starchess");
    CHECK(strcmp(ludii->def->net_from, "starchess") == 0);
    CHECK(nnue_net_for(ludii) == nnue_net_for(star));
    CHECK(nnue_net_for(star) != NULL); /* data/nets/starchess.nnue is built in */
}
