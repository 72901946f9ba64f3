#include "tune.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/movegen.h"
#include "../core/pgn.h"
#include "../util/parse.h"
#include "../variants/registry.h"

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
        bool noisy = pos_is_noisy(&pos, m);
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
