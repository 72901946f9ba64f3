/*
 * Match statistics as testers know them from cutechess-cli and fastchess: the score, the
 * pentanomial counts of game pairs, the Elo difference with its 95% interval, the likelihood
 * of superiority, the draw ratio, and the generalised SPRT's log-likelihood ratio.
 *
 * Games are played in pairs (one opening, colours swapped).  The pentanomial counts the
 * complete pairs by engine 1's points in them (0, 1/2, 1, 3/2, 2): a pair's two games share
 * an opening, so their results are correlated, and counting pairs gives honest (narrower)
 * error bars than counting games.  Elo, LOS and the LLR are computed from the pentanomial
 * once a pair is complete, from the games' W/D/L before.
 */
#ifndef STARFISH_MATCH_STATS_H
#define STARFISH_MATCH_STATS_H

#include <stdbool.h>

/* The results so far, from engine 1's view. */
typedef struct MatchScore {
    int wins, draws, losses;
    int penta[5]; /* complete pairs by engine 1's points in half points: 0, 1, 2, 3, 4 */
} MatchScore;

/* What the summary line reports. */
typedef struct EloEstimate {
    double elo;        /* logistic Elo difference (+-INFINITY at a score of 1 or 0, NAN without games) */
    double error95;    /* half the width of its 95% interval (NAN when it cannot be stated) */
    double los;        /* likelihood of superiority, 0..1 */
    double draw_ratio; /* draws per game */
} EloEstimate;

/* How the SPRT's hypotheses are stated (fastchess's `model=`). */
typedef enum {
    SPRT_NORMALIZED, /* normalised Elo: the score's distance from 1/2 in standard deviations */
    SPRT_LOGISTIC,   /* logistic Elo: the expected score */
} SprtModel;

/* The logistic Elo difference of a score in [0, 1] (infinite at 0 and 1). */
double elo_of_score(double score);
/* The expected score of a logistic Elo difference. */
double score_of_elo(double elo);

/* Adds a finished game (engine 1's points: 0, 1/2 or 1, in half points 0..2). */
void score_add_game(MatchScore *s, int half_points);
/* Adds a complete pair (engine 1's points in it, in half points 0..4). */
void score_add_pair(MatchScore *s, int half_points);
int score_games(const MatchScore *s);
int score_pairs(const MatchScore *s);

EloEstimate elo_estimate(const MatchScore *s);

/*
 * The generalised SPRT's log-likelihood ratio of H1 (elo1) against H0 (elo0): the maximum-
 * likelihood distributions of the outcomes under each hypothesis (Michel Van den Bergh,
 * "Comments on Normalized Elo"), compared on the observed counts, empty counts regularised
 * to 0.001, as fishtest and fastchess do.
 */
double sprt_llr(const MatchScore *s, SprtModel model, double elo0, double elo1);
/* The SPRT's bounds: log(beta / (1 - alpha)) (H0 accepted at or below) and
 * log((1 - beta) / alpha) (H1 accepted at or above). */
void sprt_bounds(double alpha, double beta, double *lower, double *upper);

#endif
