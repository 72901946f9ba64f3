/* `starfish tb ...`: generate, probe, verify and summarise the Starchess tablebases. */
#include <stdlib.h>
#include <string.h>

#include "../cluster/ranks.h"
#include "../core/notation.h"
#include "../util/options.h"
#include "tb_internal.h"

int tb_stats_main(const char *dir, int max_men, int threads, const TbSig *only, int nonly, const char *docs,
                  const char *data);

/* The options of generate. */
static TbGenOptions gen = {.max_men = 4, .threads = 2, .dir = "tb"};
static const Option generate_options[] = {
    OPTION_INT("max-pieces", "N", "every signature of up to N men, kings included (default 4, at most " NUMBER_TEXT(
                                      TB_MAX_MEN) ")",
               &gen.max_men, 2, TB_MAX_MEN),
    OPTION_STRING("dir", "DIR", "where the tables go (default tb/)", &gen.dir),
    OPTION_INT("threads", "T", "threads (default 2; per rank under mpirun)", &gen.threads, 1, 16),
    OPTION_STRING("only", "SIG", "build that table (KQvKR) and whatever it needs", &gen.only),
    OPTION_FLAG("force", "rebuild tables whose files are there (else they are checked and kept)", &gen.force),
    OPTION_FLAG("quiet", "no progress lines", &gen.quiet),
    OPTIONS_END,
};
static const Command generate_command = {
    "tb generate", "[OPTIONS]", "build the tables, smaller ones first",
    "Builds every Starchess table of up to N men by retrograde analysis, smaller tables first\n"
    "(4 men: under a minute and 55 MB; 5 men: about an hour and 6.6 GB).\n"
    "\n"
    "`mpirun -n K starfish-mpi tb generate ...` spreads the tables over K processes (on one\n"
    "machine or several; docs/deploy.md), each table once the tables it converts into are built,\n"
    "every rank writing to DIR, which all must see; the files are those of one process.",
    generate_options, 0, 0};

/* The option every other command has: where the tables are. */
static const char *tables_dir = "tb";
#define DIR_OPTION OPTION_STRING("dir", "DIR", "the tables' folder (default tb/)", &tables_dir)

static const Option probe_options[] = {DIR_OPTION, OPTIONS_END};
static const Command probe_command = {
    "tb probe", "FEN [OPTIONS]", "a position's result, DTM and DTZ, and every move's outcome",
    "Looks a Starchess position (movement phase) up in the tables: the result for the side to\n"
    "move, its distance to mate and DTZ, the best moves and the outcome of every legal move.",
    probe_options, 1, 1};

/* verify and stats read a set of tables: --dir, --max-pieces or the signatures named. */
typedef struct {
    int max_men, threads, nsigs;
    TbSig sigs[4096];
} TableSet;
static TableSet set = {.max_men = 4, .threads = 2};
#define TABLE_SET_OPTIONS                                                                                        \
    DIR_OPTION, OPTION_INT("max-pieces", "N", "every table of up to N men (default 4), unless SIGs are named",    \
                           &set.max_men, 2, TB_MAX_MEN),                                                          \
        OPTION_INT("threads", "T", "threads (default 2)", &set.threads, 1, 16)

static int sample;
static bool derived;
static const Option verify_options[] = {
    TABLE_SET_OPTIONS,
    OPTION_INT("sample", "K", "check K random entries per table (default 0: all)", &sample, 0, 1000000000),
    OPTION_FLAG("derived", "check the compiled derived data (dead positions, 50-move exceptions)\nagainst the tables instead",
                &derived),
    OPTIONS_END,
};
static const Command verify_command = {
    "tb verify", "[OPTIONS] [SIG...]", "check stored values against the rules core",
    "Checks every stored value (or a sample) against the rules core and the successors' values.",
    verify_options, 0, 4096};

static const char *docs_path, *data_path;
static const Option stats_options[] = {
    TABLE_SET_OPTIONS,
    OPTION_STRING("write-docs", "FILE", "write the results as Markdown between the markers in FILE", &docs_path),
    OPTION_STRING("write-data", "FILE", "write the derived rules' data image (src/tablebase/derived_data.bin)",
                  &data_path),
    OPTIONS_END,
};
static const Command stats_command = {
    "tb stats", "[OPTIONS] [SIG...]", "results, dead positions and 50-move exceptions per table",
    "Per-signature results, dead positions and 50-move exceptions (of the signatures named, or\n"
    "of all up to N men); optionally written as Markdown and as the derived rules' data image.",
    stats_options, 0, 4096};

static const Option dump_options[] = {DIR_OPTION, OPTIONS_END};
static const Command dump_command = {
    "tb dump", "SIG [OPTIONS]", "every valid entry of a table",
    "Prints every valid entry: side, index, value (DTM; -1 draw, -2 dead draw), DTZ, FEN.", dump_options, 1, 1};

const Command tb_command = {"tb", "COMMAND [...]", "Starchess endgame tablebases (tb --help)",
                            "Starchess endgame tablebases (variant starchess, movement phase).", NULL, 0, 0};

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
    int nargs, status;
    if (!options_parse(&generate_command, argc, argv, NULL, &nargs, &status))
        return status;
    char err[200];
    if (!ranks_start(err, sizeof err))
        return options_fail(&generate_command, "%s", err), 1;
    status = tb_generate(&gen);
    ranks_finish();
    return status;
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
    char *fen;
    int nargs, status;
    if (!options_parse(&probe_command, argc, argv, &fen, &nargs, &status))
        return status;
    const char *dir = tables_dir;
    const Variant *v = variant_by_name("starchess");
    Position pos;
    char err[512];
    if (!pos_set_fen(&pos, v, fen, err, sizeof err))
        return options_fail(&probe_command, "bad position: %s", err);
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

/* Reads the signatures named (or lists those of up to max_men men); false after a bad one. */
static bool read_table_set(const Command *c, char **names, int n)
{
    for (int i = 0; i < n; i++)
        if (!parse_signature(names[i], &set.sigs[i]))
            return options_fail(c, "bad signature '%s'", names[i]), false;
    set.nsigs = n ? n : tb_sig_list(set.max_men, set.sigs, 4096);
    tb_set_dir(tables_dir);
    return true;
}

static int cmd_verify(int argc, char **argv)
{
    static char *names[4096];
    int nargs, status;
    if (!options_parse(&verify_command, argc, argv, names, &nargs, &status))
        return status;
    if (!read_table_set(&verify_command, names, nargs))
        return 2;
    TbSig *sigs = set.sigs;
    int nsigs = set.nsigs;
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
    static char *names[4096];
    int nargs, status;
    if (!options_parse(&stats_command, argc, argv, names, &nargs, &status))
        return status;
    if (nargs && (docs_path || data_path))
        return options_fail(&stats_command, "--write-docs and --write-data need every signature, not a list");
    if (!read_table_set(&stats_command, names, nargs))
        return 2;
    return tb_stats_main(tables_dir, set.max_men, set.threads, nargs ? set.sigs : NULL, nargs, docs_path, data_path);
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
    char *name;
    int nargs, status;
    if (!options_parse(&dump_command, argc, argv, &name, &nargs, &status))
        return status;
    TbSig sig;
    if (!parse_signature(name, &sig))
        return options_fail(&dump_command, "bad signature '%s'", name);
    tb_set_dir(tables_dir);
    const TbTable *t = tb_get_table(&sig);
    if (!t) {
        fprintf(stderr, "starfish: %s\n", tb_last_error());
        return 1;
    }
    tb_each_entry(t, dump_entry, NULL);
    return 0;
}

/* The tb commands, each with what runs it. */
static const Subcommand tb_commands[] = {
    {&generate_command, cmd_generate}, {&probe_command, cmd_probe}, {&verify_command, cmd_verify},
    {&stats_command, cmd_stats},       {&dump_command, cmd_dump},
};
#define TB_COMMANDS (int)(sizeof tb_commands / sizeof tb_commands[0])

static int tb_help(void)
{
    printf("usage: starfish tb COMMAND [...]\n\n%s\n\n", tb_command.about);
    options_list(tb_commands, TB_COMMANDS, stdout);
    printf("\n'starfish tb COMMAND --help' lists a command's options.\n");
    return 0;
}

int tb_main(int argc, char **argv)
{
    if (argc < 2)
        return options_fail(&tb_command, "tb needs a command: generate, probe, verify, stats or dump");
    int status;
    if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return tb_help();
    if (options_run(tb_commands, TB_COMMANDS, argc - 1, argv + 1, &status))
        return status;
    return options_fail(&tb_command, "unknown tb command '%s'", argv[1]);
}
