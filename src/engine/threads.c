/*
 * The engine's lifecycle (its table, its workers, kept from search to search) and a search's
 * run: each worker readied with the game, helper threads started beside the main thread on
 * one shared table (Lazy SMP), then the move chosen from the main thread's lines.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/movegen.h"
#include "../util/clock.h"
#include "../util/rng.h"
#include "history.h"
#include "root.h"
#include "worker.h"

static void worker_free(Worker *w)
{
    if (w) {
        history_free(w);
        free(w->nnue);
    }
    free(w);
}

/* ---- The engine --------------------------------------------------------------------------- */

bool engine_init(Engine *e, size_t hash_mb)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, init_reductions);
    memset(e, 0, sizeof *e);
    e->skill = 20;
    e->multipv = 1;
    e->use_nnue = true;
    e->seed = rng_fresh_seed();
    atomic_init(&e->stop, false);
    atomic_init(&e->pondering, false);
    return tt_resize(&e->tt, hash_mb) && engine_set_threads(e, 1);
}

bool engine_set_threads(Engine *e, int threads)
{
    if (threads < 1 || threads > MAX_THREADS)
        return false;
    Worker **workers = calloc((size_t)threads, sizeof *workers);
    if (!workers)
        return false;
    bool ok = true;
    for (int i = 0; i < threads; i++) {
        workers[i] = i < e->threads ? e->workers[i] : calloc(1, sizeof **workers);
        ok = ok && workers[i];
    }
    if (!ok) { /* give back the new ones (the array was zeroed, so free(NULL) is fine) */
        for (int i = e->threads; i < threads; i++)
            free(workers[i]);
        free(workers);
        return false;
    }
    for (int i = threads; i < e->threads; i++)
        worker_free(e->workers[i]);
    for (int i = 0; i < threads; i++)
        workers[i]->id = i;
    free(e->workers);
    e->workers = workers;
    e->threads = threads;
    return true;
}

void engine_free(Engine *e)
{
    for (int i = 0; i < e->threads; i++)
        worker_free(e->workers[i]);
    free(e->workers);
    tt_free(&e->tt);
}

void engine_new_game(Engine *e)
{
    tt_clear(&e->tt);
    for (int i = 0; i < e->threads; i++)
        history_forget(e->workers[i]);
}

void engine_ponderhit(Engine *e)
{
    atomic_store(&e->pondering, false);
}

void engine_prepare(Engine *e, const Variant *v)
{
    tt_touch(&e->tt);
    eval_tables(v);
    for (int i = 0; i < e->threads; i++)
        history_prepare(e->workers[i], v);
}

/* ---- A search's run ------------------------------------------------------------------------ */

static void *helper_main(void *arg)
{
    Worker *w = arg;
    Move moves[MAX_MOVES];
    iterate(w, gen_legal(&w->pos, moves));
    return NULL;
}

/* Readies a worker for a new search of the game's position. */
static void worker_start(Worker *w, Shared *sh, const Game *game)
{
    w->shared = sh;
    w->pos = game->pos;
    pos_attach_scores(&w->pos, &sh->eval->scores);
    if (sh->net && !w->nnue)
        w->nnue = nnue_stack_new(MAX_PLY + 2);
    w->net = w->nnue ? sh->net : NULL; /* no memory for the frames: the hand-written evaluation */
    if (w->nnue)
        nnue_stack_reset(w->nnue);
    w->nkeys = 0;
    int first = game->n + 1 > MAX_HISTORY_KEYS ? game->n + 1 - MAX_HISTORY_KEYS : 0;
    for (int i = first; i < game->n; i++)
        w->keys[w->nkeys++] = game->undos[i].key ^ (game->undos[i].ep != NO_CELL ? zobrist_ep[game->undos[i].ep] : 0);
    w->keys[w->nkeys++] = search_key(&w->pos);
    atomic_store(&w->nodes, 0);
    atomic_store(&w->tbhits, 0);
    w->seldepth = 0;
    w->stopped = false;
    w->nexcluded = 0;
    w->completed_depth = 0;
    w->info.nlines = 0;
    memset(w->killers, 0, sizeof w->killers);
    memset(w->singular, 0, sizeof w->singular);
    memset(w->pv_len, 0, sizeof w->pv_len);
    history_prepare(w, game->pos.v);
}

/* The main thread's search, with the helpers running beside it; returns the line to play. */
static void search_with_helpers(Engine *e, Shared *sh, int nlegal)
{
    Worker *main = e->workers[0];
    int started = 1;
    for (; started < sh->nthreads; started++)
        if (pthread_create(&e->workers[started]->thread, NULL, helper_main, e->workers[started]) != 0)
            break;
    sh->nthreads = started; /* a helper that could not start is not waited for */
    iterate(main, nlegal);
    atomic_store(&sh->abort, true);
    for (int i = 1; i < started; i++)
        pthread_join(e->workers[i]->thread, NULL);
}

SearchResult search_run(Engine *e, Game *game, const SearchLimits *limits, const SearchObserver *observer)
{
    SearchResult r = {0};
    Shared sh = {.engine = e, .eval = eval_tables(game->v), .limits = *limits, .observer = observer};
    sh.net = e->use_nnue ? nnue_net_for(game->v) : NULL;
    sh.start = clock_seconds();
    sh.nthreads = e->threads;
    atomic_init(&sh.abort, false);
    tt_new_search(&e->tt);
    int side = game->pos.side;
    sh.time = time_plan(limits->movetime, limits->time[side], limits->inc[side], limits->movestogo, limits->infinite);
    for (int i = 0; i < e->threads; i++)
        worker_start(e->workers[i], &sh, game);
    Worker *w = e->workers[0];

    Move moves[MAX_MOVES];
    int n = gen_legal(&w->pos, moves);
    if (e->greedy && n > 0) {
        r.best = greedy_choice(e, &w->pos, moves, n);
        r.depth = 1;
        return r;
    }
    sh.max_depth = limits->depth > 0 && limits->depth < MAX_PLY ? limits->depth : MAX_PLY - 1;
    if (e->skill < 20 && sh.max_depth > 1 + e->skill / 3)
        sh.max_depth = 1 + e->skill / 3;
    bool by_tables = e->skill == 20 && endgame_root_play(w, moves, n);
    if (!by_tables && n > 0) {
        if (e->skill < 20)
            sh.nthreads = 1;
        search_with_helpers(e, &sh, n);
    }
    const SearchLine *best = &w->info.lines[0];
    if (w->info.nlines > 0 && best->length > 0) {
        r.best = best->moves[0];
        r.ponder = best->length > 1 ? best->moves[1] : MOVE_NONE;
        r.score = best->score;
    } else {
        r.best = n ? moves[0] : MOVE_NONE;
    }
    r.depth = w->completed_depth;
    if (e->skill < 20 && n > 1 && !w->stopped) {
        r.best = weakened_choice(w, moves, n, r.depth > 0 ? r.depth : 1);
        r.ponder = MOVE_NONE;
    }
    /* `go infinite` and `go ponder` answer only after `stop` (or, pondering, a ponderhit). */
    while ((limits->infinite || atomic_load(&e->pondering)) && !atomic_load(&e->stop)) {
        struct timespec pause = {0, 2000000};
        nanosleep(&pause, NULL);
    }
    r.nodes = total_nodes(&sh);
    r.seconds = clock_seconds() - sh.start;
    return r;
}
