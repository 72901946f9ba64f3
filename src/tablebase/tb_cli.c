/* `starfish tb ...`: generate, probe, verify and summarise the Starchess tablebases. */
#include <stdlib.h>
#include <string.h>

#include "../core/notation.h"
#include "../util/parse.h"
#include "tb_internal.h"

int tb_stats_main(const char *dir, int max_men, int threads, const TbSig *only, int nonly, const char *docs,
                  const char *data);

static int tb_usage(const char *msg, const char *arg)
{
    fprintf(stderr, "starfish: ");
    fprintf(stderr, msg, arg);
    fprintf(stderr, "\n(see 'starfish tb help')\n");
    return 2;
}

static int tb_help(void)
{
    printf("starfish tb: Starchess endgame tablebases (variant starchess, movement phase)\n\n"
           "  starfish tb generate [--max-pieces N] [--dir DIR] [--threads T] [--only SIG] [--force] [--quiet]\n"
           "        build every signature of up to N men (default 4, kings included; at most %d) into DIR\n"
           "        (default tb/), smaller tables first; files already there are checked and kept unless\n"
           "        --force; --only KQvKR builds that table and whatever it needs\n"
           "  starfish tb probe FEN [--dir DIR]\n"
           "        the result, distance to mate and DTZ of a position, and every legal move's outcome\n"
           "  starfish tb verify [--dir DIR] [--max-pieces N] [--sample K] [--threads T] [--derived] [SIG...]\n"
           "        check stored values against the rules core (all entries, or K random ones per table);\n"
           "        --derived: check the compiled derived data (dead positions, 50-move exceptions)\n"
           "        against the tables instead\n"
           "  starfish tb stats [--dir DIR] [--max-pieces N] [--threads T] [--write-docs FILE] [--write-data FILE] [SIG...]\n"
           "        per-signature results, dead positions and 50-move exceptions (of the signatures\n"
           "        named, or of all up to N men); optionally written as Markdown (between markers in\n"
           "        FILE) and as the derived rules' data image (src/tablebase/derived_data.bin)\n"
           "  starfish tb dump SIG [--dir DIR]\n"
           "        every valid entry: side, index, value (DTM; -1 draw, -2 dead draw), DTZ, FEN\n",
           TB_MAX_MEN);
    return 0;
}

/* A signature named on the command line, in its stored orientation. */
static bool parse_signature(const char *text, TbSig *sig)
{
    if (!tb_sig_parse(text, sig))
        return false;
    if (!tb_sig_canonical(sig))
        *sig = tb_sig_flip(sig);
    return true;
}

static int cmd_generate(int argc, char **argv)
{
    TbGenOptions o = {.max_men = 4, .threads = 2, .dir = "tb"};
    for (int i = 3; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (strcmp(a, "--max-pieces") == 0 && has) {
            if (!parse_int(argv[++i], 2, TB_MAX_MEN, &o.max_men))
                return tb_usage("bad --max-pieces '%s' (2..6)", argv[i]);
        } else if (strcmp(a, "--threads") == 0 && has) {
            if (!parse_int(argv[++i], 1, 16, &o.threads))
                return tb_usage("bad --threads '%s' (1..16)", argv[i]);
        } else if (strcmp(a, "--dir") == 0 && has) {
            o.dir = argv[++i];
        } else if (strcmp(a, "--only") == 0 && has) {
            o.only = argv[++i];
        } else if (strcmp(a, "--force") == 0) {
            o.force = true;
        } else if (strcmp(a, "--quiet") == 0) {
            o.quiet = true;
        } else {
            return tb_usage("tb generate: unknown or incomplete option '%s'", a);
        }
    }
    return tb_generate(&o);
}

static void describe(int v, char *buf, size_t len)
{
    if (v == TBV_DRAW)
        snprintf(buf, len, "draw");
    else if (v == TBV_DEAD)
        snprintf(buf, len, "draw (dead position)");
    else if (v == 0)
        snprintf(buf, len, "loss: checkmated");
    else if (v % 2)
        snprintf(buf, len, "win: mate in %d (%d pl%s)", (v + 1) / 2, v, v == 1 ? "y" : "ies");
    else
        snprintf(buf, len, "loss: mated in %d (%d plies)", v / 2, v);
}

typedef struct {
    Move m;
    char text[MOVE_TEXT_MAX], san[MOVE_TEXT_MAX];
    int mover; /* the outcome for the mover: dtm of the mover's result, signed */
    int rank;  /* smaller is better */
    int child, dtz;
} MoveOutcome;

static int compare_outcome(const void *a, const void *b)
{
    const MoveOutcome *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return strcmp(x->text, y->text);
}

static int cmd_probe(int argc, char **argv)
{
    const char *fen = NULL, *dir = "tb";
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (!fen)
            fen = argv[i];
        else
            return tb_usage("tb probe: unexpected argument '%s'", argv[i]);
    }
    if (!fen)
        return tb_usage("tb probe needs a position (FEN)%s", "");
    const Variant *v = variant_by_name("starchess");
    Position pos;
    char err[512];
    if (!pos_set_fen(&pos, v, fen, err, sizeof err))
        return tb_usage("bad position: %s", err);
    tb_set_dir(dir);
    TbResult r;
    if (!tb_probe(&pos, &r)) {
        if (!tb_last_error_printed())
            fprintf(stderr, "starfish: not in the tables: %s\n", tb_last_error());
        return 1;
    }
    TbSig sig;
    TbPos p;
    bool flipped;
    tb_encode(&pos, &sig, &p, &flipped);
    char name[32], path[4200], fenout[FEN_MAX], what[96];
    tb_sig_name(&sig, name);
    tb_file_name(dir, &sig, path, sizeof path);
    pos_fen(&pos, fenout, sizeof fenout);
    const char *mover = pos.side == WHITE ? "White" : "Black";
    printf("position: %s\n", fenout);
    printf("table:    %s (%s)%s\n", name, path, flipped ? ", colours swapped" : "");
    int value = r.wdl == TB_DRAW ? (r.dead ? TBV_DEAD : TBV_DRAW) : r.dtm;
    describe(value, what, sizeof what);
    printf("result:   %s to move: %s", mover, what);
    if (r.wdl != TB_DRAW)
        printf("; DTZ %d pl%s", r.dtz, r.dtz == 1 ? "y" : "ies");
    printf("\n");
    Move moves[MAX_MOVES];
    int n = gen_legal(&pos, moves);
    MoveOutcome *out = calloc((size_t)(n ? n : 1), sizeof *out);
    for (int i = 0; i < n; i++) {
        MoveOutcome *o = &out[i];
        o->m = moves[i];
        move_to_text(&pos, moves[i], o->text);
        move_to_san(&pos, moves[i], o->san);
        Undo u;
        pos_make(&pos, moves[i], &u);
        bool ok;
        int dz = 0;
        o->child = tb_probe_value(&pos, &dz, &ok);
        o->dtz = dz;
        pos_unmake(&pos, moves[i], &u);
        if (!ok) {
            fprintf(stderr, "starfish: a successor cannot be probed: %s\n", tb_last_error());
            free(out);
            return 1;
        }
        if (o->child >= 0 && o->child % 2 == 0)
            o->rank = o->child; /* the opponent loses: sooner is better */
        else if (o->child < 0)
            o->rank = 100000;
        else
            o->rank = 200000 - o->child; /* the opponent wins: later is better */
    }
    qsort(out, (size_t)n, sizeof *out, compare_outcome);
    printf("best moves:");
    for (int i = 0; i < n && out[i].rank == out[0].rank; i++)
        printf(" %s", out[i].text);
    printf("%s\nmoves (outcome for %s):\n", n ? "" : " none", mover);
    for (int i = 0; i < n; i++) {
        MoveOutcome *o = &out[i];
        char res[96];
        if (o->child == TBV_DRAW || o->child == TBV_DEAD)
            snprintf(res, sizeof res, "draw%s", o->child == TBV_DEAD ? " (dead)" : "");
        else if (o->child % 2 == 0)
            snprintf(res, sizeof res, "win in %d pl%s%s", o->child + 1, o->child ? "ies" : "y",
                     o->child == 0 ? " (mate)" : "");
        else
            snprintf(res, sizeof res, "loss in %d plies", o->child + 1);
        printf("  %-8s %-8s %s%s\n", o->text, o->san, res, o->rank == out[0].rank ? "  *" : "");
    }
    free(out);
    return 0;
}

/* The options verify and stats share: which tables (--dir, --max-pieces or signatures named)
 * and how many threads. */
typedef struct {
    const char *dir;
    int max_men, threads, nsigs;
    TbSig sigs[4096];
} TableSet;

/* Reads argv[*i] (and its value) if it is one of TableSet's options: 1 read, 0 not one of
 * them, -1 a bad value (reported). */
static int table_set_option(TableSet *t, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    bool has = *i + 1 < argc;
    if (strcmp(a, "--dir") == 0 && has) {
        t->dir = argv[++*i];
    } else if (strcmp(a, "--max-pieces") == 0 && has) {
        if (!parse_int(argv[++*i], 2, TB_MAX_MEN, &t->max_men))
            return tb_usage("bad --max-pieces '%s'", argv[*i]), -1;
    } else if (strcmp(a, "--threads") == 0 && has) {
        if (!parse_int(argv[++*i], 1, 16, &t->threads))
            return tb_usage("bad --threads '%s'", argv[*i]), -1;
    } else if (a[0] != '-' && t->nsigs < 4096) {
        if (!parse_signature(a, &t->sigs[t->nsigs++]))
            return tb_usage("bad signature '%s'", a), -1;
    } else {
        return 0;
    }
    return 1;
}

static int cmd_verify(int argc, char **argv)
{
    static TableSet set = {.dir = "tb", .max_men = 4, .threads = 2};
    bool derived = false;
    int sample = 0;
    for (int i = 3; i < argc; i++) {
        int read = table_set_option(&set, argc, argv, &i);
        if (read < 0)
            return 2;
        if (read)
            continue;
        if (strcmp(argv[i], "--sample") == 0 && i + 1 < argc) {
            if (!parse_int(argv[++i], 0, 1000000000, &sample))
                return tb_usage("bad --sample '%s'", argv[i]);
        } else if (strcmp(argv[i], "--derived") == 0) {
            derived = true;
        } else {
            return tb_usage("tb verify: unknown option '%s'", argv[i]);
        }
    }
    TbSig *sigs = set.sigs;
    int nsigs = set.nsigs ? set.nsigs : tb_sig_list(set.max_men, sigs, 4096);
    tb_set_dir(set.dir);
    int bad = 0;
    double t0 = clock_seconds();
    for (int i = 0; i < nsigs; i++) {
        char name[32];
        tb_sig_name(&sigs[i], name);
        const TbTable *t = tb_get_table(&sigs[i]);
        if (!t) {
            fprintf(stderr, "starfish: %s: %s\n", name, tb_last_error());
            bad++;
            continue;
        }
        double t1 = clock_seconds();
        TbEntryCheck check = derived ? tb_verify_derived_entry : tb_verify_entry;
        int f = derived && t->L.men > tb_derived_max_men()
                    ? 0
                    : tb_check_table(t, check, (uint64_t)sample, 12345 + (uint64_t)i, set.threads);
        uint64_t total = 2 * t->L.per_side, checked = sample == 0 || (uint64_t)sample > total ? total : (uint64_t)sample;
        printf("%-10s %s  %llu entries checked  %.2f s\n", name, f ? "FAILED" : "ok", (unsigned long long)checked,
               clock_seconds() - t1);
        fflush(stdout);
        bad += f != 0;
    }
    printf("%d table%s failed; %.1f s\n", bad, bad == 1 ? "" : "s", clock_seconds() - t0);
    return bad ? 1 : 0;
}

static int cmd_stats(int argc, char **argv)
{
    static TableSet set = {.dir = "tb", .max_men = 4, .threads = 2};
    const char *docs = NULL, *data = NULL;
    for (int i = 3; i < argc; i++) {
        int read = table_set_option(&set, argc, argv, &i);
        if (read < 0)
            return 2;
        if (read)
            continue;
        if (strcmp(argv[i], "--write-docs") == 0 && i + 1 < argc)
            docs = argv[++i];
        else if (strcmp(argv[i], "--write-data") == 0 && i + 1 < argc)
            data = argv[++i];
        else
            return tb_usage("tb stats: unknown option '%s'", argv[i]);
    }
    if (set.nsigs && (docs || data))
        return tb_usage("tb stats: --write-docs and --write-data need every signature, not a list%s", "");
    return tb_stats_main(set.dir, set.max_men, set.threads, set.sigs, set.nsigs, docs, data);
}

/* Every valid entry of a table as "side index value dtz fen" (value: DTM, -1 draw, -2 dead). */
static void dump_entry(const TbTable *t, int side, uint64_t idx, int v, Position *pos, void *ctx)
{
    (void)ctx;
    char fen[FEN_MAX];
    pos_fen(pos, fen, sizeof fen);
    printf("%d %llu %d %d %s\n", side, (unsigned long long)idx, v, tb_table_dtz(t, side, idx), fen);
}

static int cmd_dump(int argc, char **argv)
{
    const char *dir = "tb";
    TbSig sig;
    bool have = false;
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (!have && parse_signature(argv[i], &sig))
            have = true;
        else
            return tb_usage("tb dump: bad argument '%s'", argv[i]);
    }
    if (!have)
        return tb_usage("tb dump needs a signature%s", "");
    tb_set_dir(dir);
    const TbTable *t = tb_get_table(&sig);
    if (!t) {
        fprintf(stderr, "starfish: %s\n", tb_last_error());
        return 1;
    }
    tb_each_entry(t, dump_entry, NULL);
    return 0;
}

int tb_main(int argc, char **argv)
{
    if (argc < 3)
        return tb_usage("tb needs a command: generate, probe, verify, stats or dump%s", "");
    if (strcmp(argv[2], "help") == 0 || strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)
        return tb_help();
    if (strcmp(argv[2], "generate") == 0)
        return cmd_generate(argc, argv);
    if (strcmp(argv[2], "probe") == 0)
        return cmd_probe(argc, argv);
    if (strcmp(argv[2], "verify") == 0)
        return cmd_verify(argc, argv);
    if (strcmp(argv[2], "stats") == 0)
        return cmd_stats(argc, argv);
    if (strcmp(argv[2], "dump") == 0)
        return cmd_dump(argc, argv);
    return tb_usage("unknown tb command '%s'", argv[2]);
}
