/*
 * The engine on threads of its own, never on HTTP threads, in two lanes, each a queue of jobs
 * and a few threads with an Engine each (search_run is reentrant with one Engine per thread):
 * - the engine's moves in games: the workers observe the game service, which tells them when
 *   the engine is to move; they take the task from it and hand the move back to it.  Skill
 *   0..20 is the Engine's Skill Level and a move time of 100..1500 ms (less when the engine's
 *   clock is short);
 * - questions an HTTP request waits for, at full strength: an analysis (POST /api/analysis)
 *   and the engine's answer to a draw offer.  The request is suspended meanwhile (its thread
 *   serves others) and the answer comes through a callback on the lane's thread.
 */
#ifndef STARFISH_SERVER_ENGINE_WORKER_H
#define STARFISH_SERVER_ENGINE_WORKER_H

#include <stdbool.h>

#include "../engine/search.h"
#include "game_service.h"

#define ENGINE_WORKERS 2
#define ENGINE_POOL 2
#define ANALYSIS_MAX_MS 10000
#define DRAW_THINK_MS 200

/* Observes the game service and starts the threads. */
bool workers_start(void);
/* Stops every search at once, answers the questions still queued (not ok), joins the
 * threads and frees the engines. */
void workers_stop(void);

/* What a lane does: jobs running (a search, or a puzzle's exhaustive search) and waiting. */
typedef struct LaneLoad {
    int running, queued;
} LaneLoad;
/* Each lane's load now, for the metrics. */
void workers_load(LaneLoad *moves, LaneLoad *questions);

#define ANALYSIS_PV_MAX 64

/* An analysis's result: the best line's score (or mate in moves, negative: mated) and moves. */
typedef struct Analysis {
    bool has_score, has_mate;
    int score_cp, mate, depth;
    char pv[ANALYSIS_PV_MAX][MOVE_TEXT_MAX];
    char pv_san[ANALYSIS_PV_MAX][MOVE_TEXT_MAX];
    int npv;
    char best[MOVE_TEXT_MAX]; /* "" when there is no legal move */
} Analysis;

/* A search line's score and its moves in coordinate notation and SAN, from the root position,
 * added to *out (zeroed by the caller). */
void engine_fill_analysis(const Position *root, const SearchLine *line, Analysis *out);

/* Called on a lane's thread when a question is answered (ok), or dropped at shutdown. */
typedef void (*Answered)(void *ctx, bool ok);

typedef enum EngineAsk {
    ENGINE_ASKED,    /* done(ctx, ok) follows */
    ENGINE_STOPPING, /* the server is stopping: done is not called */
    ENGINE_NO_MEMORY,
} EngineAsk;

/* Asks for an analysis of g (which the question takes over, leaving *g zeroed, once asked)
 * for movetime_ms into *out. */
EngineAsk engine_analyse(Game *g, int movetime_ms, Analysis *out, Answered done, void *ctx);
/*
 * Asks whether the engine accepts the draw offered in q (copied) into *accepted.  Where an
 * agreed draw has a winner (the variant's rules decide), it accepts only if that is the
 * engine; otherwise when a 200 ms search scores the position at most +50 cp for the engine.
 */
EngineAsk engine_ask_draw(const DrawQuestion *q, bool *accepted, Answered done, void *ctx);
/* Runs work(ctx) on the questions' lane, then done(ctx, true): a request's exhaustive search
 * (a puzzle's answer) that must not hold an HTTP thread. */
EngineAsk engine_ask_work(const Variant *v, void (*work)(void *ctx), Answered done, void *ctx);

#endif
