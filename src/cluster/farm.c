/* The task farm (farm.h): workers on every rank, rank 0 deciding, messages polled. */
#include "farm.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../util/clock.h"
#include "ranks.h"

#define POLL_NS 1000000 /* how often the messages are looked at: 1 ms */
#define STOP_POLL_NS 100000000 /* how often one rank asks plan.should_stop: 100 ms */
#define REPORT_MAX 4096 /* the largest report a rank sends */

enum { MSG_REQUEST, MSG_TASK, MSG_RESULT, MSG_REPORT, MSG_STOP, MSG_FINISH };

/* Every message: this head, then the payload (a result's or a report's bytes). */
typedef struct Head {
    int32_t type, worker, task, unused;
} Head;

/* A message for the farm's thread to send (the workers never call MPI). */
typedef struct Outgoing {
    struct Outgoing *next;
    int to;
    size_t len; /* of the bytes after this struct: the head and the payload */
} Outgoing;

/* A worker's request that rank 0 has not answered yet. */
typedef struct Request {
    int rank, worker;
} Request;

typedef struct Slot {
    Farm *farm;
    int worker;
    bool answered; /* task holds the answer to its last request */
    int task;
    pthread_t thread;
} Slot;

struct Farm {
    const FarmPlan *plan;
    int rank, size;
    pthread_mutex_t lock;
    pthread_cond_t changed; /* an answer, a message to send, the end */
    Slot *slot;             /* this rank's workers */
    int started, finished;  /* worker threads started, and those whose work has returned */
    atomic_bool stop;
    Outgoing *out, **out_tail;
    /* rank 0 */
    Request *pending;
    int npending;
    bool stopped;
    bool *finish_sent; /* per rank */
    int reports;       /* ranks whose workers have all finished */
    /* the other ranks */
    bool finish_received;
};

/* Queues a message for the farm's thread to send; lock held. */
static void post(Farm *f, int to, int type, int worker, int task, const void *data, size_t len)
{
    Outgoing *o = malloc(sizeof *o + sizeof(Head) + len);
    if (!o) {
        fprintf(stderr, "starfish: out of memory for a message to rank %d\n", to);
        exit(1); /* the run cannot go on without it; mpirun ends the other ranks */
    }
    Head h = {type, worker, task, 0};
    o->next = NULL;
    o->to = to;
    o->len = sizeof h + len;
    memcpy(o + 1, &h, sizeof h);
    if (len)
        memcpy((char *)(o + 1) + sizeof h, data, len);
    *f->out_tail = o;
    f->out_tail = &o->next;
    pthread_cond_broadcast(&f->changed);
}

/* Lock held: the answer to a worker of this rank, which farm_next waits for. */
static void give(Farm *f, int worker, int task)
{
    f->slot[worker].task = task;
    f->slot[worker].answered = true;
    pthread_cond_broadcast(&f->changed);
}

/* Rank 0, lock held: the answer to one request. */
static void answer(Farm *f, Request r, int task)
{
    if (r.rank == 0)
        give(f, r.worker, task);
    else
        post(f, r.rank, MSG_TASK, r.worker, task, NULL, 0);
}

/* Rank 0, lock held: answers every request that can be answered now, in the order asked. */
static void serve(Farm *f)
{
    int kept = 0;
    for (int i = 0; i < f->npending; i++) {
        Request r = f->pending[i];
        int task = f->stopped ? FARM_NONE : f->plan->pick(f->plan->ctx, r.rank);
        if (task == FARM_WAIT)
            f->pending[kept++] = r;
        else
            answer(f, r, task);
    }
    f->npending = kept;
}

/* Rank 0, lock held: a request from a worker of `rank`. */
static void request(Farm *f, int rank, int worker)
{
    f->pending[f->npending++] = (Request){rank, worker};
    serve(f);
}

/* Rank 0, lock held: a result from `rank`; the answers it makes possible. */
static void result(Farm *f, int rank, int task, const void *data, size_t len)
{
    f->plan->result(f, f->plan->ctx, rank, task, data, len);
    serve(f);
}

/* Rank 0, lock held: a rank's report (its workers have all finished); the others are told to
 * finish. */
static void rank_report(Farm *f, int rank, const void *data, size_t len)
{
    if (f->plan->rank_report)
        f->plan->rank_report(f->plan->ctx, rank, data, len);
    f->reports++;
    if (rank != 0) {
        post(f, rank, MSG_FINISH, 0, 0, NULL, 0);
        f->finish_sent[rank] = true;
    }
    pthread_cond_broadcast(&f->changed);
}

bool farm_next(Farm *f, int worker, int *task)
{
    Slot *s = &f->slot[worker];
    pthread_mutex_lock(&f->lock);
    s->answered = false;
    if (f->rank == 0)
        request(f, 0, worker);
    else
        post(f, 0, MSG_REQUEST, worker, 0, NULL, 0);
    while (!s->answered)
        pthread_cond_wait(&f->changed, &f->lock);
    *task = s->task;
    pthread_mutex_unlock(&f->lock);
    return *task >= 0;
}

void farm_done(Farm *f, int task, const void *data, size_t len)
{
    pthread_mutex_lock(&f->lock);
    if (f->rank == 0)
        result(f, 0, task, data, len);
    else
        post(f, 0, MSG_RESULT, 0, task, data, len);
    pthread_mutex_unlock(&f->lock);
}

void farm_stop(Farm *f)
{
    if (f->stopped)
        return;
    f->stopped = true;
    atomic_store(&f->stop, true);
    for (int r = 1; r < f->size; r++)
        if (!f->finish_sent[r])
            post(f, r, MSG_STOP, 0, 0, NULL, 0);
}

atomic_bool *farm_stop_flag(Farm *f)
{
    return &f->stop;
}

/* A worker thread: the plan's work, then, from the last worker of the rank to finish, the
 * rank's report. */
static void *worker_main(void *arg)
{
    Slot *s = arg;
    Farm *f = s->farm;
    f->plan->work(f, s->worker, f->plan->ctx);
    pthread_mutex_lock(&f->lock);
    if (++f->finished == f->started) {
        char buf[REPORT_MAX];
        size_t len = f->plan->report ? f->plan->report(f->plan->ctx, buf, sizeof buf) : 0;
        if (f->rank == 0)
            rank_report(f, 0, buf, len);
        else
            post(f, 0, MSG_REPORT, 0, 0, buf, len);
    }
    pthread_mutex_unlock(&f->lock);
    return NULL;
}

/* Sends what the workers queued. */
static void send_queued(Farm *f)
{
    pthread_mutex_lock(&f->lock);
    Outgoing *o = f->out;
    f->out = NULL;
    f->out_tail = &f->out;
    pthread_mutex_unlock(&f->lock);
    while (o) {
        Outgoing *next = o->next;
        ranks_send(o->to, o + 1, o->len);
        free(o);
        o = next;
    }
}

/* Acts on one message from another rank. */
static void handle(Farm *f, int from, const Head *h, const void *data, size_t len)
{
    pthread_mutex_lock(&f->lock);
    switch (h->type) {
    case MSG_REQUEST:
        request(f, from, h->worker);
        break;
    case MSG_RESULT:
        result(f, from, h->task, data, len);
        break;
    case MSG_REPORT:
        rank_report(f, from, data, len);
        break;
    case MSG_TASK:
        give(f, h->worker, h->task);
        break;
    case MSG_STOP:
        atomic_store(&f->stop, true);
        break;
    case MSG_FINISH:
        f->finish_received = true;
        break;
    }
    pthread_mutex_unlock(&f->lock);
}

static void receive_all(Farm *f)
{
    int from;
    void *msg;
    size_t len;
    while (ranks_receive(&from, &msg, &len)) {
        if (len >= sizeof(Head)) {
            Head h;
            memcpy(&h, msg, sizeof h);
            handle(f, from, &h, (char *)msg + sizeof h, len - sizeof h);
        }
        free(msg);
    }
}

/* Lock held: rank 0 has every rank's report, another rank was told to finish. */
static bool finished(const Farm *f)
{
    return f->rank == 0 ? f->reports == f->size : f->finish_received;
}

/* Waits for something to send or the end; with other ranks, at most a poll interval. */
static void wait_for_news(Farm *f)
{
    pthread_mutex_lock(&f->lock);
    if (!f->out && !finished(f)) {
        if (f->size == 1 && !f->plan->should_stop) {
            pthread_cond_wait(&f->changed, &f->lock);
        } else {
            struct timespec until = clock_after_ns(CLOCK_MONOTONIC, f->size == 1 ? STOP_POLL_NS : POLL_NS);
            pthread_cond_timedwait(&f->changed, &f->lock, &until);
        }
    }
    pthread_mutex_unlock(&f->lock);
}

/* Carries the messages until every rank is done (rank 0) or this rank is told to finish. */
static void carry_messages(Farm *f)
{
    for (;;) {
        send_queued(f);
        receive_all(f);
        pthread_mutex_lock(&f->lock);
        if (f->rank == 0 && f->plan->should_stop && !f->stopped && f->plan->should_stop(f->plan->ctx))
            farm_stop(f);
        bool end = finished(f) && !f->out;
        pthread_mutex_unlock(&f->lock);
        if (end)
            return;
        wait_for_news(f);
    }
}

/* Starts the workers, with the lock held so that none reports before all have started. */
static void start_workers(Farm *f)
{
    pthread_mutex_lock(&f->lock);
    for (int i = 0; i < f->plan->workers; i++) {
        f->slot[i] = (Slot){.farm = f, .worker = i};
        if (pthread_create(&f->slot[i].thread, NULL, worker_main, &f->slot[i]) != 0)
            break;
        f->started++;
    }
    pthread_mutex_unlock(&f->lock);
}

bool farm_run(const FarmPlan *plan)
{
    Farm f = {.plan = plan, .rank = ranks_rank(), .size = ranks_size()};
    pthread_mutex_init(&f.lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&f.changed, &attr);
    pthread_condattr_destroy(&attr);
    atomic_init(&f.stop, false);
    f.out_tail = &f.out;
    f.slot = calloc((size_t)plan->workers, sizeof *f.slot);
    f.pending = calloc((size_t)(plan->workers * f.size), sizeof *f.pending);
    f.finish_sent = calloc((size_t)f.size, sizeof *f.finish_sent);
    bool ok = f.slot && f.pending && f.finish_sent;
    if (ok)
        start_workers(&f);
    ok = ok && f.started > 0;
    if (ok) {
        carry_messages(&f);
        for (int i = 0; i < f.started; i++)
            pthread_join(f.slot[i].thread, NULL);
    }
    free(f.slot);
    free(f.pending);
    free(f.finish_sent);
    pthread_cond_destroy(&f.changed);
    pthread_mutex_destroy(&f.lock);
    return ok;
}
