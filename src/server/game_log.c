#include "game_log.h"

#include "game_service.h"
#include "live_game.h"
#include "logger.h"

/* A side as the log names it, or null for none (-1). */
static json_t *side_or_null(int side)
{
    return side < 0 ? json_null() : json_string(side_name(side));
}

/* The observer: g changed (a move, a result, an offer; its lock held).  The line says what
 * the game is after the change, not what the change was: the request line before it names
 * the action when a player made it; an engine move or a flag fall has none.  Tokens are not
 * logged. */
static void on_changed(void *ctx, LiveGame *g)
{
    (void)ctx;
    if (!logger_wants(LOG_LEVEL_INFO))
        return;
    int plies = g->game.n;
    logger_event(LOG_LEVEL_INFO, "game",
                 json_pack("{s:s, s:s, s:i, s:s?, s:s, s:s?, s:o, s:o, s:o}", "game", g->id, "variant", g->v->def->name,
                           "plies", plies, "last_move", plies ? g->uci[plies - 1] : NULL, "result",
                           result_text(g->result), "reason", g->result != RESULT_NONE ? g->reason : NULL,
                           "draw_offer", side_or_null(g->draw_offer), "takeback_offer",
                           side_or_null(g->takeback_offer), "rematch_offer", side_or_null(g->rematch_offer)));
}

bool game_log_start(void)
{
    GameObserver o = {.changed = on_changed};
    return service_observe(&o);
}
