/*
 * The command line: `starfish COMMAND ...` runs a subcommand (each parses its arguments with
 * its own option table, util/options.h); no command speaks UCI.  Bad input gets one message
 * on stderr and exit status 2.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bot/bot_main.h"
#include "../core/fen.h"
#include "../core/mate.h"
#include "../core/movegen.h"
#include "../core/notation.h"
#include "../core/perft.h"
#include "../core/rules.h"
#include "../engine/search.h"
#include "../engine/tune.h"
#include "../nnue/gensfen.h"
#include "../nnue/nnue.h"
#include "../server/backup.h"
#include "../server/server.h"
#include "../server/user_cli.h"
#include "../tablebase/tb.h"
#include "../util/clock.h"
#include "../util/options.h"
#include "../util/parse.h"
#include "../util/version.h"
#include "../variants/registry.h"
#include "match.h"
#include "uci.h"

static const Command perft_command = {
    "perft", "VARIANT DEPTH [FEN]", "count leaf nodes, per move (divide)",
    "Counts the leaves of the legal move tree DEPTH plies deep (1..64) from FEN, or from the\n"
    "variant's start: each legal move with its count, the total, the time and the speed.  The\n"
    "last ply is counted in bulk, without making the moves.",
    NULL, 2, 3};

static bool bench_no_nnue;

static const Option bench_options[] = {NNUE_COMMAND_OPTIONS(&bench_no_nnue), OPTIONS_END};

static const Command bench_command = {
    "bench", "[perft [VARIANT]]", "the search benchmark, or timed perft",
    "Without arguments: fixed-depth searches of fixed positions of every variant; the total\n"
    "node count is the engine's signature (tests/bench-signature: its first line as it is, its\n"
    "second with --no-nnue, the hand-written evaluation's).  With `perft`: timed perft on the\n"
    "benchmark positions (of one variant when named).",
    bench_options, 0, 2};

static int cmd_perft(int argc, char **argv)
{
    char *args[3];
    int nargs, status;
    if (!options_parse(&perft_command, argc, argv, args, &nargs, &status))
        return status;
    const Variant *v = variant_by_name(args[0]);
    if (!v)
        return options_fail(&perft_command, "unknown variant '%s'", args[0]);
    int depth;
    if (!parse_int(args[1], 1, 64, &depth))
        return options_fail(&perft_command, "bad depth '%s' (1..64)", args[1]);
    Position pos;
    char err[200];
    if (!pos_set_fen(&pos, v, nargs == 3 ? args[2] : v->def->start_fen, err, sizeof err))
        return options_fail(&perft_command, "bad position: %s", err);
    double start = clock_seconds();
    uint64_t total;
    perft_divide(&pos, depth, stdout, NULL, &total);
    double secs = clock_seconds() - start;
    printf("Time: %.3f s\nNodes per second: %.0f\n", secs, secs > 0 ? (double)total / secs : 0.0);
    return 0;
}

static bool mate_show_line;
static const Option mate_options[] = {
    OPTION_FLAG("line", "also print a main line: a first move, the best defence (the reply\n"
                        "that puts the mate off longest), and so on to the mate",
                &mate_show_line),
    OPTIONS_END};

static const Command mate_command = {
    "mate", "[--line] VARIANT N FEN", "prove the shortest forced mate within N moves",
    "Searches every legal move from FEN (no engine heuristics) for the shortest forced\n"
    "mate within N moves (1..8) of the side to move, and prints `mate in K:` with every\n"
    "first move that forces it, or `no mate in N` (exit status 1).  A mate is checkmate, or a\n"
    "stalemate the variant scores as a loss (Starvation, square-says).  The work grows with\n"
    "the number of moves to the power 2N-1: N = 3 is quick in chess, N = 2 in Megastar.",
    mate_options, 3, 3};

/* Prints a main line of the mate, in coordinate notation. */
static void print_mate_line(Position *pos, int k)
{
    Move line[2 * MATE_MOVES_MAX];
    int plies = mate_line(pos, k, line);
    printf("line:");
    for (int i = 0; i < plies; i++) {
        char text[MOVE_TEXT_MAX];
        Undo u;
        move_to_text(pos, line[i], text);
        printf(" %s", text);
        pos_make(pos, line[i], &u);
    }
    printf("\n");
}

/* The shortest forced mate within N moves, proven by exhaustive search (the engine's
 * heuristics play no part): every first move that forces it. */
static int cmd_mate(int argc, char **argv)
{
    char *args[3];
    int nargs, status, most;
    mate_show_line = false;
    if (!options_parse(&mate_command, argc, argv, args, &nargs, &status))
        return status;
    const Variant *v = variant_by_name(args[0]);
    if (!v)
        return options_fail(&mate_command, "unknown variant '%s'", args[0]);
    if (!parse_int(args[1], 1, MATE_MOVES_MAX, &most))
        return options_fail(&mate_command, "bad number of moves '%s' (1..%d)", args[1], MATE_MOVES_MAX);
    Position pos;
    char err[200];
    if (!pos_set_fen(&pos, v, args[2], err, sizeof err))
        return options_fail(&mate_command, "bad position: %s", err);
    Move moves[MAX_MOVES];
    int n = gen_legal(&pos, moves);
    for (int k = 1; k <= most; k++) {
        int found = 0;
        for (int i = 0; i < n; i++) {
            if (!move_mates_within(&pos, moves[i], k))
                continue;
            char text[MOVE_TEXT_MAX];
            move_to_text(&pos, moves[i], text);
            if (!found++)
                printf("mate in %d:", k);
            printf(" %s", text);
        }
        if (found) {
            printf("\n");
            if (mate_show_line)
                print_mate_line(&pos, k);
            return 0;
        }
    }
    printf("no mate in %d\n", most);
    return 1;
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
    {"square-says", "start", NULL, 6},
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
        return options_fail(&bench_command, "cannot allocate the hash table");
    engine.use_nnue = !bench_no_nnue;
    uint64_t total = 0;
    double seconds = 0;
    for (size_t i = 0; i < sizeof search_bench / sizeof search_bench[0]; i++) {
        Game g = {0};
        char err[200];
        const Variant *v = variant_by_name(search_bench[i].variant);
        if (!game_init(&g, v, search_bench[i].fen, err, sizeof err))
            return options_fail(&bench_command, "bench position: %s", err);
        engine_new_game(&engine);
        engine_prepare(&engine, v); /* the hash table's first writes are not the search's time */
        SearchLimits limits = {.depth = search_bench[i].depth};
        SearchResult r = search_run(&engine, &g, &limits, NULL);
        char best[MOVE_TEXT_MAX];
        move_to_text(&g.pos, r.best, best);
        const NnueNet *net = engine.use_nnue ? nnue_net_for(v) : NULL;
        printf("%-20s depth %2d  best %-8s score %6d  nodes %10llu  nps %9.0f  %s\n", search_bench[i].variant,
               search_bench[i].depth, best, r.score, (unsigned long long)r.nodes,
               r.seconds > 0 ? r.nodes / r.seconds : 0.0, net ? net->name : "hand-written");
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
    char *args[2];
    int nargs, status;
    if (!options_parse(&bench_command, argc, argv, args, &nargs, &status))
        return status;
    if (nargs == 0)
        return cmd_bench_search();
    if (strcmp(args[0], "perft") != 0)
        return options_fail(&bench_command, "unknown benchmark '%s' (usage: starfish bench [perft [VARIANT]])", args[0]);
    const char *only = nargs > 1 ? args[1] : NULL;
    if (only && !variant_by_name(only))
        return options_fail(&bench_command, "unknown variant '%s'", only);
    for (size_t i = 0; i < sizeof bench_positions / sizeof bench_positions[0]; i++) {
        if (only && strcmp(only, bench_positions[i].variant) != 0)
            continue;
        const Variant *v = variant_by_name(bench_positions[i].variant);
        Position pos;
        char err[200];
        const char *fen = bench_positions[i].fen ? bench_positions[i].fen : v->def->start_fen;
        if (!pos_set_fen(&pos, v, fen, err, sizeof err))
            return options_fail(&bench_command, "bench position: %s", err);
        rules_stats = (RulesStats){0, 0};
        double start = clock_seconds();
        uint64_t nodes = perft(&pos, bench_positions[i].depth);
        double secs = clock_seconds() - start;
        /* The share of legal moves made and tested because no mask decided them. */
        printf("%-11s %-9s depth %d  nodes %12llu  time %7.3f s  nps %11.0f  tested %5.2f%%\n",
               bench_positions[i].variant, bench_positions[i].name, bench_positions[i].depth,
               (unsigned long long)nodes, secs, secs > 0 ? (double)nodes / secs : 0.0,
               rules_stats.legal ? 100.0 * (double)rules_stats.tested / (double)rules_stats.legal : 0.0);
    }
    return 0;
}

static const Command version_command = {
    "version", "", "the version, the commit and how this program was built (also --version)",
    "Prints `starfish X.Y.Z`, the commit of the tree it was built from (`git describe`), the\n"
    "compiler and the flags that decided its instructions, and how the rules find a slider's\n"
    "attacks on this CPU (PEXT where the CPU has BMI2 and runs it fast; STARFISH_PEXT=0 turns\n"
    "that off).",
    NULL, 0, 0};

static void print_version(void)
{
    printf("starfish %s\ncommit %s\nbuilt with %s\nslider attacks: %s\n", version_number(), version_commit(),
           version_build(), rules_slider_method());
}

static int cmd_version(int argc, char **argv)
{
    int nargs, status;
    if (!options_parse(&version_command, argc, argv, NULL, &nargs, &status))
        return status;
    print_version();
    return 0;
}

/* Every subcommand: its table (usage, summary, options) and what runs it. */
static const Subcommand subcommands[] = {
    {&perft_command, cmd_perft}, {&mate_command, cmd_mate},   {&bench_command, cmd_bench},
    {&serve_command, server_main}, {&user_command, user_main}, {&backup_command, backup_main},
    {&restore_command, restore_main},
    {&match_command, match_main}, {&tb_command, tb_main},     {&tune_command, tune_main},
    {&gensfen_command, gensfen_main},
    {&bot_command, bot_main},
    {&version_command, cmd_version},
};
#define SUBCOMMANDS (int)(sizeof subcommands / sizeof subcommands[0])

static int cmd_help(void)
{
    printf("starfish: a multi-variant chess engine\n\nusage:\n");
    printf("  %-38sspeak UCI on standard input/output\n", "starfish");
    options_list(subcommands, SUBCOMMANDS, stdout);
    printf("  %-38sthis text ('starfish COMMAND --help' for each command)\n\nvariants:", "starfish help");
    for (int i = 0; i < variant_count(); i++)
        printf(" %s", variant_at(i)->def->name);
    printf("\n");
    return 0;
}

int cli_main(int argc, char **argv)
{
    tb_install();
    if (argc < 2)
        return uci_loop(stdin, stdout);
    int status;
    if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return cmd_help();
    if (strcmp(argv[1], "--version") == 0 && argc == 2) {
        print_version();
        return 0;
    }
    if (options_run(subcommands, SUBCOMMANDS, argc - 1, argv + 1, &status))
        return status;
    fprintf(stderr, "starfish: unknown command '%s' (see 'starfish help')\n", argv[1]);
    return 2;
}
