/*
 * The task farm: one command's tasks (numbered from 0) spread over the ranks of a run
 * (ranks.h) and over the worker threads of each rank.
 *
 * Rank 0 decides everything: which task goes to which rank (plan.pick), what a result means
 * (plan.result: rank 0 sees every result, one at a time, in the order they arrive) and when
 * to stop.  The other ranks only do the tasks they are given and send back the results.
 * With one rank (`starfish`, or `starfish-mpi` without mpirun) no message is sent, and the
 * same code runs in one process.
 *
 * On every rank, farm_run starts plan.workers threads running plan.work, which loop on
 * farm_next (the next task, waiting for one) and farm_done (its result); the calling thread
 * carries the messages meanwhile, and farm_run returns once the workers of every rank have
 * finished and reported (plan.report).
 *
 * The messages: a worker's request for a task goes to rank 0, which answers with a task or
 * with "none left"; results go to rank 0; when a rank's workers have finished, its report
 * goes to rank 0, which answers "finish" (after a "stop", if the farm was stopped), the last
 * message the rank receives.  Open MPI's blocking receive spins on a core, so the messages
 * are polled every millisecond instead, leaving the cores to the work.
 */
#ifndef STARFISH_CLUSTER_FARM_H
#define STARFISH_CLUSTER_FARM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct Farm Farm;

/* What plan.pick returns when it has no task to give now. */
enum {
    FARM_WAIT = -1, /* none ready yet: asked again after the next result */
    FARM_NONE = -2, /* none left: the worker finishes */
};

typedef struct FarmPlan {
    int workers; /* threads per rank */
    /* A worker thread's body (every rank): farm_next, the task, farm_done, until farm_next
     * says there is none left. */
    void (*work)(Farm *f, int worker, void *ctx);
    /* Rank 0: the task for a worker of `rank`, or FARM_WAIT, or FARM_NONE. */
    int (*pick)(void *ctx, int rank);
    /* Rank 0: the result of a task done by `rank`; may call farm_stop. */
    void (*result)(Farm *f, void *ctx, int rank, int task, const void *data, size_t len);
    /* Optional, with rank_report: what a rank says of its own work once its workers are done
     * (into buf, at most cap bytes; returns the length), and, on rank 0, each rank's report
     * (rank 0's own included), after every result of that rank. */
    size_t (*report)(void *ctx, void *buf, size_t cap);
    void (*rank_report)(void *ctx, int rank, const void *data, size_t len);
    /* Optional, rank 0: asked while the messages are carried (at least ten times a second);
     * true stops the farm as farm_stop does (a signal seen, say). */
    bool (*should_stop)(void *ctx);
    void *ctx;
} FarmPlan;

/* Runs the farm on this rank (ranks_start first); false when no worker thread could start. */
bool farm_run(const FarmPlan *plan);

/* The next task for the worker, waiting until there is one; false when none is left. */
bool farm_next(Farm *f, int worker, int *task);
/* Hands in a task's result: len bytes, copied (rank 0 calls plan.result with them). */
void farm_done(Farm *f, int task, const void *data, size_t len);

/* Rank 0, from plan.result: no more tasks for anyone, and every rank's stop flag raised. */
void farm_stop(Farm *f);
/* The stop flag of this rank: work under way may watch it and give up. */
atomic_bool *farm_stop_flag(Farm *f);

#endif
