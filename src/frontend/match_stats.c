/* Elo estimates and the GSPRT for match results. */
#include "match_stats.h"

#include <math.h> /* INFINITY, NAN and isfinite only: the build links no libm */

/*
 * The few functions of libm needed here, written out (the program is not linked with -lm).
 * Accurate to a few units in the last place, which is far beyond what statistics need.
 */
static const double LN2 = 0.69314718055994530942, LN10 = 2.30258509299404568402;

static double ln(double x)
{
    if (!(x > 0))
        return x == 0 ? -INFINITY : NAN;
    if (!isfinite(x))
        return x;
    int e = 0;
    while (x >= 2)
        x /= 2, e++;
    while (x < 1)
        x *= 2, e--;
    /* ln(x) = 2 atanh(z), z = (x - 1) / (x + 1) in [0, 1/3) */
    double z = (x - 1) / (x + 1), z2 = z * z, term = z, sum = 0;
    for (int k = 1; k < 80; k += 2) {
        sum += term / k;
        term *= z2;
    }
    return e * LN2 + 2 * sum;
}

static double expo(double x)
{
    if (x > 709)
        return INFINITY;
    if (x < -745)
        return 0;
    /* x = k ln2 + r with |r| <= ln2 / 2 */
    int k = (int)(x / LN2 + (x >= 0 ? 0.5 : -0.5));
    double r = x - k * LN2, term = 1, sum = 1;
    for (int i = 1; i < 30; i++) {
        term *= r / i;
        sum += term;
    }
    for (; k > 0; k--)
        sum *= 2;
    for (; k < 0; k++)
        sum /= 2;
    return sum;
}

static double root(double x)
{
    if (!(x > 0))
        return x == 0 ? 0 : NAN;
    return expo(ln(x) / 2);
}

static double log10_(double x)
{
    return ln(x) / LN10;
}

double elo_of_score(double score)
{
    if (score <= 0)
        return -INFINITY;
    if (score >= 1)
        return INFINITY;
    return -400.0 * log10_(1.0 / score - 1.0);
}

double score_of_elo(double elo)
{
    return 1.0 / (1.0 + expo(-elo / 400.0 * LN10));
}

void elo_estimate(int w, int d, int l, double *elo, double *error95)
{
    int n = w + d + l;
    *elo = NAN;
    *error95 = NAN;
    if (n == 0)
        return;
    double s = (w + 0.5 * d) / n;
    *elo = elo_of_score(s);
    if (s <= 0 || s >= 1)
        return;
    /* Per-game variance of the score (1, 1/2, 0), then the standard error of the mean. */
    double var = (w * (1 - s) * (1 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s) / n;
    double se = root(var / n);
    double lo = s - 1.959964 * se, hi = s + 1.959964 * se;
    if (lo <= 0 || hi >= 1) {
        *error95 = INFINITY;
        return;
    }
    *error95 = (elo_of_score(hi) - elo_of_score(lo)) / 2;
}

/*
 * The distribution nearest (by likelihood) to the observed one p over outcomes a with the
 * expected score s: q_i = p_i / (1 + x (a_i - s)), where x solves
 * sum p_i (a_i - s) / (1 + x (a_i - s)) = 0 (decreasing in x; found by bisection).
 */
static void mle_with_score(const double a[3], const double p[3], double s, double q[3])
{
    double lo = -1.0 / (1.0 - s), hi = 1.0 / s; /* the denominators stay positive inside */
    for (int iter = 0; iter < 200; iter++) {
        double x = (lo + hi) / 2, f = 0;
        for (int i = 0; i < 3; i++)
            f += p[i] * (a[i] - s) / (1 + x * (a[i] - s));
        if (f > 0)
            lo = x;
        else
            hi = x;
    }
    double x = (lo + hi) / 2;
    for (int i = 0; i < 3; i++)
        q[i] = p[i] / (1 + x * (a[i] - s));
}

double sprt_llr(int w, int d, int l, double elo0, double elo1)
{
    if (w + d + l == 0)
        return 0;
    const double eps = 1e-3; /* fishtest's regularisation of empty outcomes */
    double count[3] = {l ? l : eps, d ? d : eps, w ? w : eps};
    double n = count[0] + count[1] + count[2];
    const double a[3] = {0, 0.5, 1};
    double p[3], q0[3], q1[3];
    for (int i = 0; i < 3; i++)
        p[i] = count[i] / n;
    mle_with_score(a, p, score_of_elo(elo0), q0);
    mle_with_score(a, p, score_of_elo(elo1), q1);
    double llr = 0;
    for (int i = 0; i < 3; i++)
        llr += p[i] * ln(q1[i] / q0[i]);
    return n * llr;
}

void sprt_bounds(double alpha, double beta, double *lower, double *upper)
{
    *lower = ln(beta / (1 - alpha));
    *upper = ln((1 - beta) / alpha);
}
