/* Match statistics: Elo from a score with a 95% error bar, and the GSPRT's log-likelihood ratio. */
#ifndef STARFISH_MATCH_STATS_H
#define STARFISH_MATCH_STATS_H

/* The logistic Elo difference of a score in [0, 1] (infinite at 0 and 1). */
double elo_of_score(double score);
/* The expected score of a logistic Elo difference. */
double score_of_elo(double elo);

/*
 * The Elo difference of w wins, d draws and l losses, and half the width of its 95% interval,
 * from the score's standard error under the trinomial (win/draw/loss) model.  The error is
 * NAN when it cannot be stated (no games, or a score of 0 or 1).
 */
void elo_estimate(int w, int d, int l, double *elo, double *error95);

/*
 * The generalised SPRT's log-likelihood ratio of H1 (logistic Elo elo1) against H0 (elo0)
 * on the trinomial model, as fishtest computes it: the maximum-likelihood W/D/L distributions
 * with the two expected scores, compared on the observed counts (zero counts regularised).
 */
double sprt_llr(int w, int d, int l, double elo0, double elo1);

/* The SPRT's bounds: log(beta / (1 - alpha)) (H0 accepted at or below) and
 * log((1 - beta) / alpha) (H1 accepted at or above). */
void sprt_bounds(double alpha, double beta, double *lower, double *upper);

#endif
