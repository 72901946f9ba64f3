/*
 * The weight tuner (Texel's method): quiet positions from finished games, each labelled with
 * its game's result; the sigmoid scale K fitted so that sigmoid(K * eval) best predicts the
 * results; then coordinate descent over the evaluation weights (EvalParams) minimising the
 * mean squared error (tune.c).  `starfish tune` (tune_main, tune_cli.c) also has a small
 * self-play generator for the games, and writes the fitted weights into src/engine/weights.c.
 */
#ifndef STARFISH_TUNE_H
#define STARFISH_TUNE_H

#include <stdio.h>

#include "../util/options.h"
#include "eval.h"

/* Labelled positions of one variant. */
typedef struct TuneSet {
    const Variant *v;
    Position *pos;
    float *result; /* 1 White won, 0.5 drawn, 0 Black won */
    int n, cap;
} TuneSet;

void tune_set_init(TuneSet *s, const Variant *v);
void tune_set_free(TuneSet *s);
bool tune_set_add(TuneSet *s, const Position *pos, double result);

/*
 * Adds the quiet positions of one game (a PGN text of one game) to `s`: not during a setup
 * phase, not before the `skip`-th movement ply, not in check, not right after a capture or
 * promotion, not when the move played next is one.  Returns the number added, 0 for a game
 * without a result, -1 with err set when the game cannot be read or is of another variant.
 */
int tune_add_game(TuneSet *s, const char *pgn, int skip, char *err, size_t errlen);
/* Adds one labelled position, a line 'FEN ; LABEL' (the label 1-0, 0-1, 1/2-1/2 or White's
 * expected score from 0 to 1; the line is cut at the ';').  Returns 1, or -1 with err set. */
int tune_add_labelled(TuneSet *s, char *line, char *err, size_t errlen);

/* Mean squared error of sigmoid(k * eval) (eval from White's view) against the results. */
double tune_mse(const TuneSet *s, const EvalParams *p, double k);
/* The K that minimises the error with weights p. */
double tune_fit_k(const TuneSet *s, const EvalParams *p);
typedef struct TuneOptions {
    int passes;       /* passes over the weights at most */
    bool tables_only; /* leave the optional terms (mobility, royal zone, pawn shield and
                         contact: they cost time in evaluate()) as they are */
    bool keep_values; /* leave the piece values as they are */
    double ridge;     /* the objective adds ridge * ((w - start) / scale)^2 per weight, where
                         scale is the piece's value or 8 tuning steps: small data sets then
                         move the weights only as far as the games clearly ask */
    FILE *log;        /* progress lines, or NULL */
} TuneOptions;

/*
 * Coordinate descent over the weights in p (piece values and the scalars of EVAL_SCALARS).
 * With a non-empty `holdout`, p ends as the weights after the pass with the least error on
 * it (early stopping).  Returns the error on s of the weights left in p.
 */
double tune_optimise(const TuneSet *s, const TuneSet *holdout, EvalParams *p, double k, const TuneOptions *o);

/* `starfish tune VARIANT FILE.pgn [options]`: its options, and what runs it (argv[0] is "tune"). */
extern const Command tune_command;
int tune_main(int argc, char **argv);

#endif
