/*
 * The engine on worker threads, never on HTTP threads: a queue of games waiting for the
 * engine's move and a few workers, each with its own Engine (search_run is reentrant with
 * one Engine per thread).  The workers observe the game service: it tells them when the
 * engine is to move, they take the task from it and hand the move back to it.  Strength: skill 0..20 is the Engine's Skill Level and a move time
 * of 100..1500 ms (less when the engine's clock is short).
 *
 * A small pool of further engines serves the short searches HTTP requests wait for: an
 * analysis (POST /api/analysis) and the engine's answer to a draw offer.
 */
#ifndef STARFISH_SERVER_ENGINE_WORKER_H
#define STARFISH_SERVER_ENGINE_WORKER_H

#include <stdbool.h>

#include "game_service.h"

#define ENGINE_WORKERS 2
#define ENGINE_POOL 2
#define ANALYSIS_MAX_MS 10000
#define DRAW_THINK_MS 200

/* Observes the game service and starts the threads. */
bool workers_start(void);
/* Stops every search at once and joins the threads. */
void workers_stop(void);
/* Frees the pool engines (after the HTTP daemon has stopped). */
void workers_free_pool(void);

typedef struct Analysis {
    bool has_score, has_mate;
    int score_cp, mate, depth;
    char pv[64][MOVE_TEXT_MAX];
    char pv_san[64][MOVE_TEXT_MAX];
    int npv;
    char best[MOVE_TEXT_MAX]; /* "" when there is no legal move */
} Analysis;

/* Searches the game's position for movetime_ms at full strength; false when shutting down. */
bool engine_analyse(Game *g, int movetime_ms, Analysis *out);
/*
 * Does the engine accept the draw offered in the question?  Where an agreed draw has a winner
 * (the variant's rules decide), only if that is the engine; otherwise when a 200 ms search
 * scores the position at most +50 cp for the engine.
 */
bool engine_accepts_draw(const DrawQuestion *q);

#endif
