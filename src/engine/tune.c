#include "tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/movegen.h"
#include "../core/opening.h"
#include "../core/pgn.h"
#include "../util/parse.h"
#include "../util/rng.h"
#include "../variants/registry.h"
#include "search.h"

/* ---------------------------------------------------------------- the labelled positions */

void tune_set_init(TuneSet *s, const Variant *v)
{
    memset(s, 0, sizeof *s);
    s->v = v;
}

void tune_set_free(TuneSet *s)
{
    free(s->pos);
    free(s->result);
    memset(s, 0, sizeof *s);
}

bool tune_set_add(TuneSet *s, const Position *pos, double result)
{
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 1024;
        Position *p = realloc(s->pos, sizeof *p * (size_t)cap);
        if (!p)
            return false;
        s->pos = p;
        float *r = realloc(s->result, sizeof *r * (size_t)cap);
        if (!r)
            return false;
        s->result = r;
        s->cap = cap;
    }
    s->pos[s->n] = *pos;
    s->result[s->n] = (float)result;
    s->n++;
    return true;
}

static bool is_noisy(const Position *pos, Move m)
{
    return pos_is_capture(pos, m) || (MOVE_PIECE(m) && MOVE_KIND(m) != MK_PLACE);
}

int tune_add_game(TuneSet *s, const char *pgn, int skip, char *err, size_t errlen)
{
    char tag[32];
    double result;
    if (!pgn_tag_value(pgn, "Result", tag, sizeof tag))
        return 0;
    if (strcmp(tag, "1-0") == 0)
        result = 1.0;
    else if (strcmp(tag, "0-1") == 0)
        result = 0.0;
    else if (strcmp(tag, "1/2-1/2") == 0)
        result = 0.5;
    else
        return 0;
    Game g = {0};
    if (!game_from_pgn(&g, pgn, s->v, variant_by_name, err, errlen)) {
        game_free(&g);
        return -1;
    }
    if (g.v != s->v) {
        snprintf(err, errlen, "a game of %s, not %s", g.v->def->name, s->v->def->name);
        game_free(&g);
        return -1;
    }
    Position pos;
    if (!pos_set_fen(&pos, g.v, g.start_fen, err, errlen)) {
        game_free(&g);
        return -1;
    }
    int added = 0, movement = 0;
    bool after_noisy = false;
    for (int i = 0; i < g.n; i++) {
        Move m = g.moves[i];
        bool noisy = is_noisy(&pos, m);
        if (!pos.hand_total[WHITE] && !pos.hand_total[BLACK]) {
            if (movement >= skip && !after_noisy && !noisy && !pos_in_check(&pos)) {
                if (!tune_set_add(s, &pos, result)) {
                    snprintf(err, errlen, "out of memory");
                    game_free(&g);
                    return -1;
                }
                added++;
            }
            movement++;
        }
        after_noisy = noisy;
        Undo u;
        pos_make(&pos, m, &u);
    }
    game_free(&g);
    return added;
}

/* A label: "1-0", "0-1", "1/2-1/2" or White's expected score in [0, 1]. */
static bool parse_label(const char *text, double *out)
{
    if (strcmp(text, "1-0") == 0)
        *out = 1.0;
    else if (strcmp(text, "0-1") == 0)
        *out = 0.0;
    else if (strcmp(text, "1/2-1/2") == 0)
        *out = 0.5;
    else
        return parse_double(text, 0.0, 1.0, out);
    return true;
}

int tune_add_labelled(TuneSet *s, char *line, char *err, size_t errlen)
{
    char *semi = strrchr(line, ';');
    if (!semi) {
        snprintf(err, errlen, "no ';' before the label");
        return -1;
    }
    *semi = 0;
    char *label = semi + 1 + strspn(semi + 1, " \t");
    label[strcspn(label, " \t\r\n")] = 0;
    double result;
    if (!parse_label(label, &result)) {
        snprintf(err, errlen, "label '%s' is not 1-0, 0-1, 1/2-1/2 or a number from 0 to 1", label);
        return -1;
    }
    Position pos;
    if (!pos_set_fen(&pos, s->v, line, err, errlen))
        return -1;
    if (!tune_set_add(s, &pos, result)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 1;
}

/* ---------------------------------------------------------------- the error */

static double sigmoid(double k, double x)
{
    return 1.0 / (1.0 + exp(-k * x));
}

/* The i-th of `steps` log-spaced values from 1e-4 to 1e-1. */
static double k_grid(int i, int steps)
{
    return 1e-4 * exp(log(1000.0) * i / steps);
}

/* Evaluations from White's view with tables t. */
static void white_evals(const TuneSet *s, const EvalTables *t, int *out)
{
    for (int i = 0; i < s->n; i++) {
        int e = evaluate(&s->pos[i], t);
        out[i] = s->pos[i].side == WHITE ? e : -e;
    }
}

static double mse_of(const TuneSet *s, const int *evals, double k)
{
    double sum = 0;
    for (int i = 0; i < s->n; i++) {
        double d = s->result[i] - sigmoid(k, evals[i]);
        sum += d * d;
    }
    return s->n ? sum / s->n : 0;
}

/* The evaluations of the positions with weights p, from White's view (malloc'd; NULL when
 * memory runs out). */
static int *evaluations(const TuneSet *s, const EvalParams *p)
{
    EvalTables *t = malloc(sizeof *t);
    int *evals = malloc(sizeof *evals * (size_t)(s->n ? s->n : 1));
    if (t && evals) {
        eval_build(t, s->v, p);
        white_evals(s, t, evals);
    } else {
        free(evals);
        evals = NULL;
    }
    free(t);
    return evals;
}

double tune_mse(const TuneSet *s, const EvalParams *p, double k)
{
    int *evals = evaluations(s, p);
    double e = evals ? mse_of(s, evals, k) : 1.0;
    free(evals);
    return e;
}

double tune_fit_k(const TuneSet *s, const EvalParams *p)
{
    int *evals = evaluations(s, p);
    if (!evals)
        return 0.004;
    /* A log-spaced scan from 1e-4 to 1e-1, then golden-section search around the best. */
    double best = 2;
    int steps = 60, at = 0;
    for (int i = 0; i <= steps; i++) {
        double e = mse_of(s, evals, k_grid(i, steps));
        if (e < best) {
            best = e;
            at = i;
        }
    }
    double lo = k_grid(at > 0 ? at - 1 : 0, steps);
    double hi = k_grid(at < steps ? at + 1 : steps, steps);
    const double phi = 0.6180339887498949; /* (sqrt 5 - 1) / 2 */
    for (int i = 0; i < 60; i++) {
        double a = hi - phi * (hi - lo), b = lo + phi * (hi - lo);
        if (mse_of(s, evals, a) < mse_of(s, evals, b))
            hi = b;
        else
            lo = a;
    }
    free(evals);
    return (lo + hi) / 2;
}

/* ---------------------------------------------------------------- coordinate descent */

typedef struct Param {
    char name[40];
    int *at;
    int step, lo, hi;
    int prior;    /* the starting value, which the ridge penalty pulls toward */
    double scale; /* a change of this size costs `ridge` */
} Param;

/* The optional terms, computed only when their weight is not zero. */
static bool optional_term(const char *field)
{
    return strncmp(field, "mobility", 8) == 0 || strncmp(field, "royal_zone", 10) == 0 ||
           strncmp(field, "pawn_shield", 11) == 0 || strncmp(field, "pawn_contact", 12) == 0 ||
           strncmp(field, "piece_threat", 12) == 0;
}

/* The weights to tune: each non-royal piece's two values, then the scalars. */
static int list_params(const Variant *v, EvalParams *p, bool tables_only, bool keep_values, Param *out)
{
    int n = 0;
    for (int type = 1; type <= v->ntypes && type < MAX_TYPES && !keep_values; type++) {
        const PieceDef *pd = &v->def->pieces[type - 1];
        if (pd->royal)
            continue;
        for (int eg = 0; eg < 2; eg++) {
            Param *q = &out[n++];
            snprintf(q->name, sizeof q->name, "piece_%s[%c]", eg ? "eg" : "mg", pd->letter);
            q->at = eg ? &p->piece_eg[type] : &p->piece_mg[type];
            q->step = 16;
            q->lo = 10;
            q->hi = 5000;
            q->prior = *q->at;
            q->scale = *q->at > 50 ? *q->at : 50;
        }
    }
    /* Weights that cannot matter are left out: the variant's own term where it has none,
     * pawn terms without pawns, the optional terms when asked. */
#define EVAL_PARAM(field, dflt, st, min, max, doc)                                                  \
    if ((strcmp(#field, "bonus_weight") != 0 || v->def->eval_bonus) &&                             \
        (strncmp(#field, "pawn_", 5) != 0 || v->pawn_type) && !(tables_only && optional_term(#field))) { \
        Param *q = &out[n++];                                                                      \
        snprintf(q->name, sizeof q->name, "%s", #field);                                           \
        q->at = &p->field;                                                                         \
        q->step = st;                                                                              \
        q->lo = min;                                                                               \
        q->hi = max;                                                                               \
        q->prior = p->field;                                                                       \
        q->scale = abs(p->field) > 8 * (st) ? abs(p->field) : 8 * (st);                            \
    }
    EVAL_SCALARS(EVAL_PARAM)
#undef EVAL_PARAM
    return n;
}

static double ridge(const TuneOptions *o, const Param *params, int np)
{
    if (o->ridge <= 0)
        return 0;
    double sum = 0;
    for (int i = 0; i < np; i++) {
        double d = (*params[i].at - params[i].prior) / params[i].scale;
        sum += d * d;
    }
    return o->ridge * sum;
}

/* The error of weights p on s, with tables and evaluation space supplied. */
static double error_with(const TuneSet *s, const EvalParams *p, double k, EvalTables *t, int *evals)
{
    eval_build(t, s->v, p);
    white_evals(s, t, evals);
    return mse_of(s, evals, k);
}

double tune_optimise(const TuneSet *s, const TuneSet *holdout, EvalParams *p, double k, const TuneOptions *o)
{
    Param params[2 * MAX_TYPES + 64];
    int np = list_params(s->v, p, o->tables_only, o->keep_values, params);
    int passes = o->passes;
    FILE *log = o->log;
    EvalTables *t = malloc(sizeof *t);
    int *evals = malloc(sizeof *evals * (size_t)(s->n ? s->n : 1));
    if (!t || !evals) {
        free(t);
        free(evals);
        return 1.0;
    }
    /* The objective: the error plus the ridge penalty, which pulls each weight toward its
     * starting value by ((w - start) / scale)^2. */
    double best_mse = error_with(s, p, k, t, evals), best = best_mse + ridge(o, params, np);
    bool early = holdout && holdout->n > 0;
    double best_held = early ? tune_mse(holdout, p, k) : 0, error_at_best = best_mse;
    EvalParams at_best = *p;
    if (log) {
        fprintf(log, "start: error %.6f", best_mse);
        if (early)
            fprintf(log, ", held out %.6f", best_held);
        fprintf(log, ", %d weights\n", np);
    }
    for (int pass = 1; pass <= passes; pass++) {
        int changed = 0, max_step = 0;
        for (int i = 0; i < np; i++) {
            Param *q = &params[i];
            bool improved = false;
            /* One step up, else one step down, else a smaller step next pass. */
            for (int dir = 1; dir >= -1 && !improved; dir -= 2) {
                int old = *q->at, next = old + dir * q->step;
                if (next < q->lo || next > q->hi)
                    continue;
                *q->at = next;
                double mse = error_with(s, p, k, t, evals), e = mse + ridge(o, params, np);
                if (e < best) {
                    best = e;
                    best_mse = mse;
                    improved = true;
                } else {
                    *q->at = old;
                }
            }
            if (improved)
                changed++;
            else if (q->step > 1)
                q->step /= 2;
            if (q->step > max_step)
                max_step = q->step;
        }
        double held = early ? tune_mse(holdout, p, k) : 0;
        if (early && held < best_held) {
            best_held = held;
            error_at_best = best_mse;
            at_best = *p;
        }
        if (log) {
            fprintf(log, "pass %d: error %.6f", pass, best_mse);
            if (early)
                fprintf(log, ", held out %.6f", held);
            fprintf(log, ", %d weights changed, largest step %d\n", changed, max_step);
            fflush(log);
        }
        if (!changed && max_step <= 1)
            break;
    }
    free(t);
    free(evals);
    if (early) { /* the weights of the pass that predicted the held-out games best */
        *p = at_best;
        if (log)
            fprintf(log, "kept the weights with the least held-out error, %.6f\n", best_held);
        return error_at_best;
    }
    return best_mse;
}

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
    for (int gi = 0; gi < games; gi++) {
        Game g = {0};
        char err[200];
        if (!game_init(&g, v, NULL, err, sizeof err)) {
            fprintf(stderr, "starfish: %s\n", err);
            break;
        }
        opening_random(&g, plies, rng_next(&rng));
        engine_new_game(&e);
        SearchLimits limits = {.nodes = nodes};
        while (game_status(&g).kind == RESULT_NONE) {
            if (g.n >= max_plies) {
                game_agree_draw(&g);
                break;
            }
            SearchResult r = search_run(&e, &g, &limits, NULL);
            if (r.best == MOVE_NONE)
                break;
            game_play(&g, r.best);
        }
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
