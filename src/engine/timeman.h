/*
 * Time management: how long one search may run, from `go movetime` or from the clock, and
 * when an iteration that has just ended should be the last (by how settled the root is).
 * Plain numbers in and out, so the search decides what to do with them.
 */
#ifndef STARFISH_TIMEMAN_H
#define STARFISH_TIMEMAN_H

#include <stdbool.h>

/* A search's time, seconds from its start; 0: no limit. */
typedef struct TimePlan {
    double optimum; /* an iteration may end the search after a share of this */
    double maximum; /* the search stops here, mid-iteration if need be */
    bool fixed;     /* go movetime: end at the optimum, whatever the root says */
} TimePlan;

/* How settled the root is after each iteration (time_note_iteration). */
typedef struct RootTrend {
    int settled_iterations; /* iterations the best move has stood */
    bool unsettled;         /* the last iteration changed the best move or dropped the score */
} RootTrend;

/* The plan for `go movetime MS` (movetime_ms > 0), or a clock (left, increment and moves to
 * go of the side to move, milliseconds; movestogo 0: not given).  No plan when infinite or
 * without a clock. */
TimePlan time_plan(int movetime_ms, int left_ms, int inc_ms, int movestogo, bool infinite);

/* Notes how an iteration's best move and score compare with the last iteration's (first: no
 * last one yet). */
void time_note_iteration(RootTrend *trend, bool first, bool same_move, int score, int last_score);

/* Seconds after which a just-finished iteration ends the search. */
double time_iteration_limit(const TimePlan *plan, const RootTrend *trend);

#endif
