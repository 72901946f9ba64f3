/*
 * The task farm on one rank (the MPI ranks are tested by tests/scale): tasks handed out by
 * the plan's pick, once each, a task that must wait for another's result given only after
 * it, the results and the rank's report seen by rank 0, and a stop that ends every worker,
 * asked for by a result or by the plan's should_stop.
 */
#include <pthread.h>
#include <time.h>

#include "../../src/cluster/farm.h"
#include "test.h"

#define TASKS 40
#define WORKERS 3

typedef struct {
    pthread_mutex_t lock; /* for done_by_worker (the workers' side) */
    atomic_int next;      /* pick's state: the next task to give */
    int given[TASKS], results[TASKS], nresults;
    bool out_of_order;    /* a task's result came before its dependency's */
    int waits;            /* how often pick said FARM_WAIT */
    int done_by_worker, reported, reports;
    int stop_after;       /* > 0: stop at this many results */
    int should_stop_at;   /* > 0: should_stop says yes from this many results on */
    int stop_asks;        /* how often should_stop was asked */
    bool saw_stop;        /* a worker found its stop flag raised */
    bool left_early;      /* a worker was told "none left" before every task was given */
} Tasks;

/* Task i waits for task i - 1 when i is a multiple of 4 (so tasks 3, 4 and 7, 8 ... chain). */
static int dependency(int task)
{
    return task > 0 && task % 4 == 0 ? task - 1 : -1;
}

static int pick(void *ctx, int rank)
{
    Tasks *t = ctx;
    CHECK_EQ_INT(rank, 0);
    int task = atomic_load(&t->next);
    if (task >= TASKS)
        return FARM_NONE;
    int dep = dependency(task);
    if (dep >= 0 && !t->results[dep])
        return t->waits++, FARM_WAIT;
    t->given[task]++;
    atomic_store(&t->next, task + 1);
    return task;
}

static void work(Farm *f, int worker, void *ctx)
{
    Tasks *t = ctx;
    int task;
    while (farm_next(f, worker, &task)) {
        int payload = task * 10;
        pthread_mutex_lock(&t->lock);
        t->done_by_worker++;
        t->saw_stop |= atomic_load(farm_stop_flag(f));
        pthread_mutex_unlock(&t->lock);
        if (dependency(task + 1) == task) /* slow, so that other workers ask meanwhile */
            nanosleep(&(struct timespec){0, 5000000}, NULL);
        if (t->should_stop_at) /* 20 ms a task: should_stop is asked ten times a second at least */
            nanosleep(&(struct timespec){0, 20000000}, NULL);
        farm_done(f, task, &payload, sizeof payload);
    }
    pthread_mutex_lock(&t->lock);
    t->left_early |= atomic_load(&t->next) < TASKS && !atomic_load(farm_stop_flag(f));
    pthread_mutex_unlock(&t->lock);
}

static void result(Farm *f, void *ctx, int rank, int task, const void *data, size_t len)
{
    Tasks *t = ctx;
    CHECK_EQ_INT(rank, 0);
    CHECK_EQ_INT(len, sizeof(int));
    CHECK_EQ_INT(*(const int *)data, task * 10);
    int dep = dependency(task);
    t->out_of_order |= dep >= 0 && !t->results[dep];
    t->results[task]++;
    t->nresults++;
    if (t->stop_after && t->nresults == t->stop_after) {
        farm_stop(f);
        CHECK(atomic_load(farm_stop_flag(f)));
    }
}

static size_t report(void *ctx, void *buf, size_t cap)
{
    Tasks *t = ctx;
    CHECK(cap >= sizeof(int));
    memcpy(buf, &t->done_by_worker, sizeof(int));
    return sizeof(int);
}

static void rank_report(void *ctx, int rank, const void *data, size_t len)
{
    Tasks *t = ctx;
    CHECK_EQ_INT(rank, 0);
    CHECK_EQ_INT(len, sizeof(int));
    memcpy(&t->reported, data, sizeof(int));
    t->reports++;
}

static bool should_stop(void *ctx)
{
    Tasks *t = ctx;
    t->stop_asks++;
    return t->nresults >= t->should_stop_at;
}

static bool run(Tasks *t)
{
    pthread_mutex_init(&t->lock, NULL);
    FarmPlan plan = {.workers = WORKERS,
                     .work = work,
                     .pick = pick,
                     .result = result,
                     .report = report,
                     .rank_report = rank_report,
                     .should_stop = t->should_stop_at ? should_stop : NULL,
                     .ctx = t};
    return farm_run(&plan);
}

TEST(farm_gives_every_task_once_and_waits_for_dependencies)
{
    static Tasks t;
    CHECK(run(&t));
    for (int i = 0; i < TASKS; i++) {
        CHECK_EQ_INT(t.given[i], 1);
        CHECK_EQ_INT(t.results[i], 1);
    }
    CHECK(!t.out_of_order);
    CHECK(t.waits > 0);
    CHECK(!t.saw_stop && !t.left_early);
    CHECK_EQ_INT(t.reports, 1);
    CHECK_EQ_INT(t.reported, TASKS); /* the report is made after the last task */
}

TEST(farm_stop_ends_every_worker)
{
    static Tasks t = {.stop_after = 5};
    CHECK(run(&t));
    /* Five results stop the farm: at most the tasks under way then finish after it. */
    CHECK(t.nresults >= 5 && t.nresults <= 5 + WORKERS - 1);
    CHECK(atomic_load(&t.next) < TASKS);
    CHECK_EQ_INT(t.reports, 1);
}

TEST(farm_stops_when_should_stop_says_so)
{
    static Tasks t = {.should_stop_at = 5};
    CHECK(run(&t));
    /* Asked as the messages are carried (ten times a second at least): the tasks given before
     * it said yes may still finish, none is given after; 40 tasks take 270 ms. */
    CHECK(t.stop_asks > 0);
    CHECK(t.nresults >= 5);
    CHECK(atomic_load(&t.next) < TASKS);
    CHECK_EQ_INT(t.nresults, atomic_load(&t.next));
    CHECK_EQ_INT(t.reports, 1);
}
