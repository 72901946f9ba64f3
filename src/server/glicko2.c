#include "glicko2.h"

#include <math.h>

#define SCALE 173.7178 /* Glicko-2's scale: 400 / ln(10) */
#define EPSILON 0.000001 /* the convergence tolerance of the volatility's iteration */

Glicko glicko_start(void)
{
    return (Glicko){GLICKO_START_RATING, GLICKO_START_RD, GLICKO_START_VOLATILITY};
}

static double clamp_rd(double rd)
{
    return rd < GLICKO_RD_MIN ? GLICKO_RD_MIN : rd > GLICKO_START_RD ? GLICKO_START_RD : rd;
}

/* Step 3: g(phi), how much an opponent's deviation discounts the game. */
static double g_of(double phi)
{
    return 1 / sqrt(1 + 3 * phi * phi / (M_PI * M_PI));
}

/* Step 3: the expected score against an opponent. */
static double expected(double mu, double mu_j, double phi_j)
{
    return 1 / (1 + exp(-g_of(phi_j) * (mu - mu_j)));
}

/* Step 5's f(x), whose root is ln(sigma'^2). */
static double f_of(double x, double delta, double phi, double v, double a)
{
    double ex = exp(x), d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2 * d * d) - (x - a) / (GLICKO_TAU * GLICKO_TAU);
}

/* Step 5: the new volatility, by the Illinois algorithm. */
static double new_volatility(double sigma, double delta, double phi, double v)
{
    double a = log(sigma * sigma), A = a, B;
    if (delta * delta > phi * phi + v) {
        B = log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (f_of(a - k * GLICKO_TAU, delta, phi, v, a) < 0)
            k++;
        B = a - k * GLICKO_TAU;
    }
    double fA = f_of(A, delta, phi, v, a), fB = f_of(B, delta, phi, v, a);
    while (fabs(B - A) > EPSILON) {
        double C = A + (A - B) * fA / (fB - fA), fC = f_of(C, delta, phi, v, a);
        if (fC * fB <= 0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2;
        }
        B = C;
        fB = fC;
    }
    return exp(A / 2);
}

Glicko glicko_update(Glicko p, const Glicko *opponents, const double *scores, int n)
{
    if (n == 0)
        return glicko_idle(p, 1);
    double mu = (p.rating - GLICKO_START_RATING) / SCALE, phi = p.rd / SCALE;
    double v_inverse = 0, improvement = 0; /* step 3's sum, and step 4's without v */
    for (int j = 0; j < n; j++) {
        double mu_j = (opponents[j].rating - GLICKO_START_RATING) / SCALE, phi_j = opponents[j].rd / SCALE;
        double g = g_of(phi_j), e = expected(mu, mu_j, phi_j);
        v_inverse += g * g * e * (1 - e);
        improvement += g * (scores[j] - e);
    }
    double v = 1 / v_inverse, delta = v * improvement;
    double sigma = new_volatility(p.volatility, delta, phi, v);
    double phi_star = sqrt(phi * phi + sigma * sigma);                /* step 6 */
    double phi_new = 1 / sqrt(1 / (phi_star * phi_star) + 1 / v);   /* step 7 */
    double mu_new = mu + phi_new * phi_new * improvement;
    return (Glicko){SCALE * mu_new + GLICKO_START_RATING, clamp_rd(SCALE * phi_new), sigma}; /* step 8 */
}

Glicko glicko_idle(Glicko p, int periods)
{
    double phi = p.rd / SCALE, max_phi = GLICKO_START_RD / SCALE;
    for (int i = 0; i < periods && phi < max_phi; i++)
        phi = sqrt(phi * phi + p.volatility * p.volatility);
    p.rd = phi < max_phi ? SCALE * phi : GLICKO_START_RD;
    return p;
}

bool glicko_provisional(Glicko p)
{
    return p.rd > GLICKO_PROVISIONAL_RD;
}
