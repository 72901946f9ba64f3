/*
 * `starfish tune` (tune_main): the games to fit (read from PGN or labelled EPD, or played by
 * the self-play generator), the fit by tune.c's optimiser, and the fitted weights written into
 * src/engine/weights.c.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/pgn.h"
#include "../util/rng.h"
#include "../variants/registry.h"
#include "search.h"
#include "selfplay.h"
#include "tune.h"


/* ---------------------------------------------------------------- self-play games */

/*
 * Plays `games` games of the engine against itself at `nodes` nodes a move, each from a
 * random opening (a random setup where the variant has one, then `plies` random movement
 * plies), and appends them to `out` as PGN.  Games longer than max_plies end as agreed draws
 * (which the variant decides: square-says has none).
 */
static int self_play(const Variant *v, int games, uint64_t nodes, int plies, uint64_t seed, int max_plies, FILE *out)
{
    Engine e;
    if (!engine_init(&e, 16))
        return 1;
    uint64_t rng = seed;
    Text pgn = {0};
    int counts[RESULT_ABORTED + 1] = {0};
    SelfPlay sp = {.v = v, .limits = {.nodes = nodes}, .random_plies = plies, .max_plies = max_plies};
    for (int gi = 0; gi < games; gi++) {
        Game g;
        if (!selfplay_game(&e, &sp, rng_next(&rng), &g))
            break;
        counts[game_status(&g).kind]++;
        text_clear(&pgn);
        if (!game_pgn(&g, &(PgnTags){.event = "starfish tune self-play"}, &pgn)) {
            fprintf(stderr, "starfish: out of memory\n");
            game_free(&g);
            break;
        }
        fprintf(out, "%s\n", pgn.s);
        fflush(out);
        fprintf(stderr, "\rgame %d/%d: +%d =%d -%d", gi + 1, games, counts[RESULT_WHITE_WINS], counts[RESULT_DRAW],
                counts[RESULT_BLACK_WINS]);
        game_free(&g);
    }
    fprintf(stderr, "\n");
    text_free(&pgn);
    engine_free(&e);
    return 0;
}

/* ---------------------------------------------------------------- output */

static void write_entry(FILE *f, const Variant *v, const EvalParams *p, const char *note)
{
    fprintf(f, "    /* variant: %s */\n", v->def->name);
    fprintf(f, "    /* %s */\n", note);
    fprintf(f, "    {\"%s\",\n     {\n", v->def->name);
    for (int eg = 0; eg < 2; eg++) {
        fprintf(f, "         .piece_%s = {", eg ? "eg" : "mg");
        bool first = true;
        for (int type = 1; type <= v->ntypes && type < MAX_TYPES; type++) {
            const PieceDef *pd = &v->def->pieces[type - 1];
            if (pd->royal)
                continue;
            fprintf(f, "%s[%d] = %d /* %c */", first ? "" : ", ", type, eg ? p->piece_eg[type] : p->piece_mg[type],
                    pd->letter);
            first = false;
        }
        fprintf(f, "},\n");
    }
#define EVAL_WRITE(field, dflt, st, min, max, doc) fprintf(f, "         ." #field " = %d,\n", p->field);
    EVAL_SCALARS(EVAL_WRITE)
#undef EVAL_WRITE
    fprintf(f, "     }},\n");
}

static const char weights_header[] =
    "/*\n"
    " * Evaluation weights fitted per variant by `starfish tune` (src/engine/tune.c), which writes\n"
    " * this file: `starfish tune VARIANT GAMES.pgn --out src/engine/weights.c` replaces the\n"
    " * entry of VARIANT and keeps the others.  Variants without an entry use the defaults of\n"
    " * eval_default_params().  See the README's section on tuning.\n"
    " */\n"
    "#include \"eval.h\"\n"
    "\n"
    "const EvalWeights eval_weights[] = {\n";
static const char weights_end[] = "    /* end of table */\n";
static const char weights_footer[] = "    {NULL, {.tempo = 0}},\n};\n";

/*
 * Writes weights.c at `path` with the entry of v replaced (or added before the end of the
 * table), keeping every other entry as it stands in the file.
 */
static bool write_weights(const char *path, const Variant *v, const EvalParams *p, const char *note)
{
    Text file = {0};
    char *old = text_read_file(&file, path) ? file.s : NULL;
    const char *end_at = old ? strstr(old, weights_end) : NULL;
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        text_free(&file);
        return false;
    }
    if (!end_at) {
        fputs(weights_header, f);
        write_entry(f, v, p, note);
        fputs(weights_end, f);
        fputs(weights_footer, f);
    } else {
        char marker[128];
        snprintf(marker, sizeof marker, "    /* variant: %s */\n", v->def->name);
        const char *from = strstr(old, marker), *to = end_at;
        if (from) {
            const char *next = strstr(from + strlen(marker), "    /* variant: ");
            to = next && next < end_at ? next : end_at;
        } else {
            from = to = end_at;
        }
        fwrite(old, 1, (size_t)(from - old), f);
        write_entry(f, v, p, note);
        fputs(to, f);
    }
    text_free(&file);
    bool ok = fclose(f) == 0 && rename(tmp, path) == 0;
    return ok;
}

/* ---------------------------------------------------------------- the command */

static struct {
    const char *out, *export;
    int iterations, skip, holdout, generate, nodes, plies, max_plies;
    uint64_t seed;
    double ridge;
    bool from_tuned, tables_only, keep_values;
} opt = {.iterations = 60, .skip = 8, .holdout = 10, .nodes = 2000, .plies = 8, .max_plies = 400};

static const Option tune_options[] = {
    OPTION_INT("iterations", "N", "passes over the weights at most (default 60)", &opt.iterations, 0, 100000),
    OPTION_STRING("out", "FILE",
                  "write the fitted weights into FILE (src/engine/weights.c),\n"
                  "replacing VARIANT's entry; without it they are printed",
                  &opt.out),
    OPTION_STRING("export", "FILE",
                  "instead of fitting: write the chosen positions of the games to\n"
                  "FILE, one FEN a line (to be labelled, for example by\n"
                  "tools/label_positions.py)",
                  &opt.export),
    OPTION_INT("skip", "PLIES", "leave out positions before this movement ply (default 8)", &opt.skip, 0, 10000),
    OPTION_INT("holdout", "N", "hold out every N-th game (default 10; 0: none, no early stopping)", &opt.holdout, 0,
               1000000),
    OPTION_DOUBLE("ridge", "R",
                  "weight of the pull toward the starting weights: R per squared\n"
                  "relative change (default 0: none)",
                  &opt.ridge, 0, 1),
    OPTION_FLAG("from-tuned", "start from the variant's weights in weights.c, not the defaults", &opt.from_tuned),
    OPTION_FLAG("tables-only",
                "leave the optional terms (mobility, royal zone, pawn shield and\n"
                "contact, piece threats), which cost time in the search, as they\n"
                "start (off)",
                &opt.tables_only),
    OPTION_FLAG("keep-values", "leave the piece values as they start", &opt.keep_values),
    OPTION_INT("generate", "GAMES", "instead: play GAMES self-play games and append them to FILE.pgn", &opt.generate, 1,
               10000000),
    OPTION_INT("nodes", "N", "nodes a move in those games (default 2000)", &opt.nodes, 1, 1000000000),
    OPTION_INT("random-plies", "P",
               "random movement plies at the start of each (default 8; a\n"
               "variant with a setup phase first gets a random setup)",
               &opt.plies, 0, 1000),
    OPTION_INT("max-plies", "N", "a game still going after N plies is an agreed draw (default 400)", &opt.max_plies,
               1, 100000),
    OPTION_U64("seed", "S", "seed of the random openings (default: from the time)", &opt.seed),
    OPTIONS_END,
};

const Command tune_command = {
    "tune", "VARIANT FILE.pgn|FILE.epd [OPTIONS]", "fit evaluation weights to games (or play them: --generate)",
    "Fits the evaluation weights of VARIANT to the results of the games in FILE.pgn\n"
    "(Texel's method): quiet positions (no setup phase, not in check, not right after or\n"
    "before a capture or promotion) labelled with their game's result; the sigmoid scale\n"
    "K that best predicts the results; then coordinate descent over every weight to\n"
    "minimise the mean squared error of sigmoid(K * eval).  Every tenth game is held out:\n"
    "the weights kept are those of the pass with the least error on those games.\n"
    "A FILE.epd holds labelled positions instead, one a line: 'FEN ; LABEL', the label\n"
    "1-0, 0-1, 1/2-1/2 or White's expected score from 0 to 1 (every tenth line is held out).",
    tune_options, 2, 2};

/* --generate: self-play games appended to the file. */
static int generate_games(const Variant *v, const char *file)
{
    FILE *f = fopen(file, "a");
    if (!f)
        return options_fail(&tune_command, "cannot write '%s'", file);
    uint64_t seed = opt.seed ? opt.seed : rng_fresh_seed();
    printf("self-play: %d games of %s at %d nodes a move, %d random plies, seed %llu\n", opt.generate, v->def->name,
           opt.nodes, opt.plies, (unsigned long long)seed);
    int rc = self_play(v, opt.generate, (uint64_t)opt.nodes, opt.plies, seed, opt.max_plies, f);
    fclose(f);
    return rc;
}

/* Reads the games of a PGN text into the training and held-out sets; prints the counts and
 * returns the number of games. */
static int read_games(char *text, TuneSet *train, TuneSet *valid)
{
    int games = 0, bad = 0, unfinished = 0;
    for (char *p = text; *p;) {
        bool movetext;
        char *end = p + pgn_game_length(p, &movetext), saved = *end;
        *end = 0;
        if (movetext) {
            char err[256];
            TuneSet *into = opt.holdout > 0 && games % opt.holdout == opt.holdout - 1 ? valid : train;
            int added = tune_add_game(into, p, opt.skip, err, sizeof err);
            if (added < 0) {
                if (bad++ < 5)
                    fprintf(stderr, "starfish: tune: game %d skipped: %s\n", games + 1, err);
            } else if (added == 0 && !strstr(p, "[Result \"1") && !strstr(p, "[Result \"0")) {
                unfinished++;
            }
            games++;
        }
        *end = saved;
        p = end;
    }
    printf("%s: %d games (%d unreadable, %d without a result), %d training positions, %d held out\n",
           train->v->def->name, games, bad, unfinished, train->n, valid->n);
    return games;
}

/* Reads labelled positions, one 'FEN ; LABEL' a line (blank lines and lines starting with
 * '#' skipped); returns the number of lines read. */
static int read_labelled(char *text, TuneSet *train, TuneSet *valid)
{
    int lines = 0, bad = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (!*line || *line == '#' || strspn(line, " \t\r") == strlen(line))
            continue;
        char err[256];
        TuneSet *into = opt.holdout > 0 && lines % opt.holdout == opt.holdout - 1 ? valid : train;
        if (tune_add_labelled(into, line, err, sizeof err) < 0 && bad++ < 5)
            fprintf(stderr, "starfish: tune: line %d skipped: %s\n", lines + 1, err);
        lines++;
    }
    printf("%s: %d labelled positions (%d unreadable), %d training, %d held out\n", train->v->def->name, lines, bad,
           train->n, valid->n);
    return lines;
}

/* --export: the positions, one FEN a line. */
static int export_positions(const char *file, const TuneSet *sets[2])
{
    FILE *f = fopen(file, "w");
    if (!f)
        return options_fail(&tune_command, "cannot write '%s'", file);
    int n = 0;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < sets[k]->n; i++, n++) {
            char fen[512];
            pos_fen(&sets[k]->pos[i], fen, sizeof fen);
            fprintf(f, "%s\n", fen);
        }
    bool ok = fclose(f) == 0;
    if (!ok)
        return options_fail(&tune_command, "cannot write '%s'", file);
    printf("%d positions written to %s\n", n, file);
    return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Fits the weights to the positions; prints them, and writes them with --out. */
static int fit(const Variant *v, const TuneSet *train, const TuneSet *valid, const char *source)
{
    EvalParams params;
    const EvalParams *tuned = eval_tuned_params(v);
    if (opt.from_tuned && tuned)
        params = *tuned;
    else
        eval_default_params(v, &params);
    double k = tune_fit_k(train, &params);
    double before = tune_mse(train, &params, k), valid_before = tune_mse(valid, &params, k);
    printf("K = %.6f (sigmoid(K * eval in cp)); error %.6f, held out %.6f\n", k, before, valid_before);
    fflush(stdout);
    TuneOptions o = {.passes = opt.iterations,
                     .tables_only = opt.tables_only,
                     .keep_values = opt.keep_values,
                     .ridge = opt.ridge,
                     .log = stdout};
    double after = tune_optimise(train, valid, &params, k, &o);
    double valid_after = tune_mse(valid, &params, k);
    printf("final: error %.6f -> %.6f, held out %.6f -> %.6f\n\n", before, after, valid_before, valid_after);
    char note[256];
    snprintf(note, sizeof note, "%s, %d positions; K %.6f; error %.5f -> %.5f, held out %.5f -> %.5f", source,
             train->n, k, before, after, valid_before, valid_after);
    write_entry(stdout, v, &params, note);
    if (opt.out && !write_weights(opt.out, v, &params, note)) {
        fprintf(stderr, "starfish: tune: cannot write '%s'\n", opt.out);
        return 1;
    }
    if (opt.out)
        printf("\nwritten to %s (rebuild to use them)\n", opt.out);
    return 0;
}

int tune_main(int argc, char **argv)
{
    char *args[2];
    int nargs, status;
    if (!options_parse(&tune_command, argc, argv, args, &nargs, &status))
        return status;
    const Variant *v = variant_by_name(args[0]);
    if (!v)
        return options_fail(&tune_command, "unknown variant '%s'", args[0]);
    if (opt.generate)
        return generate_games(v, args[1]);
    Text text = {0};
    if (!text_read_file(&text, args[1])) {
        text_free(&text);
        return options_fail(&tune_command, "cannot read '%s'", args[1]);
    }
    TuneSet train, valid;
    tune_set_init(&train, v);
    tune_set_init(&valid, v);
    bool labelled = ends_with(args[1], ".epd");
    int count = labelled ? read_labelled(text.s, &train, &valid) : read_games(text.s, &train, &valid);
    char source[64];
    snprintf(source, sizeof source, "%d %s", count, labelled ? "labelled positions" : "games");
    text_free(&text);
    int rc = 1;
    if (train.n == 0)
        fprintf(stderr, "starfish: tune: no positions to fit\n");
    else if (opt.export)
        rc = export_positions(opt.export, (const TuneSet *[2]){&train, &valid});
    else
        rc = fit(v, &train, &valid, source);
    tune_set_free(&train);
    tune_set_free(&valid);
    return rc;
}
