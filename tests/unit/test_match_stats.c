/*
 * The match runner's statistics.  Expected values come from an independent computation (a
 * Python script of the textbook formulas; for the logistic LLR a direct search of the
 * constrained likelihood maximum over its one free parameter; for the normalised LLR the
 * asymptotic form N/2 ((t - t0)^2 - (t - t1)^2) it must approach).
 */
#include <math.h>

#include "../../src/frontend/match_stats.h"
#include "test.h"

#define CHECK_NEAR(a, b, tolerance)                                                                    \
    do {                                                                                               \
        double a_ = (a), b_ = (b);                                                                     \
        if (!(fabs(a_ - b_) <= (tolerance)))                                                           \
            test_fail(__FILE__, __LINE__, "%s == %.6f, expected %.6f", #a, a_, b_);                     \
    } while (0)

static MatchScore games(int w, int d, int l)
{
    MatchScore s = {0};
    for (int i = 0; i < w + d + l; i++)
        score_add_game(&s, i < w ? 2 : i < w + d ? 1 : 0);
    return s;
}

static MatchScore pairs(const int penta[5])
{
    MatchScore s = {0};
    for (int k = 0; k < 5; k++)
        for (int i = 0; i < penta[k]; i++)
            score_add_pair(&s, k);
    return s;
}

TEST(match_stats_elo_from_games_before_any_pair)
{
    MatchScore s = games(30, 40, 20);
    CHECK_EQ_INT(score_games(&s), 90);
    EloEstimate e = elo_estimate(&s);
    CHECK_NEAR(e.elo, 38.764, 0.001);
    CHECK_NEAR(e.error95, 54.012, 0.001);
    CHECK_NEAR(e.los, 0.92367, 0.00001);
    CHECK_NEAR(e.draw_ratio, 40.0 / 90, 1e-9);
}

TEST(match_stats_elo_from_pairs_once_there_are_some)
{
    const int penta[5] = {2, 10, 30, 14, 4};
    MatchScore s = pairs(penta);
    CHECK_EQ_INT(score_pairs(&s), 60);
    EloEstimate e = elo_estimate(&s);
    CHECK_NEAR(e.elo, 23.197, 0.001);
    CHECK_NEAR(e.error95, 39.218, 0.001);
    CHECK_NEAR(e.los, 0.87855, 0.00001);
    /* All won: infinite, with no interval; nothing played: nothing known. */
    const int won[5] = {0, 0, 0, 0, 5};
    e = elo_estimate(&(MatchScore){0});
    CHECK(isnan(e.elo) && isnan(e.error95));
    s = pairs(won);
    e = elo_estimate(&s);
    CHECK(isinf(e.elo) && e.elo > 0 && isnan(e.error95) && e.los == 1);
}

TEST(match_stats_logistic_llr_on_games)
{
    MatchScore s = games(30, 40, 20);
    CHECK_NEAR(sprt_llr(&s, SPRT_LOGISTIC, 0, 5), 0.24253, 0.0005);
    CHECK_NEAR(sprt_llr(&s, SPRT_LOGISTIC, -5, 5), 0.51801, 0.0005);
    s = games(10, 0, 0);
    CHECK_NEAR(sprt_llr(&s, SPRT_LOGISTIC, 0, 5), 0.14288, 0.0005);
    CHECK_NEAR(sprt_llr(&(MatchScore){0}, SPRT_LOGISTIC, 0, 5), 0, 0);
}

TEST(match_stats_normalized_llr_on_pairs)
{
    const int penta[5] = {2, 10, 30, 14, 4}, more[5] = {20, 100, 300, 140, 40};
    MatchScore s = pairs(penta), big = pairs(more);
    CHECK_NEAR(sprt_llr(&s, SPRT_NORMALIZED, 0, 5), 0.17167, 0.17167 * 0.05);
    CHECK_NEAR(sprt_llr(&s, SPRT_NORMALIZED, -5, 5), 0.36818, 0.36818 * 0.05);
    CHECK_NEAR(sprt_llr(&big, SPRT_NORMALIZED, 0, 5), 1.71667, 1.71667 * 0.05);
    /* A run of won pairs supports even a large elo1 (the iteration must not start from the
     * uniform distribution, where no distribution that far off can be reached). */
    const int won[5] = {0, 0, 0, 0, 5};
    MatchScore all = pairs(won);
    CHECK(sprt_llr(&all, SPRT_NORMALIZED, 0, 400) > 2.95);
    CHECK(sprt_llr(&all, SPRT_NORMALIZED, 0, 5) > 0);
    /* Results that favour engine 2 count against H1. */
    const int worse[5] = {14, 30, 10, 4, 2};
    MatchScore w = pairs(worse);
    CHECK(sprt_llr(&w, SPRT_NORMALIZED, 0, 5) < -0.5);
    double lower, upper;
    sprt_bounds(0.05, 0.05, &lower, &upper);
    CHECK_NEAR(lower, -2.944439, 1e-6);
    CHECK_NEAR(upper, 2.944439, 1e-6);
}
