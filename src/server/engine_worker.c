#include "engine_worker.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/movegen.h"
#include "../core/notation.h"
#include "../engine/search.h"

typedef struct Job {
    LiveGame *game; /* a reference, given back when the job is done or discarded */
    struct Job *next;
} Job;

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queue_cond = PTHREAD_COND_INITIALIZER;
static Job *head, *tail;
static bool quitting;

static pthread_t threads[ENGINE_WORKERS];
static Engine worker_engine[ENGINE_WORKERS];
static int nthreads;

static Engine pool[ENGINE_POOL];
static bool pool_ready[ENGINE_POOL], pool_busy[ENGINE_POOL];
static const Variant *pool_variant[ENGINE_POOL];
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_cond = PTHREAD_COND_INITIALIZER;

/* Rebuilds a game from its start and moves (the search needs the history for repetitions);
 * false when memory runs out. */
static bool replay(Game *g, const Variant *v, const char *start_fen, const Move *moves, int n)
{
    char err[160];
    memset(g, 0, sizeof *g);
    if (!game_init(g, v, start_fen, err, sizeof err))
        return false;
    for (int i = 0; i < n; i++)
        if (!game_play(g, moves[i]))
            return false;
    return true;
}

static bool replay_copy(Game *g, const GameCopy *c)
{
    return replay(g, c->v, c->start_fen, c->moves, c->n);
}

static void *worker(void *arg)
{
    int index = (int)(intptr_t)arg;
    Engine *e = &worker_engine[index];
    const Variant *last_variant = NULL;
    for (;;) {
        pthread_mutex_lock(&queue_lock);
        while (!head && !quitting)
            pthread_cond_wait(&queue_cond, &queue_lock);
        if (quitting) {
            pthread_mutex_unlock(&queue_lock);
            break;
        }
        Job *job = head;
        head = job->next;
        if (!head)
            tail = NULL;
        atomic_store(&e->stop, false);
        pthread_mutex_unlock(&queue_lock);

        EngineTask task;
        if (service_engine_task(job->game, &task)) {
            Game g;
            if (replay_copy(&g, &task.game)) {
                if (task.game.v != last_variant) /* table entries of another variant mean nothing here */
                    engine_new_game(e);
                last_variant = task.game.v;
                e->skill = task.skill < 0 ? 20 : task.skill;
                SearchLimits limits = {.movetime = task.movetime_ms};
                SearchResult r = search_run(e, &g, &limits, NULL);
                pthread_mutex_lock(&queue_lock);
                bool stopping = quitting;
                pthread_mutex_unlock(&queue_lock);
                if (!stopping && r.best != MOVE_NONE)
                    service_engine_reply(job->game, &task, r.best);
            }
            game_free(&g);
            game_copy_free(&task.game);
        }
        service_release(job->game);
        free(job);
    }
    return NULL;
}

static bool queue_job(void *ctx, LiveGame *g);

bool workers_start(void)
{
    GameObserver o = {.engine_to_move = queue_job};
    if (!service_observe(&o))
        return false;
    for (int i = 0; i < ENGINE_POOL; i++) {
        if (!engine_init(&pool[i], 8))
            return false;
        pool_ready[i] = true;
    }
    for (int i = 0; i < ENGINE_WORKERS; i++) {
        if (!engine_init(&worker_engine[i], 16))
            return false;
        if (pthread_create(&threads[i], NULL, worker, (void *)(intptr_t)i) != 0) {
            engine_free(&worker_engine[i]);
            return false;
        }
        nthreads++;
    }
    return true;
}

void workers_stop(void)
{
    pthread_mutex_lock(&queue_lock);
    quitting = true;
    for (int i = 0; i < nthreads; i++)
        atomic_store(&worker_engine[i].stop, true);
    pthread_cond_broadcast(&queue_cond);
    pthread_mutex_unlock(&queue_lock);
    pthread_mutex_lock(&pool_lock);
    for (int i = 0; i < ENGINE_POOL; i++)
        if (pool_ready[i])
            atomic_store(&pool[i].stop, true);
    pthread_cond_broadcast(&pool_cond);
    pthread_mutex_unlock(&pool_lock);
    for (int i = 0; i < nthreads; i++) {
        pthread_join(threads[i], NULL);
        engine_free(&worker_engine[i]);
    }
    nthreads = 0;
    while (head) {
        Job *j = head;
        head = j->next;
        service_release(j->game);
        free(j);
    }
    tail = NULL;
}

/* Called after the HTTP daemon has stopped: nothing uses the pool any more. */
static void pool_free(void)
{
    for (int i = 0; i < ENGINE_POOL; i++)
        if (pool_ready[i]) {
            engine_free(&pool[i]);
            pool_ready[i] = false;
        }
}

/* The observer: the engine is to move in g (g's lock held).  The queued job holds a
 * reference to g. */
static bool queue_job(void *ctx, LiveGame *g)
{
    (void)ctx;
    Job *job = malloc(sizeof *job);
    if (!job)
        return false;
    job->game = g;
    job->next = NULL;
    pthread_mutex_lock(&queue_lock);
    if (quitting) {
        pthread_mutex_unlock(&queue_lock);
        free(job);
        return false;
    }
    service_hold(g);
    if (tail)
        tail->next = job;
    else
        head = job;
    tail = job;
    pthread_cond_signal(&queue_cond);
    pthread_mutex_unlock(&queue_lock);
    return true;
}

/* ---- The pool of engines for searches that a request waits for -------------------------- */

static Engine *pool_acquire(const Variant *v)
{
    pthread_mutex_lock(&pool_lock);
    for (;;) {
        pthread_mutex_lock(&queue_lock);
        bool stopping = quitting;
        pthread_mutex_unlock(&queue_lock);
        if (stopping)
            break;
        for (int i = 0; i < ENGINE_POOL; i++)
            if (pool_ready[i] && !pool_busy[i]) {
                pool_busy[i] = true;
                atomic_store(&pool[i].stop, false);
                pool[i].skill = 20;
                bool fresh = pool_variant[i] != v;
                pool_variant[i] = v;
                pthread_mutex_unlock(&pool_lock);
                if (fresh) /* table entries of another variant mean nothing here */
                    engine_new_game(&pool[i]);
                return &pool[i];
            }
        pthread_cond_wait(&pool_cond, &pool_lock);
    }
    pthread_mutex_unlock(&pool_lock);
    return NULL;
}

static void pool_release(Engine *e)
{
    pthread_mutex_lock(&pool_lock);
    pool_busy[e - pool] = false;
    pthread_cond_signal(&pool_cond);
    pthread_mutex_unlock(&pool_lock);
}

/* Keeps the best line of the search's last iteration. */
static void keep_best_line(void *ctx, const Position *root, const SearchInfo *info)
{
    (void)root;
    if (info->nlines > 0)
        *(SearchLine *)ctx = info->lines[0];
}

bool engine_analyse(Game *g, int movetime_ms, Analysis *out)
{
    memset(out, 0, sizeof *out);
    Move legal[MAX_MOVES];
    if (game_status(g).kind != RESULT_NONE || gen_legal(&g->pos, legal) == 0)
        return true; /* nothing to search */
    Engine *e = pool_acquire(g->v);
    if (!e)
        return false;
    SearchLine line = {0};
    SearchObserver observer = {.iteration = keep_best_line, .ctx = &line};
    SearchLimits limits = {.movetime = movetime_ms};
    SearchResult r = search_run(e, g, &limits, &observer);
    pool_release(e);
    out->depth = r.depth;
    if (line.length == 0 && r.best != MOVE_NONE) /* no iteration finished: at least the move */
        line = (SearchLine){.score = r.score, .length = 1, .moves = {r.best}};
    int mate = score_mate_moves(line.score);
    out->has_mate = mate != 0;
    out->mate = mate;
    out->has_score = !mate && line.length > 0;
    out->score_cp = line.score;
    /* The principal variation in coordinate notation and SAN. */
    Position pos = g->pos;
    for (int i = 0; i < line.length && i < 64; i++) {
        Undo u;
        move_to_text(&pos, line.moves[i], out->pv[i]);
        move_to_san(&pos, line.moves[i], out->pv_san[i]);
        pos_make(&pos, line.moves[i], &u);
        out->npv++;
    }
    if (r.best != MOVE_NONE)
        move_to_text(&g->pos, r.best, out->best);
    return true;
}

bool engine_accepts_draw(const DrawQuestion *q)
{
    Game g;
    int engine_side = q->engine_side;
    if (!replay_copy(&g, &q->game)) {
        game_free(&g);
        return false;
    }
    /* Where the rules give an agreed draw a winner, the engine agrees only when it wins. */
    game_agree_draw(&g);
    GameResult agreed = game_status(&g);
    g.ended = (GameResult){RESULT_NONE, NULL};
    bool yes;
    if (agreed.kind != RESULT_DRAW) {
        yes = (agreed.kind == RESULT_WHITE_WINS) == (engine_side == WHITE);
    } else {
        Engine *e = pool_acquire(q->game.v);
        if (!e) {
            yes = false;
        } else {
            SearchLimits limits = {.movetime = DRAW_THINK_MS};
            SearchResult r = search_run(e, &g, &limits, NULL);
            pool_release(e);
            int score = g.pos.side == engine_side ? r.score : -r.score;
            yes = score <= 50;
        }
    }
    game_free(&g);
    return yes;
}

void workers_free_pool(void)
{
    pool_free();
}
