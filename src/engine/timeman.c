#include "timeman.h"

/* go movetime: a fifth of the time, at most this many seconds, is kept for the last report,
 * so that the answer, not only the search, arrives within the time asked. */
#define MOVETIME_MARGIN 0.015
/* Under a clock: a reserve of a third of the clock, at most TIME_RESERVE seconds, and
 * TIME_LATENCY seconds for process and pipe latency are never planned (a stall of the machine
 * must not flag the clock; with an increment the clock settles above the reserve). */
#define TIME_RESERVE 0.3
#define TIME_LATENCY 0.1
/* The optimum is the usable clock over TIME_MOVES_TO_GO moves (or the moves to go given)
 * plus TIME_INC_SHARE of the increment (less on a low clock, below); a search may run to
 * TIME_MAX_FACTOR times the optimum, never past TIME_MAX_SHARE of the usable clock (or the
 * share of one move, when fewer than 1 / TIME_MAX_SHARE moves are to go), nor half the clock. */
#define TIME_MOVES_TO_GO 25
#define TIME_INC_SHARE 0.75
/* Below TIME_LOW_CLOCK seconds on the clock the increment's share shrinks in proportion, so
 * that a clock run low by stalls refills instead of staying one stall away from zero. */
#define TIME_LOW_CLOCK 0.5
#define TIME_MAX_FACTOR 3.0
#define TIME_MAX_SHARE 0.25
#define TIME_MIN 0.002
/* At an iteration's end the search stops once it has used this share of the optimum, times
 * TIME_UNSETTLED when the best move changed in that iteration or the score fell by
 * TIME_SCORE_DROP, times TIME_SETTLED when the best move stood for TIME_SETTLED_ITERATIONS. */
#define TIME_SOFT_SHARE 0.6
#define TIME_UNSETTLED 1.6
#define TIME_SCORE_DROP 30
#define TIME_SETTLED 0.75
#define TIME_SETTLED_ITERATIONS 4

static double min2(double a, double b)
{
    return a < b ? a : b;
}

static double max2(double a, double b)
{
    return a > b ? a : b;
}

TimePlan time_plan(int movetime_ms, int left_ms, int inc_ms, int movestogo, bool infinite)
{
    TimePlan plan = {0, 0, false};
    if (movetime_ms > 0) {
        double t = movetime_ms / 1000.0;
        plan.optimum = plan.maximum = t - min2(t / 5, MOVETIME_MARGIN);
        plan.fixed = true;
        return plan;
    }
    if (infinite || left_ms <= 0)
        return plan;
    double t = left_ms / 1000.0, inc = inc_ms / 1000.0;
    double usable = max2(t - min2(t / 3, TIME_RESERVE) - TIME_LATENCY, 0);
    double inc_share = TIME_INC_SHARE * inc * min2(t / TIME_LOW_CLOCK, 1.0);
    int togo = movestogo > 0 ? movestogo : TIME_MOVES_TO_GO;
    /* With a few moves to go the clock is soon refilled: up to a move's whole share. */
    double most = min2(usable * max2(1.0 / togo, TIME_MAX_SHARE) + inc_share, t / 2);
    double optimum = min2(usable / togo + inc_share, most);
    plan.optimum = max2(optimum, TIME_MIN);
    plan.maximum = max2(min2(optimum * TIME_MAX_FACTOR, most), TIME_MIN);
    return plan;
}

void time_note_iteration(RootTrend *trend, bool first, bool same_move, int score, int last_score)
{
    if (first) {
        trend->settled_iterations = 0;
        trend->unsettled = false;
        return;
    }
    trend->settled_iterations = same_move ? trend->settled_iterations + 1 : 0;
    trend->unsettled = !same_move || score <= last_score - TIME_SCORE_DROP;
}

double time_iteration_limit(const TimePlan *plan, const RootTrend *trend)
{
    if (plan->fixed)
        return plan->optimum;
    double share = TIME_SOFT_SHARE;
    if (trend->unsettled)
        share *= TIME_UNSETTLED;
    else if (trend->settled_iterations >= TIME_SETTLED_ITERATIONS)
        share *= TIME_SETTLED;
    return plan->optimum * share;
}
