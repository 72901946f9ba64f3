/* Match statistics: score, pentanomial, Elo, LOS and the GSPRT's log-likelihood ratio. */
#include "match_stats.h"

#include <math.h>

#define Z95 1.959963984540054          /* the 97.5th percentile of the standard normal */
#define NELO_SCALE (800.0 / M_LN10)    /* normalised Elo per unit of (score - 1/2) / sigma */
#define EMPTY_COUNT 1e-3               /* how an outcome never seen is counted in the LLR */
#define MAX_OUTCOMES 5

double elo_of_score(double score)
{
    if (score <= 0)
        return -INFINITY;
    if (score >= 1)
        return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

double score_of_elo(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

void score_add_game(MatchScore *s, int half_points)
{
    *(half_points == 2 ? &s->wins : half_points == 1 ? &s->draws : &s->losses) += 1;
}

void score_add_pair(MatchScore *s, int half_points)
{
    s->penta[half_points]++;
}

int score_games(const MatchScore *s)
{
    return s->wins + s->draws + s->losses;
}

int score_pairs(const MatchScore *s)
{
    int n = 0;
    for (int i = 0; i < 5; i++)
        n += s->penta[i];
    return n;
}

/* The outcomes the statistics count: complete pairs (scores 0, 1/4, ..., 1 per game) once
 * there is one, else games (0, 1/2, 1).  Fills the scores and counts; returns how many kinds. */
static int outcomes(const MatchScore *s, double score[MAX_OUTCOMES], double count[MAX_OUTCOMES])
{
    if (score_pairs(s) > 0) {
        for (int i = 0; i < 5; i++) {
            score[i] = i / 4.0;
            count[i] = s->penta[i];
        }
        return 5;
    }
    const double games[3] = {s->losses, s->draws, s->wins};
    for (int i = 0; i < 3; i++) {
        score[i] = i / 2.0;
        count[i] = games[i];
    }
    return 3;
}

/* The mean and variance of the scores under the distribution p. */
static void moments(int n, const double *score, const double *p, double *mean, double *var)
{
    double mu = 0, v = 0;
    for (int i = 0; i < n; i++)
        mu += p[i] * score[i];
    for (int i = 0; i < n; i++)
        v += p[i] * (score[i] - mu) * (score[i] - mu);
    *mean = mu;
    *var = v;
}

EloEstimate elo_estimate(const MatchScore *s)
{
    EloEstimate e = {NAN, NAN, NAN, NAN};
    double score[MAX_OUTCOMES], count[MAX_OUTCOMES], p[MAX_OUTCOMES], total = 0, mu, var;
    int n = outcomes(s, score, count);
    for (int i = 0; i < n; i++)
        total += count[i];
    if (total == 0)
        return e;
    for (int i = 0; i < n; i++)
        p[i] = count[i] / total;
    moments(n, score, p, &mu, &var);
    double se = sqrt(var / total);
    e.elo = elo_of_score(mu);
    if (mu > 0 && mu < 1)
        e.error95 = (elo_of_score(mu + Z95 * se) - elo_of_score(mu - Z95 * se)) / 2;
    e.los = se > 0 ? 0.5 * erfc(-(mu - 0.5) / (se * M_SQRT2)) : mu > 0.5 ? 1 : mu < 0.5 ? 0 : 0.5;
    e.draw_ratio = (double)s->draws / score_games(s);
    return e;
}

/* sum p_i phi_i / (1 + x phi_i): zero at the Lagrange multiplier of the constrained maximum,
 * and decreasing in x. */
static double lagrange(double x, int n, const double *p, const double *phi)
{
    double f = 0;
    for (int i = 0; i < n; i++)
        f += p[i] * phi[i] / (1 + x * phi[i]);
    return f;
}

/*
 * The distribution q nearest (by likelihood) to the observed p under the constraint
 * sum q_i phi_i = 0: q_i = p_i / (1 + x phi_i), with x the root of lagrange() between the
 * poles -1/max(phi) and -1/min(phi).  False when phi does not change sign (no such q).
 */
static bool constrained(int n, const double *p, const double *phi, double *q)
{
    double lo = phi[0], hi = phi[0];
    for (int i = 1; i < n; i++) {
        lo = fmin(lo, phi[i]);
        hi = fmax(hi, phi[i]);
    }
    if (!(lo < 0 && hi > 0))
        return false;
    double a = -1 / hi, b = -1 / lo; /* the poles; lagrange() falls from +inf to -inf between */
    for (int iter = 0; iter < 200; iter++) {
        double mid = (a + b) / 2;
        *(lagrange(mid, n, p, phi) > 0 ? &a : &b) = mid;
    }
    double x = (a + b) / 2;
    for (int i = 0; i < n; i++)
        q[i] = p[i] / (1 + x * phi[i]);
    return true;
}

/* Logistic model: the nearest distribution with expected score s (phi_i = a_i - s). */
static void mle_score(int n, const double *score, const double *p, double s, double *q)
{
    double phi[MAX_OUTCOMES] = {0};
    for (int i = 0; i < n; i++)
        phi[i] = score[i] - s;
    if (!constrained(n, p, phi, q))
        for (int i = 0; i < n; i++)
            q[i] = p[i];
}

/*
 * Normalised model: the nearest distribution with (mu - 1/2) / sigma = t, by fixed-point
 * iteration (Van den Bergh, section 4.1): the constraint is linearised around the current
 * estimate, phi_i = a_i - 1/2 - t sigma (1 + ((a_i - mu) / sigma)^2) / 2, and solved exactly.
 * False when a step finds no solution (the linearisation has no sign change).
 */
static bool iterate_normalized(int n, const double *score, const double *p, double t, double *q)
{
    for (int iter = 0; iter < 1000; iter++) {
        double mu, var, phi[MAX_OUTCOMES] = {0}, next[MAX_OUTCOMES], change = 0;
        moments(n, score, q, &mu, &var);
        double sigma = sqrt(var);
        for (int i = 0; i < n; i++) {
            double z = (score[i] - mu) / sigma;
            phi[i] = score[i] - 0.5 - 0.5 * t * sigma * (1 + z * z);
        }
        if (!constrained(n, p, phi, next))
            return false;
        for (int i = 0; i < n; i++) {
            change = fmax(change, fabs(next[i] - q[i]));
            q[i] = next[i];
        }
        if (change < 1e-12)
            return true;
    }
    return true;
}

/* Starts from the observed distribution, which works when the hypothesis is far from the
 * uniform distribution (a run of wins against a large elo1); else from the uniform one. */
static void mle_normalized(int n, const double *score, const double *p, double t, double *q)
{
    for (int i = 0; i < n; i++)
        q[i] = p[i];
    if (iterate_normalized(n, score, p, t, q))
        return;
    for (int i = 0; i < n; i++)
        q[i] = 1.0 / n;
    iterate_normalized(n, score, p, t, q);
}

double sprt_llr(const MatchScore *s, SprtModel model, double elo0, double elo1)
{
    double score[MAX_OUTCOMES], count[MAX_OUTCOMES], p[MAX_OUTCOMES], q0[MAX_OUTCOMES], q1[MAX_OUTCOMES];
    int n = outcomes(s, score, count);
    double total = 0, seen = 0;
    for (int i = 0; i < n; i++) {
        seen += count[i];
        count[i] = count[i] > 0 ? count[i] : EMPTY_COUNT;
        total += count[i];
    }
    if (seen == 0)
        return 0;
    for (int i = 0; i < n; i++)
        p[i] = count[i] / total;
    if (model == SPRT_LOGISTIC) {
        mle_score(n, score, p, score_of_elo(elo0), q0);
        mle_score(n, score, p, score_of_elo(elo1), q1);
    } else {
        /* A pair's score has half a game's variance: its t is sqrt(2) times larger. */
        double scale = (n == 5 ? M_SQRT2 : 1.0) / NELO_SCALE;
        mle_normalized(n, score, p, elo0 * scale, q0);
        mle_normalized(n, score, p, elo1 * scale, q1);
    }
    double llr = 0;
    for (int i = 0; i < n; i++)
        llr += p[i] * log(q1[i] / q0[i]);
    return total * llr;
}

void sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = log(beta / (1 - alpha));
    *upper = log((1 - beta) / alpha);
}
