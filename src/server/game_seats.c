/*
 * The game service's players at a game (game_service.h): an account joining the side its
 * invite is for, a game aborted before it has begun, a berserk before one's first move, and
 * the claims against an opponent who has left.
 */
#include <string.h>

#include "game_change.h"
#include "game_presence.h"
#include "game_service.h"
#include "util.h"

/* The side whose secret the invite is (not the engine's), or -1. */
static int side_of_invite(const LiveGame *g, const char *invite)
{
    for (int s = 0; invite && *invite && s < 2; s++)
        if (!g->engine[s] && util_secret_equal(invite, g->token[s]))
            return s;
    return -1;
}

static GameStatus join_locked(LiveGame *g, GameCall *call, const char *invite, const SeatRow *seat)
{
    int side = side_of_invite(g, invite);
    if (side < 0)
        return svc_fail(call, GAME_NOT_A_PLAYER, "wrong invite for game %s", g->id);
    if (strcmp(g->seat[side ^ 1].user, seat->user) == 0)
        return svc_fail(call, GAME_OWN_GAME, "you play %s in game %s: the invite is for your opponent",
                        side_name(side ^ 1), g->id);
    if (strcmp(g->seat[side].user, seat->user) == 0) /* joined already: the game as it is */
        return svc_done(g, call, side);
    if (g->seat[side].user[0])
        return svc_fail(call, GAME_SEAT_TAKEN, "%s of game %s is %s's", side_name(side), g->id, g->seat[side].name);
    GameStatus status = svc_still_going(g, util_now_ms(), call);
    if (status != GAME_OK)
        return status;
    Saved before = svc_save(g);
    g->seat[side] = *seat;
    g->joined[side] = true;
    status = svc_settle(g, &before, NULL, "join", call, side);
    if (status == GAME_OK)
        svc_tell_seated(g, side);
    return status;
}

GameStatus service_join(LiveGame *g, GameCall *call, const char *invite, const SeatRow *seat)
{
    svc_lock(g);
    GameStatus status = join_locked(g, call, invite, seat);
    pthread_mutex_unlock(&g->lock);
    return status;
}

/* Has a side not yet made its first move (a placement counts)?  The sides move in turn. */
static bool not_begun(const LiveGame *g)
{
    return g->game.n < 2;
}

static void abort_game(Game *game, int side)
{
    (void)side;
    game_abort(game);
}

GameStatus service_abort(LiveGame *g, GameCall *call)
{
    svc_lock(g);
    int64_t now = util_now_ms();
    GameStatus status;
    int side = svc_player(g, call, false, &status);
    if (status == GAME_OK && (status = svc_still_going(g, now, call)) == GAME_OK) {
        status = not_begun(g) ? svc_finish(g, abort_game, side, now, call)
                              : svc_fail(call, GAME_NOT_ABORTABLE, "both sides have moved: resign instead");
    }
    pthread_mutex_unlock(&g->lock);
    return status;
}

/* A berserk (its side's): half the clock, no increment; before the side's first move, once,
 * in a real-time game. */
static GameStatus berserk_locked(LiveGame *g, GameCall *call, int side)
{
    if (!g->has_clock || g->days)
        return svc_fail(call, GAME_NO_BERSERK, "game %s has no clock to berserk with", g->id);
    if (g->berserk[side])
        return svc_fail(call, GAME_NO_BERSERK, "%s has berserked already", side_name(side));
    if (g->game.n > side) /* white's first move is ply 0, black's ply 1 */
        return svc_fail(call, GAME_NO_BERSERK, "a berserk comes before one's first move");
    Saved before = svc_save(g);
    g->berserk[side] = true;
    g->left[side] = live_initial_time(g, side);
    return svc_settle(g, &before, NULL, "berserk", call, side);
}

GameStatus service_berserk(LiveGame *g, GameCall *call)
{
    svc_lock(g);
    int64_t now = util_now_ms();
    GameStatus status;
    int side = svc_player(g, call, false, &status);
    if (status == GAME_OK && (status = svc_still_going(g, now, call)) == GAME_OK)
        status = berserk_locked(g, call, side);
    pthread_mutex_unlock(&g->lock);
    return status;
}

static void abandoned_win(Game *game, int side)
{
    game_abandoned(game, side, false);
}

static void abandoned_draw(Game *game, int side)
{
    game_abandoned(game, side, true);
}

/* The claim of `side` against its opponent, gone long enough from a game with a clock. */
static GameStatus claim_locked(LiveGame *g, GameCall *call, int side, bool draw, int64_t now)
{
    if (!g->has_clock || g->days)
        return svc_fail(call, GAME_NO_CLAIM, "game %s has no clock: a claim is for a game played now", g->id);
    if (not_begun(g))
        return svc_fail(call, GAME_NO_CLAIM, "both sides have not moved yet: abort instead");
    int64_t claim_at;
    int gone = presence_gone(g->id, side ^ 1, now, &claim_at);
    if (gone < 0)
        return svc_fail(call, GAME_STORE_FAILED, "the store failed: try again");
    if (!gone)
        return svc_fail(call, GAME_NO_CLAIM, "your opponent has not left the game");
    if (now < claim_at)
        return svc_fail(call, GAME_NO_CLAIM, "your opponent has left: claim in %d s",
                        (int)((claim_at - now + 999) / 1000));
    return svc_finish(g, draw ? abandoned_draw : abandoned_win, side ^ 1, now, call);
}

GameStatus service_claim(LiveGame *g, GameCall *call, bool draw)
{
    svc_lock(g);
    int64_t now = util_now_ms();
    GameStatus status;
    int side = svc_player(g, call, false, &status);
    if (status == GAME_OK && (status = svc_still_going(g, now, call)) == GAME_OK)
        status = claim_locked(g, call, side, draw, now);
    pthread_mutex_unlock(&g->lock);
    return status;
}
