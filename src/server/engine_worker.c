#include "engine_worker.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/movegen.h"
#include "../core/notation.h"
#include "../engine/search.h"

#define LANE_THREADS_MAX 4

/* A job for a lane: run on one of its threads with its Engine, or dropped at shutdown. */
typedef struct Job {
    void (*run)(struct Job *job, Engine *e);
    void (*drop)(struct Job *job);
    const Variant *v; /* the variant searched (a new variant clears the engine's table) */
    struct Job *next;
} Job;

typedef struct Lane {
    int hash_mb; /* each engine's table */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    Job *head, *tail;
    bool quitting;
    int n;
    LaneLoad load; /* jobs waiting and running, for the metrics */
    pthread_t threads[LANE_THREADS_MAX];
    Engine engines[LANE_THREADS_MAX];
} Lane;

static Lane moves_lane = {.hash_mb = 16, .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};
static Lane questions_lane = {.hash_mb = 8, .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};

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

/* ---- Lanes ------------------------------------------------------------------------------ */

/* Queues a job; false (the job not taken) when the lane is stopping. */
static bool submit(Lane *lane, Job *job)
{
    job->next = NULL;
    pthread_mutex_lock(&lane->lock);
    bool open = !lane->quitting;
    if (open) {
        if (lane->tail)
            lane->tail->next = job;
        else
            lane->head = job;
        lane->tail = job;
        lane->load.queued++;
        pthread_cond_signal(&lane->cond);
    }
    pthread_mutex_unlock(&lane->lock);
    return open;
}

/* The next job, or NULL when the lane stops. */
static Job *take(Lane *lane, Engine *e)
{
    pthread_mutex_lock(&lane->lock);
    while (!lane->head && !lane->quitting)
        pthread_cond_wait(&lane->cond, &lane->lock);
    Job *job = lane->quitting ? NULL : lane->head;
    if (job) {
        lane->head = job->next;
        if (!lane->head)
            lane->tail = NULL;
        lane->load.queued--;
        lane->load.running++;
        atomic_store(&e->stop, false);
    }
    pthread_mutex_unlock(&lane->lock);
    return job;
}

static bool stopping(Lane *lane)
{
    pthread_mutex_lock(&lane->lock);
    bool quitting = lane->quitting;
    pthread_mutex_unlock(&lane->lock);
    return quitting;
}

typedef struct Seat {
    Lane *lane;
    int index;
} Seat;

static Seat seats[2][LANE_THREADS_MAX];

static void *lane_thread(void *arg)
{
    Seat *seat = arg;
    Engine *e = &seat->lane->engines[seat->index];
    const Variant *last_variant = NULL;
    for (Job *job; (job = take(seat->lane, e));) {
        if (job->v != last_variant) /* table entries of another variant mean nothing here */
            engine_new_game(e);
        last_variant = job->v;
        job->run(job, e);
        pthread_mutex_lock(&seat->lane->lock);
        seat->lane->load.running--;
        pthread_mutex_unlock(&seat->lane->lock);
    }
    return NULL;
}

static LaneLoad lane_load(Lane *lane)
{
    pthread_mutex_lock(&lane->lock);
    LaneLoad load = lane->load;
    pthread_mutex_unlock(&lane->lock);
    return load;
}

void workers_load(LaneLoad *moves, LaneLoad *questions)
{
    *moves = lane_load(&moves_lane);
    *questions = lane_load(&questions_lane);
}

static bool lane_start(Lane *lane, int threads, Seat *lane_seats)
{
    for (int i = 0; i < threads; i++) {
        if (!engine_init(&lane->engines[i], (size_t)lane->hash_mb))
            return false;
        lane_seats[i] = (Seat){lane, i};
        if (pthread_create(&lane->threads[i], NULL, lane_thread, &lane_seats[i]) != 0) {
            engine_free(&lane->engines[i]);
            return false;
        }
        lane->n++;
    }
    return true;
}

static void lane_stop(Lane *lane)
{
    pthread_mutex_lock(&lane->lock);
    lane->quitting = true;
    for (int i = 0; i < lane->n; i++)
        atomic_store(&lane->engines[i].stop, true);
    pthread_cond_broadcast(&lane->cond);
    pthread_mutex_unlock(&lane->lock);
    for (int i = 0; i < lane->n; i++) {
        pthread_join(lane->threads[i], NULL);
        engine_free(&lane->engines[i]);
    }
    lane->n = 0;
    while (lane->head) {
        Job *job = lane->head;
        lane->head = job->next;
        job->drop(job);
    }
    lane->tail = NULL;
}

/* ---- The engine's moves ------------------------------------------------------------------- */

typedef struct MoveJob {
    Job base;
    LiveGame *game; /* a reference, given back when the job is done or dropped */
} MoveJob;

static void move_drop(Job *job)
{
    MoveJob *m = (MoveJob *)job;
    service_release(m->game);
    free(m);
}

static void move_run(Job *job, Engine *e)
{
    MoveJob *m = (MoveJob *)job;
    EngineTask task;
    if (service_engine_task(m->game, &task)) {
        Game g;
        Move best = MOVE_NONE;
        if (replay_copy(&g, &task.game)) {
            e->skill = task.skill < 0 ? 20 : task.skill;
            SearchLimits limits = {.movetime = task.movetime_ms};
            SearchResult r = search_run(e, &g, &limits, NULL);
            if (!stopping(&moves_lane))
                best = r.best;
        }
        game_free(&g);
        service_engine_reply(m->game, &task, best);
        game_copy_free(&task.game);
    }
    move_drop(job);
}

/* The observer: the engine is to move in g (g's lock held).  The queued job holds a
 * reference to g. */
static bool queue_move(void *ctx, LiveGame *g)
{
    (void)ctx;
    MoveJob *m = malloc(sizeof *m);
    if (!m)
        return false;
    *m = (MoveJob){{move_run, move_drop, g->v, NULL}, g};
    service_hold(g);
    if (submit(&moves_lane, &m->base))
        return true;
    service_release(g);
    free(m);
    return false;
}

/* ---- Questions ---------------------------------------------------------------------------- */

typedef struct Question {
    Job base;
    Answered done;
    void *ctx;
    Game game;
    int movetime_ms;
    Analysis *analysis; /* an analysis, or */
    bool *accepted;     /* a draw offer's answer, by the engine playing engine_side, or */
    int engine_side;
    void (*work)(void *ctx); /* other work: work(ctx) */
} Question;

static void question_drop(Job *job)
{
    Question *q = (Question *)job;
    q->done(q->ctx, false);
    game_free(&q->game);
    free(q);
}

/* Keeps the best line of the search's last iteration (the search's observer). */
static void keep_best_line(void *ctx, const Position *root, const SearchInfo *info)
{
    (void)root;
    if (info->nlines > 0)
        *(SearchLine *)ctx = info->lines[0];
}

void engine_fill_analysis(const Position *root, const SearchLine *line, Analysis *out)
{
    int mate = score_mate_moves(line->score);
    out->has_mate = mate != 0;
    out->mate = mate;
    out->has_score = !mate && line->length > 0;
    out->score_cp = line->score;
    Position pos = *root;
    for (int i = 0; i < line->length && i < ANALYSIS_PV_MAX; i++) {
        Undo u;
        move_to_text(&pos, line->moves[i], out->pv[i]);
        move_to_san(&pos, line->moves[i], out->pv_san[i]);
        pos_make(&pos, line->moves[i], &u);
        out->npv++;
    }
}

/* Searches g at full strength; the search's results come as data (SearchInfo). */
static void analyse(Game *g, Engine *e, int movetime_ms, Analysis *out)
{
    memset(out, 0, sizeof *out);
    Move legal[MAX_MOVES];
    if (game_status(g).kind != RESULT_NONE || gen_legal(&g->pos, legal) == 0)
        return; /* nothing to search */
    e->skill = 20;
    SearchLine line = {0};
    SearchObserver observer = {.iteration = keep_best_line, .ctx = &line};
    SearchLimits limits = {.movetime = movetime_ms};
    SearchResult r = search_run(e, g, &limits, &observer);
    out->depth = r.depth;
    if (line.length == 0 && r.best != MOVE_NONE) /* no iteration finished: at least the move */
        line = (SearchLine){.score = r.score, .length = 1, .moves = {r.best}};
    engine_fill_analysis(&g->pos, &line, out);
    if (r.best != MOVE_NONE)
        move_to_text(&g->pos, r.best, out->best);
}

static bool accepts_draw(Game *g, Engine *e, int engine_side)
{
    /* Where the rules give an agreed draw a winner, the engine agrees only when it wins. */
    game_agree_draw(g);
    GameResult agreed = game_status(g);
    g->ended = (GameResult){RESULT_NONE, NULL};
    if (agreed.kind != RESULT_DRAW)
        return (agreed.kind == RESULT_WHITE_WINS) == (engine_side == WHITE);
    e->skill = 20;
    SearchLimits limits = {.movetime = DRAW_THINK_MS};
    SearchResult r = search_run(e, g, &limits, NULL);
    int score = g->pos.side == engine_side ? r.score : -r.score;
    return score <= 50;
}

static void question_run(Job *job, Engine *e)
{
    Question *q = (Question *)job;
    if (q->work)
        q->work(q->ctx);
    else if (q->analysis)
        analyse(&q->game, e, q->movetime_ms, q->analysis);
    else
        *q->accepted = accepts_draw(&q->game, e, q->engine_side);
    q->done(q->ctx, true);
    game_free(&q->game);
    free(q);
}

static Question *question_new(const Variant *v, Answered done, void *ctx)
{
    Question *q = calloc(1, sizeof *q);
    if (q)
        *q = (Question){.base = {question_run, question_drop, v, NULL}, .done = done, .ctx = ctx};
    return q;
}

EngineAsk engine_analyse(Game *g, int movetime_ms, Analysis *out, Answered done, void *ctx)
{
    Question *q = question_new(g->v, done, ctx);
    if (!q)
        return ENGINE_NO_MEMORY;
    q->game = *g;
    q->movetime_ms = movetime_ms;
    q->analysis = out;
    if (!submit(&questions_lane, &q->base)) {
        free(q); /* the game stays the caller's */
        return ENGINE_STOPPING;
    }
    memset(g, 0, sizeof *g);
    return ENGINE_ASKED;
}

EngineAsk engine_ask_draw(const DrawQuestion *d, bool *accepted, Answered done, void *ctx)
{
    Question *q = question_new(d->game.v, done, ctx);
    if (!q)
        return ENGINE_NO_MEMORY;
    if (!replay_copy(&q->game, &d->game)) {
        game_free(&q->game);
        free(q);
        return ENGINE_NO_MEMORY;
    }
    q->accepted = accepted;
    q->engine_side = d->engine_side;
    if (submit(&questions_lane, &q->base))
        return ENGINE_ASKED;
    game_free(&q->game);
    free(q);
    return ENGINE_STOPPING;
}

EngineAsk engine_ask_work(const Variant *v, void (*work)(void *ctx), Answered done, void *ctx)
{
    Question *q = question_new(v, done, ctx);
    if (!q)
        return ENGINE_NO_MEMORY;
    q->work = work;
    if (submit(&questions_lane, &q->base))
        return ENGINE_ASKED;
    free(q);
    return ENGINE_STOPPING;
}

/* ---- Start and stop ----------------------------------------------------------------------- */

bool workers_start(void)
{
    GameObserver o = {.engine_to_move = queue_move};
    return service_observe(&o) && lane_start(&moves_lane, ENGINE_WORKERS, seats[0]) &&
           lane_start(&questions_lane, ENGINE_POOL, seats[1]);
}

void workers_stop(void)
{
    lane_stop(&questions_lane);
    lane_stop(&moves_lane);
}
