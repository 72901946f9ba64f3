/* The command line.  Bad input gets one message on stderr and exit status 2. */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/fen.h"
#include "../core/movegen.h"
#include "../core/notation.h"
#include "../core/perft.h"
#include "../engine/search.h"
#include "../engine/tune.h"
#include "../server/server.h"
#include "../tablebase/tb.h"
#include "../util/clock.h"
#include "../util/parse.h"
#include "match.h"
#include "uci.h"

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "starfish: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(see 'starfish help')\n");
    return 2;
}

static int cmd_help(void)
{
    printf("starfish: a multi-variant chess engine\n\n"
           "usage:\n"
           "  starfish                              speak UCI on standard input/output\n"
           "  starfish perft VARIANT DEPTH [FEN]    count leaf nodes, per move (divide)\n"
           "  starfish bench                        search benchmark: fixed searches, total nodes\n"
           "  starfish bench perft [VARIANT]        timed perft on the benchmark positions\n"
           "  starfish serve [--host ADDR] [--port N] [--db FILE] [--web DIR] [--evict-after SECONDS]\n"
           "                                        the web app (default 127.0.0.1:8080, starfish.db;\n"
           "                                        finished games leave memory after 600 s idle)\n"
           "  starfish match [OPTIONS]              games between two UCI engines (match --help)\n"
           "  starfish tb COMMAND [...]             Starchess endgame tablebases (tb help)\n"
           "  starfish tune VARIANT FILE.pgn [...]  fit evaluation weights to games (tune --help)\n"
           "  starfish help                         this text\n\nvariants:");
    for (int i = 0; i < variant_count(); i++)
        printf(" %s", variant_at(i)->def->name);
    printf("\n");
    return 0;
}

static int cmd_perft(int argc, char **argv)
{
    if (argc < 4 || argc > 5)
        return usage_error("perft needs VARIANT DEPTH [FEN]%s", "");
    const Variant *v = variant_by_name(argv[2]);
    if (!v)
        return usage_error("unknown variant '%s'", argv[2]);
    int depth;
    if (!parse_int(argv[3], 1, 64, &depth))
        return usage_error("bad depth '%s' (1..64)", argv[3]);
    Position pos;
    char err[200];
    if (!pos_set_fen(&pos, v, argc == 5 ? argv[4] : v->def->start_fen, err, sizeof err))
        return usage_error("bad position: %s", err);
    double start = clock_seconds();
    uint64_t total = perft_divide(&pos, depth, stdout);
    double secs = clock_seconds() - start;
    printf("Time: %.3f s\nNodes per second: %.0f\n", secs, secs > 0 ? (double)total / secs : 0.0);
    return 0;
}

/* The perft benchmark: fixed positions and depths, bulk-counted, one thread. */
static const struct {
    const char *variant, *name, *fen;
    int depth;
} bench_positions[] = {
    {"chess", "start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6},
    {"chess", "kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5},
    {"starvation", "start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6},
    {"starvation", "kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5},
    {"starchess", "setup", "1/2/NP3pr/BP2pq/KP1pk/QP2pb/RP3pn/2/1[] w 0 1", 7},
    {"megastar", "start", NULL, 4},
};

/* The search benchmark: a fixed search of fixed positions; its node count is a signature of
 * the engine's behaviour (any change to search or evaluation changes it). */
static const struct {
    const char *variant, *fen; /* NULL: the start position */
    int depth;
} search_bench[] = {
    {"chess", NULL, 9},
    {"chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 6},
    {"chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 10},
    {"starvation", NULL, 8},
    {"starvation", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5},
    {"square-says", NULL, 6},
    {"square-says-reversed", NULL, 6},
    {"starchess", NULL, 8},
    /* The setup of the rules' sample game: I. N17 N21 II. Q22 Q27 III. K4 R10 IV. B28 B16 V. R11 K34 */
    {"starchess", "1/2/KP3pr/RP2pb/NP1pn/QP2pq/BP3pk/2/1[] w 0 1", 7},
    {"starchess-ludii", "1/2/KP3pr/RP2pb/NP1pn/QP2pq/BP3pk/2/1[] w - 0 1", 7},
    {"megastar", NULL, 4},
};

static int cmd_bench_search(void)
{
    Engine engine;
    if (!engine_init(&engine, 16))
        return usage_error("cannot allocate the hash table%s", "");
    uint64_t total = 0;
    double seconds = 0;
    for (size_t i = 0; i < sizeof search_bench / sizeof search_bench[0]; i++) {
        Game g = {0};
        char err[200];
        const Variant *v = variant_by_name(search_bench[i].variant);
        if (!game_init(&g, v, search_bench[i].fen, err, sizeof err))
            return usage_error("bench position: %s", err);
        engine_new_game(&engine);
        SearchLimits limits = {.depth = search_bench[i].depth};
        SearchResult r = search_run(&engine, &g, &limits, NULL);
        char best[MOVE_TEXT_MAX];
        move_to_text(&g.pos, r.best, best);
        printf("%-20s depth %2d  best %-8s score %6d  nodes %10llu\n", search_bench[i].variant, search_bench[i].depth,
               best, r.score, (unsigned long long)r.nodes);
        total += r.nodes;
        seconds += r.seconds;
        game_free(&g);
    }
    engine_free(&engine);
    printf("\nTotal time (ms) : %.0f\nNodes searched  : %llu\nNodes/second    : %.0f\n", seconds * 1000,
           (unsigned long long)total, seconds > 0 ? total / seconds : 0.0);
    return 0;
}

static int cmd_bench(int argc, char **argv)
{
    if (argc == 2)
        return cmd_bench_search();
    if (strcmp(argv[2], "perft") != 0)
        return usage_error("usage: starfish bench [perft [VARIANT]]%s", "");
    const char *only = argc > 3 ? argv[3] : NULL;
    if (only && !variant_by_name(only))
        return usage_error("unknown variant '%s'", only);
    for (size_t i = 0; i < sizeof bench_positions / sizeof bench_positions[0]; i++) {
        if (only && strcmp(only, bench_positions[i].variant) != 0)
            continue;
        const Variant *v = variant_by_name(bench_positions[i].variant);
        Position pos;
        char err[200];
        const char *fen = bench_positions[i].fen ? bench_positions[i].fen : v->def->start_fen;
        if (!pos_set_fen(&pos, v, fen, err, sizeof err))
            return usage_error("bench position: %s", err);
        double start = clock_seconds();
        uint64_t nodes = perft(&pos, bench_positions[i].depth);
        double secs = clock_seconds() - start;
        printf("%-10s %-9s depth %d  nodes %12llu  time %7.3f s  nps %11.0f\n", bench_positions[i].variant,
               bench_positions[i].name, bench_positions[i].depth, (unsigned long long)nodes, secs,
               secs > 0 ? (double)nodes / secs : 0.0);
    }
    return 0;
}

int cli_main(int argc, char **argv)
{
    if (argc < 2)
        return uci_loop(stdin, stdout);
    if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return cmd_help();
    if (strcmp(argv[1], "perft") == 0)
        return cmd_perft(argc, argv);
    if (strcmp(argv[1], "bench") == 0)
        return cmd_bench(argc, argv);
    if (strcmp(argv[1], "serve") == 0)
        return server_main(argc, argv);
    if (strcmp(argv[1], "match") == 0)
        return match_main(argc, argv);
    if (strcmp(argv[1], "tb") == 0)
        return tb_main(argc, argv);
    if (strcmp(argv[1], "tune") == 0)
        return tune_main(argc, argv);
    return usage_error("unknown command '%s'", argv[1]);
}
