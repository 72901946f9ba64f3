/* Glicko-2 against Glickman's worked example ("Example of the Glicko-2 system"), and the
 * server's own rules around it: the deviation's growth while idle, its bounds, provisional. */
#include <math.h>

#include "../../src/server/glicko2.h"
#include "test.h"

#define CLOSE(a, b, tol) CHECK(fabs((a) - (b)) <= (tol))

/* The paper's example: a player at 1500 / 200 / 0.06 beats 1400 / 30, loses to 1550 / 100 and
 * to 1700 / 300 in one period: 1464.06 / 151.52 / 0.05999, as the paper prints them.  It rounds
 * mu' to -0.2069 before scaling it back (173.7178 * -0.2069 + 1500 = 1464.06); unrounded, the
 * same steps give 1464.0507 / 151.5165 / 0.0599960, held here to 1e-4 so that a change to the
 * arithmetic shows. */
TEST(glicko2_the_papers_worked_example)
{
    Glicko player = {1500, 200, 0.06};
    Glicko opponents[3] = {{1400, 30, 0.06}, {1550, 100, 0.06}, {1700, 300, 0.06}};
    double scores[3] = {1, 0, 0};
    Glicko after = glicko_update(player, opponents, scores, 3);
    CLOSE(after.rating, 1464.06, 0.01);
    CLOSE(after.rd, 151.52, 0.005);
    CLOSE(after.volatility, 0.05999, 0.00001);
    CLOSE(after.rating, 1464.0507, 1e-4);
    CLOSE(after.rd, 151.5165, 1e-4);
    CLOSE(after.volatility, 0.0599960, 1e-7);
}

/* Step 6 alone: sqrt(phi^2 + sigma^2) per period, capped at 350; a period without games is it. */
TEST(glicko2_idle_periods_grow_the_deviation_up_to_350)
{
    Glicko p = {1700, 45, 0.06};
    double phi = 45 / 173.7178, once = 173.7178 * sqrt(phi * phi + 0.06 * 0.06);
    CLOSE(glicko_idle(p, 1).rd, once, 1e-9);
    CLOSE(glicko_update(p, NULL, NULL, 0).rd, once, 1e-9);
    CHECK(glicko_idle(p, 30).rd > glicko_idle(p, 1).rd);
    CHECK(glicko_idle(p, 100000).rd == 350);
    CHECK(glicko_idle(p, 0).rd == 45);
    CHECK(glicko_idle(p, 30).rating == 1700);
}

/* A rated game between two new players: the winner gains what the loser loses, both deviations
 * fall, and never below 45 however many games are played (against an equal opponent they
 * settle near 60, where the volatility's growth each period meets what a game teaches). */
TEST(glicko2_games_between_new_players)
{
    Glicko a = glicko_start(), b = glicko_start();
    double win = 1, loss = 0;
    Glicko a2 = glicko_update(a, &b, &win, 1), b2 = glicko_update(b, &a, &loss, 1);
    CHECK(a2.rating > 1500 && b2.rating < 1500);
    CLOSE(a2.rating - 1500, 1500 - b2.rating, 1e-9);
    CHECK(a2.rd < 350 && b2.rd < 350);
    CHECK(glicko_provisional(a2));
    for (int i = 0; i < 400; i++) {
        double draw = 0.5;
        Glicko next_a = glicko_update(a2, &b2, &draw, 1);
        b2 = glicko_update(b2, &a2, &draw, 1);
        a2 = next_a;
    }
    CHECK(a2.rd >= 45 && a2.rd < 70);
    CHECK(!glicko_provisional(a2));
    Glicko sure = {2000, 40, 0.06}, beaten = glicko_update(sure, &b2, &win, 1);
    CHECK(beaten.rd == 45); /* below the least: raised to it */
}
