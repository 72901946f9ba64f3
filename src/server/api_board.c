/* The API for boards and bots, in lichess's shapes (its Board and Bot APIs): a game's stream
 * (gameFull, then gameState) and the actions of an account's side, each answered {"ok": true};
 * the same under /api/board/ and /api/bot/. */
#include <string.h>

#include "api_route.h"
#include "board_stream.h"
#include "stream.h"

static enum MHD_Result open_stream(ApiRequest *rq, LiveGame *g)
{
    if (stream_closed())
        return http_error(rq->c, 503, "the server is shutting down");
    GameStatus status;
    char err[ERR_MAX];
    struct MHD_Response *r = board_stream_open(g, &rq->who, rq->c, &status, err, sizeof err);
    return r ? http_send(rq->c, MHD_HTTP_OK, r) : http_error(rq->c, api_status(status), "%s", err);
}

/* "yes" or "no" of a draw or takeback (lichess's): an offer (or accepting the opponent's), or
 * declining the opponent's; NULL for anything else. */
static const char *answer_of(const char *yes_no)
{
    return strcmp(yes_no, "yes") == 0 ? "offer" : strcmp(yes_no, "no") == 0 ? "decline" : NULL;
}

static enum MHD_Result act(ApiRequest *rq, LiveGame *g, GameAction act)
{
    if (rq->who.via == AUTH_NONE)
        return http_error(rq->c, 401, "log in first (a bearer token, or a session)");
    const char *arg = rq->arg[1];
    if ((act == ACT_DRAW || act == ACT_TAKEBACK) && !(arg = answer_of(rq->arg[1])))
        return http_error(rq->c, 400, "answer \"yes\" or \"no\", not '%.20s'", rq->arg[1]);
    return api_game_act(rq, g, act, arg, NULL, api_read_ok);
}

/* The handlers of an endpoint, one per API (board_NAME, bot_NAME): the account checked against
 * the API (a bot's is the Bot API), the game found, the work done, its reference given back. */
#define BOARD_ENDPOINT(name, call)                                                                                     \
    static enum MHD_Result name(ApiRequest *rq, bool bot_api)                                                          \
    {                                                                                                                  \
        enum MHD_Result ret;                                                                                           \
        if (!api_player_api_ok(rq, bot_api, &ret))                                                                     \
            return ret;                                                                                                \
        LiveGame *g = api_find_game(rq, &ret);                                                                         \
        if (!g)                                                                                                        \
            return ret;                                                                                                \
        ret = call;                                                                                                    \
        service_release(g);                                                                                            \
        return ret;                                                                                                    \
    }                                                                                                                  \
    static enum MHD_Result board_##name(ApiRequest *rq)                                                                \
    {                                                                                                                  \
        return name(rq, false);                                                                                        \
    }                                                                                                                  \
    static enum MHD_Result bot_##name(ApiRequest *rq)                                                                  \
    {                                                                                                                  \
        return name(rq, true);                                                                                         \
    }

BOARD_ENDPOINT(get_stream, open_stream(rq, g))
BOARD_ENDPOINT(post_move, act(rq, g, ACT_MOVE))
BOARD_ENDPOINT(post_resign, act(rq, g, ACT_RESIGN))
BOARD_ENDPOINT(post_abort, act(rq, g, ACT_ABORT))
BOARD_ENDPOINT(post_draw, act(rq, g, ACT_DRAW))
BOARD_ENDPOINT(post_takeback, act(rq, g, ACT_TAKEBACK))
BOARD_ENDPOINT(post_berserk, act(rq, g, ACT_BERSERK))
BOARD_ENDPOINT(post_claim_victory, act(rq, g, ACT_CLAIM_VICTORY))
BOARD_ENDPOINT(post_claim_draw, act(rq, g, ACT_CLAIM_DRAW))

/* The routes of one API (board or bot). */
#define GAME_ROUTES(api)                                                                                               \
    {"GET", "/" #api "/game/stream/{id}", api##_get_stream, true},                                                    \
    {"POST", "/" #api "/game/{id}/move/{move}", api##_post_move, false},                                              \
    {"POST", "/" #api "/game/{id}/resign", api##_post_resign, false},                                                 \
    {"POST", "/" #api "/game/{id}/abort", api##_post_abort, false},                                                   \
    {"POST", "/" #api "/game/{id}/draw/{answer}", api##_post_draw, false},                                            \
    {"POST", "/" #api "/game/{id}/takeback/{answer}", api##_post_takeback, false},                                    \
    {"POST", "/" #api "/game/{id}/berserk", api##_post_berserk, false},                                               \
    {"POST", "/" #api "/game/{id}/claim-victory", api##_post_claim_victory, false},                                   \
    {"POST", "/" #api "/game/{id}/claim-draw", api##_post_claim_draw, false}

const ApiRoute api_board_routes[] = {
    GAME_ROUTES(board),
    GAME_ROUTES(bot),
    {NULL, NULL, NULL, false},
};
