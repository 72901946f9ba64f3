/*
 * The shared utilities of src/util/ (numbers, the generator, the text buffer, the error
 * helper, the option parser, big tables) and two pieces of the rules core that serve several callers: the perft divide and
 * the PGN writer's tags.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/pgn.h"
#include "../../src/util/bigmem.h"
#include "../../src/util/error.h"
#include "../../src/util/options.h"
#include "../../src/util/parse.h"
#include "../../src/util/rng.h"
#include "../../src/util/text.h"
#include "helpers.h"
#include "test.h"

TEST(util_parse_long_is_strict)
{
    long n = 7;
    CHECK(parse_long("42", 0, 100, &n) && n == 42);
    CHECK(parse_long("-5", -10, 10, &n) && n == -5);
    n = 7;
    const char *bad[] = {"", " 5", "5 ", "5x", "1.5", "x", "101", "-11", "99999999999999999999", "0x10"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(!parse_long(bad[i], -10, 100, &n));
    CHECK_EQ_INT(n, 7); /* left alone */
    int k;
    CHECK(parse_int("64", 1, 64, &k) && k == 64);
    CHECK(!parse_int("65", 1, 64, &k) && !parse_int("0", 1, 64, &k));
}

TEST(util_parse_u64_and_double)
{
    uint64_t u;
    CHECK(parse_u64("18446744073709551615", &u) && u == UINT64_MAX);
    CHECK(!parse_u64("18446744073709551616", &u));
    CHECK(!parse_u64("-1", &u) && !parse_u64("", &u) && !parse_u64("1e3", &u));
    double x;
    CHECK(parse_double("0.25", 0, 1, &x) && x == 0.25);
    CHECK(parse_double("-3", -5, 5, &x) && x == -3);
    CHECK(!parse_double("1.5", 0, 1, &x) && !parse_double("nan", -1e9, 1e9, &x));
    CHECK(!parse_double("inf", -1e300, 1e300, &x) && !parse_double("2,5", 0, 9, &x));
}

TEST(util_rng_is_splitmix64)
{
    /* The published splitmix64 sequence from state 0. */
    uint64_t s = 0;
    CHECK(rng_next(&s) == 0xe220a8397b1dcdafULL);
    CHECK(rng_next(&s) == 0x6e789e6aa1b965f4ULL);
    CHECK(rng_next(&s) == 0x06c45d188009454fULL);
    CHECK(rng_mix(0) == 0xe220a8397b1dcdafULL);
    uint64_t a = 99, b = 99;
    bool seen[10] = {false};
    for (int i = 0; i < 1000; i++) {
        uint64_t x = rng_below(&a, 10);
        CHECK(x < 10 && x == rng_below(&b, 10));
        seen[x] = true;
    }
    for (int i = 0; i < 10; i++)
        CHECK(seen[i]);
}

/* Big tables come zeroed and aligned to a 2 MB huge page, whatever their size, and can be
 * written from end to end. */
TEST(util_bigmem_is_zeroed_and_aligned)
{
    CHECK(bigmem_alloc(0) == NULL);
    size_t sizes[] = {64, (size_t)3 << 20, (size_t)16 << 20};
    for (int i = 0; i < 3; i++) {
        unsigned char *p = bigmem_alloc(sizes[i]);
        CHECK(p != NULL);
        CHECK_EQ_INT((int)((uintptr_t)p & (((size_t)2 << 20) - 1)), 0);
        CHECK_EQ_INT(p[0] | p[sizes[i] / 2] | p[sizes[i] - 1], 0);
        memset(p, 0xab, sizes[i]);
        CHECK_EQ_INT(p[sizes[i] - 1], 0xab);
        bigmem_free(p, sizes[i]);
    }
    bigmem_free(NULL, 0);
}

/* The process's mapped memory in kB (VmSize in /proc/self/status), or -1. */
static long mapped_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long kb = -1;
    while (kb < 0 && fgets(line, sizeof line, f))
        if (sscanf(line, "VmSize: %ld kB", &kb) != 1)
            kb = -1;
    fclose(f);
    return kb;
}

/* Tables of any size are given back whole: a thousand of less than a page each leave nothing
 * mapped (the end of the 2 MB margin was once left mapped for sizes that were not whole
 * pages, 2 MB per table, until mmap failed). */
TEST(util_bigmem_gives_small_tables_back)
{
    long before = mapped_kb();
    for (int i = 0; i < 1000; i++) {
        size_t bytes = 64 + (size_t)i * 37;
        bigmem_free(bigmem_alloc(bytes), bytes);
    }
    CHECK(before > 0);
    CHECK(mapped_kb() - before < 16384);
}

TEST(util_text_grows_and_hands_over)
{
    Text t = {0};
    CHECK_EQ_STR(text_str(&t), "");
    for (int i = 0; i < 1000; i++)
        CHECK(text_addf(&t, "%d,", i % 10));
    CHECK_EQ_INT(t.len, 2000);
    CHECK(strlen(t.s) == 2000 && strncmp(t.s, "0,1,2,", 6) == 0);
    text_clear(&t);
    CHECK(text_add(&t, "ab") && text_add(&t, "cd"));
    CHECK_EQ_STR(text_str(&t), "abcd");
    char *s = text_take(&t);
    CHECK_EQ_STR(s, "abcd");
    CHECK(t.s == NULL && t.len == 0);
    free(s);
    text_free(&t);
}

TEST(util_error_set_formats_and_cuts)
{
    char err[8];
    CHECK(!error_set(err, sizeof err, "bad %s '%d'", "depth", 12345));
    CHECK_EQ_STR(err, "bad dep");
    CHECK(!error_set(NULL, 0, "nothing %d", 1));
}

/* ---- the option parser ---- */

typedef struct {
    int games;
    double alpha;
    const char *pgn;
    bool quiet;
    double sprt[2];
    uint64_t seed;
} Opts;

static bool read_pair(void *target, char **values, char *err, size_t errlen)
{
    double *pair = target;
    if (!parse_double(values[0], -1e6, 1e6, &pair[0]) || !parse_double(values[1], -1e6, 1e6, &pair[1]))
        return error_set(err, errlen, "--sprt needs two numbers, not '%s %s'", values[0], values[1]);
    return true;
}

static Opts opts;
static const Option test_options[] = {
    OPTION_INT("games", "N", "games", &opts.games, 1, 100),
    OPTION_DOUBLE("alpha", "A", "error rate", &opts.alpha, 0.001, 0.5),
    OPTION_STRING("pgn", "FILE", "where", &opts.pgn),
    OPTION_FLAG("quiet", "say less", &opts.quiet),
    OPTION_CALL("sprt", "ELO0 ELO1", "a test", opts.sprt, 2, read_pair),
    OPTION_U64("seed", "S", "seed", &opts.seed),
    OPTIONS_END,
};
static const Command test_command = {"test", "A [B]", "a test command", NULL, test_options, 1, 2};

/* Parses a space-separated command line (after the command's word); returns the status
 * (-1: go on) and the plain arguments joined by '|' in args. */
static int parse_line(const char *line, char *args, size_t len)
{
    char copy[256], *argv[32] = {"test"}, *save = NULL, *found[2];
    int argc = 1, nargs, status;
    snprintf(copy, sizeof copy, "%s", line);
    for (char *t = strtok_r(copy, " ", &save); t && argc < 31; t = strtok_r(NULL, " ", &save))
        argv[argc++] = t;
    memset(&opts, 0, sizeof opts);
    opts.games = 20;
    bool go_on = options_parse(&test_command, argc, argv, found, &nargs, &status);
    args[0] = 0;
    for (int i = 0; go_on && i < nargs; i++)
        snprintf(args + strlen(args), len - strlen(args), "%s%s", i ? "|" : "", found[i]);
    return go_on ? -1 : status;
}

TEST(util_options_read_every_kind)
{
    char args[128];
    CHECK_EQ_INT(parse_line("x --games 5 --alpha=0.1 --pgn out.pgn --quiet --sprt -5 5 --seed 9 y", args, sizeof args),
                 -1);
    CHECK_EQ_STR(args, "x|y");
    CHECK(opts.games == 5 && opts.alpha == 0.1 && strcmp(opts.pgn, "out.pgn") == 0 && opts.quiet);
    CHECK(opts.sprt[0] == -5 && opts.sprt[1] == 5 && opts.seed == 9);
    /* A negative number is an argument; after "--" everything is. */
    CHECK_EQ_INT(parse_line("-1 -- --games", args, sizeof args), -1);
    CHECK_EQ_STR(args, "-1|--games");
    CHECK_EQ_INT(opts.games, 20);
}

TEST(util_options_refuse_bad_lines_with_status_2)
{
    char args[128];
    const char *bad[] = {
        "",                       /* too few arguments */
        "a b c",                  /* too many */
        "a --frobnicate",         /* unknown */
        "a --game 5",             /* no abbreviations */
        "a --games",              /* no value */
        "a --games 0",            /* out of range */
        "a --games ten",          /* not a number */
        "a --alpha 0.7",          /* out of range */
        "a --pgn=",               /* empty */
        "a --quiet=yes",          /* a flag takes no value */
        "a --sprt 5",             /* one value of two */
        "a --sprt x 5",           /* the call refuses */
        "a --seed -1",            /* negative */
        "a -x",                   /* unknown short option */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (parse_line(bad[i], args, sizeof args) != 2)
            test_fail(__FILE__, __LINE__, "'%s' was not refused", bad[i]);
}

/* perft_divide's text (malloc'ed, its length in *len) from the position of fen (NULL: the
 * start); *finished tells whether it ran to the end. */
static char *divide_text(const char *fen, int depth, bool stop_at_once, bool *finished, uint64_t *total, size_t *len)
{
    Position pos;
    if (!setup(&pos, "chess", fen))
        return NULL;
    char *out = NULL;
    FILE *f = open_memstream(&out, len);
    atomic_bool stop = stop_at_once;
    *finished = perft_divide(&pos, depth, f, &stop, total);
    fclose(f);
    return out;
}

TEST(util_perft_divide_prints_each_move_and_the_total)
{
    const char *fen = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1";
    bool finished;
    uint64_t total;
    size_t len;
    char *out = divide_text(fen, 2, false, &finished, &total, &len);
    Position pos;
    if (!out || !setup(&pos, "chess", fen))
        return;
    CHECK(finished);
    CHECK_EQ_INT(total, perft(&pos, 2));
    CHECK(strstr(out, "e1c1: ") != NULL && strstr(out, "a1a8: 3\n") != NULL);
    char tail[64];
    snprintf(tail, sizeof tail, "\n\nNodes searched: %llu\n", (unsigned long long)total);
    CHECK(len > strlen(tail) && strcmp(out + len - strlen(tail), tail) == 0);
    free(out);
}

TEST(util_perft_divide_stopped_prints_no_total)
{
    bool finished;
    uint64_t total;
    size_t len;
    char *out = divide_text(NULL, 3, true, &finished, &total, &len);
    if (!out)
        return;
    CHECK(!finished);
    CHECK(len == 0 && strstr(out, "Nodes searched") == NULL);
    free(out);
}

TEST(util_pgn_tags_are_escaped_and_optional)
{
    Game g = {0};
    if (!start_game(&g, "chess", NULL) || !play_moves(&g, "e4 e5"))
        return;
    Text t = {0};
    CHECK(game_pgn(&g, &(PgnTags){.event = "a \"test\"", .white = "back\\slash", .round = "3"}, &t));
    CHECK(strncmp(t.s, "[Event \"a \\\"test\\\"\"]\n[Site \"starfish\"]\n[Round \"3\"]\n[White \"back\\\\slash\"]\n"
                       "[Black \"?\"]\n[Result \"*\"]\n[Variant \"chess\"]\n\n1. e4 e5 *\n",
                  t.len) == 0);
    text_clear(&t);
    CHECK(game_pgn(&g, NULL, &t));
    CHECK(strstr(t.s, "[Event \"?\"]") && !strstr(t.s, "[Date") && !strstr(t.s, "[TimeControl"));
    text_free(&t);
    game_free(&g);
}

/* A '}' outside a comment is refused as a move, and the import ends (a movetext loop once
 * stopped on it for ever: found by fuzz_pgn). */
TEST(util_pgn_import_refuses_a_stray_closing_brace)
{
    Game g = {0};
    char err[300] = "";
    const char *stray = "[Variant \"chess\"]\n\n1. e4 } e5 *\n", *fine = "[Variant \"chess\"]\n\n1. e4 {a} e5 *\n";
    CHECK(!game_from_pgn(&g, stray, NULL, variant_by_name, err, sizeof err));
    CHECK(strstr(err, "}") != NULL);
    game_free(&g);
    CHECK(game_from_pgn(&g, fine, NULL, variant_by_name, err, sizeof err));
    CHECK_EQ_INT(g.n, 2);
    game_free(&g);
}
