/*
 * Time management: the plan for go movetime and for a clock (figures worked out by hand from
 * the rules in timeman.c), and how a settled or unsettled root moves an iteration's end.
 */
#include <math.h>

#include "../../src/engine/timeman.h"
#include "test.h"

static bool near(double a, double b)
{
    return fabs(a - b) < 1e-9;
}

TEST(time_plan_movetime_keeps_a_margin)
{
    /* A fifth of 50 ms is 10 ms; of 1 s, 200 ms, capped at 15 ms. */
    TimePlan p = time_plan(50, 0, 0, 0, false);
    CHECK(p.fixed && near(p.optimum, 0.040) && near(p.maximum, 0.040));
    p = time_plan(1000, 0, 0, 0, false);
    CHECK(near(p.optimum, 0.985) && near(p.maximum, 0.985));
    /* Whatever the root says, a fixed time ends there. */
    RootTrend settled = {10, false};
    CHECK(near(time_iteration_limit(&p, &settled), 0.985));
}

TEST(time_plan_from_a_clock)
{
    /* 10 s + 0.1 s: usable 10 - 0.3 - 0.1 = 9.6 s; optimum 9.6 / 25 + 0.075 = 0.459 s;
     * maximum three times that, 1.377 s (under a quarter of the usable clock plus 0.075). */
    TimePlan p = time_plan(0, 10000, 100, 0, false);
    CHECK(!p.fixed && near(p.optimum, 0.459) && near(p.maximum, 1.377));
    /* 2 s, no increment: optimum 1.6 / 25 = 64 ms, maximum 192 ms. */
    p = time_plan(0, 2000, 0, 0, false);
    CHECK(near(p.optimum, 0.064) && near(p.maximum, 0.192));
    /* One move to go with 1 s: the whole usable 0.6 s, capped at half the clock. */
    p = time_plan(0, 1000, 0, 1, false);
    CHECK(near(p.optimum, 0.5) && near(p.maximum, 0.5));
    /* 0.1 s left is all reserve: the smallest plan. */
    p = time_plan(0, 100, 0, 0, false);
    CHECK(near(p.optimum, 0.002) && near(p.maximum, 0.002));
    /* No clock, or infinite: no plan. */
    p = time_plan(0, 0, 0, 0, false);
    CHECK(p.optimum == 0 && p.maximum == 0);
    p = time_plan(0, 5000, 0, 0, true);
    CHECK(p.optimum == 0 && p.maximum == 0);
}

/* Megastar's games at 1+0.01 run 300 plies and more, and its clock settled where the base
 * was spent: with the whole increment's share still planned, moves that overran it on a
 * loaded machine (a stall of the process, the pipe, the scheduler) drained the last 15 ms. */
TEST(time_plan_refills_a_low_clock)
{
    /* 15 ms left, 10 ms a move: 0.75 x 10 ms x 15 / 500 = 0.225 ms, so the smallest plan. */
    TimePlan p = time_plan(0, 15, 10, 0, false);
    CHECK(near(p.optimum, 0.002) && near(p.maximum, 0.002));
    /* From 0.5 s up, the increment's share is whole: 0.5 s + 10 ms: usable 0.5 - 0.1667 - 0.1;
     * optimum 0.2333 / 25 + 0.0075. */
    p = time_plan(0, 500, 10, 0, false);
    CHECK(near(p.optimum, (0.5 - 0.5 / 3 - 0.1) / 25 + 0.0075));
    /* 400 moves at 1+0.01, each taking its optimum and a stall of 8 ms on top: the clock
     * never runs out, and ends above 100 ms (with the whole share it fell to 5 ms). */
    double clock = 1.0;
    for (int move = 0; move < 400 && clock > 0; move++) {
        p = time_plan(0, (int)(clock * 1000), 10, 0, false);
        clock += 0.010 - p.optimum - 0.008;
    }
    CHECK(clock > 0.1);
}

TEST(time_iteration_end_follows_the_root)
{
    TimePlan p = time_plan(0, 2000, 0, 0, false);
    RootTrend t;
    time_note_iteration(&t, true, false, 0, 0);
    CHECK(near(time_iteration_limit(&p, &t), 0.064 * 0.6));
    /* A new best move: 1.6 times longer; so is a score falling by 30. */
    time_note_iteration(&t, false, false, 0, 0);
    CHECK(t.unsettled && near(time_iteration_limit(&p, &t), 0.064 * 0.6 * 1.6));
    time_note_iteration(&t, false, true, -30, 0);
    CHECK(t.unsettled);
    time_note_iteration(&t, false, true, -29, 0);
    CHECK(!t.unsettled && t.settled_iterations == 2);
    /* Four iterations on the same move: three quarters. */
    time_note_iteration(&t, false, true, 0, 0);
    time_note_iteration(&t, false, true, 0, 0);
    CHECK(t.settled_iterations == 4 && near(time_iteration_limit(&p, &t), 0.064 * 0.6 * 0.75));
}
