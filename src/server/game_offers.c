/*
 * The players' offers to each other, a part of the game service (game_service.h): draws
 * (the engine asked when it plays the other side), takebacks and rematches.  Each offer is
 * stored with the game, so that every server process sharing the store knows it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account_service.h"
#include "game_change.h"
#include "game_service.h"
#include "util.h"

#define DRAW_ASKS_MAX 3

enum { OFFER, ACCEPT, DECLINE };

/* Stands or withdraws (-1) an offer (one of g's: draw, takeback or rematch); `what` for the
 * message. */
static GameStatus set_offer(LiveGame *g, int *offer, int value, const char *what, GameCall *call, int you)
{
    Saved before = svc_save(g);
    *offer = value;
    return svc_settle(g, &before, NULL, what, call, you);
}

/* "offer", "accept" or "decline" -> OFFER, ACCEPT, DECLINE; -1 for anything else. */
static int offer_action(const char *action)
{
    static const char *const names[] = {"offer", "accept", "decline"};
    for (int i = 0; i < 3; i++)
        if (strcmp(action, names[i]) == 0)
            return i;
    return -1;
}

/* An offer to the engine: the question for it, about the game as it is now. */
static GameStatus ask_engine(LiveGame *g, GameCall *call, int side, DrawQuestion *q)
{
    game_copy_free(&q->game);
    if (!svc_copy_game(g, &q->game))
        return svc_fail(call, GAME_NO_MEMORY, "out of memory");
    q->engine_side = side ^ 1;
    q->asked++;
    return GAME_ENGINE_DECIDES;
}

static GameStatus draw_locked(LiveGame *g, GameCall *call, const char *action, DrawQuestion *q)
{
    GameStatus status;
    int side = svc_player(g, call, false, &status);
    if (status != GAME_OK || (status = svc_still_going(g, util_now_ms(), call)) != GAME_OK)
        return status;
    int other = side ^ 1, act = offer_action(action);
    bool offer = act == OFFER, accept = act == ACCEPT;
    if (act < 0)
        return svc_fail(call, GAME_BAD_ACTION, "action must be \"offer\", \"accept\" or \"decline\"");
    if (!offer && g->draw_offer != other)
        return svc_fail(call, GAME_NO_DRAW_OFFER, "there is no draw offer from %s to %s", side_name(other),
                    accept ? "accept" : "decline");
    if (accept || (offer && g->draw_offer == other)) /* offering back is accepting */
        return svc_finish(g, NULL, side, util_now_ms(), call);
    if (!offer)
        return set_offer(g, &g->draw_offer, -1, "answer", call, side);
    if (g->draw_offer == side) /* offered already */
        return svc_done(g, call, side);
    if (g->engine[other])
        return ask_engine(g, call, side, q);
    return set_offer(g, &g->draw_offer, side, "offer", call, side);
}

GameStatus service_draw(LiveGame *g, GameCall *call, const char *action, DrawQuestion *q)
{
    svc_lock(g);
    q->asked = 0;
    q->game.moves = NULL;
    GameStatus status = draw_locked(g, call, action, q);
    pthread_mutex_unlock(&g->lock);
    return status;
}

static GameStatus draw_answer_locked(LiveGame *g, GameCall *call, DrawQuestion *q, bool accepted)
{
    GameStatus status;
    int side = svc_player(g, call, false, &status);
    if (status != GAME_OK || (status = svc_still_going(g, util_now_ms(), call)) != GAME_OK)
        return status;
    if (g->game.n != q->game.n) /* the engine moved meanwhile: think again about the new position */
        return q->asked < DRAW_ASKS_MAX ? ask_engine(g, call, side, q) : svc_done(g, call, side);
    if (!accepted) /* declined: the offer never stood, nothing changes */
        return svc_done(g, call, side);
    return svc_finish(g, NULL, side, util_now_ms(), call);
}

GameStatus service_draw_answer(LiveGame *g, GameCall *call, DrawQuestion *q, bool accepted)
{
    svc_lock(g);
    GameStatus status = draw_answer_locked(g, call, q, accepted);
    pthread_mutex_unlock(&g->lock);
    return status;
}

/* ---- Takebacks and rematches -------------------------------------------------------------- */

/* How many moves to take back so that `side`'s last move is gone: its move, and the
 * opponent's reply when there is one; 0 when it has none. */
static int takeback_plies(const LiveGame *g, int side)
{
    int plies = g->game.pos.side == side ? 2 : 1;
    return g->game.n >= plies ? plies : 0;
}

/* Takes back `plies` moves: undone in memory, read, stored as their removal (or redone when
 * either fails).  Time spent stays spent: the clock that ran is charged, then the side to move
 * starts its turn now. */
static GameStatus take_back(LiveGame *g, int plies, GameCall *call, int you)
{
    Saved before = svc_save(g);
    int64_t now = util_now_ms();
    if (g->has_clock)
        g->left[g->game.pos.side] -= now - g->turn_start_ms;
    for (int i = 0; i < plies; i++)
        game_undo(&g->game);
    g->turn_start_ms = now;
    g->draw_offer = g->takeback_offer = -1;
    return svc_settle(g, &before, NULL, "takeback", call, you);
}

static GameStatus takeback_locked(LiveGame *g, GameCall *call, const char *action)
{
    GameStatus status;
    int side = svc_player(g, call, false, &status);
    if (status != GAME_OK || (status = svc_still_going(g, util_now_ms(), call)) != GAME_OK)
        return status;
    int other = side ^ 1, act = offer_action(action);
    if (act < 0)
        return svc_fail(call, GAME_BAD_ACTION, "action must be \"offer\", \"accept\" or \"decline\"");
    if (act != OFFER && g->takeback_offer != other)
        return svc_fail(call, GAME_NO_OFFER, "there is no takeback offer from %s to answer", side_name(other));
    if (act == DECLINE)
        return set_offer(g, &g->takeback_offer, -1, "answer", call, side);
    int asker = act == ACCEPT || g->takeback_offer == other ? other : side;
    int plies = takeback_plies(g, asker);
    if (!plies)
        return svc_fail(call, GAME_NO_TAKEBACK, "%s has no move to take back", side_name(asker));
    if (asker == other) /* accepted, or asked for back at the same time */
        return take_back(g, plies, call, side);
    if (g->engine[other]) {
        if (g->has_clock)
            return svc_fail(call, GAME_NO_TAKEBACK, "the engine takes back moves only in games without a clock");
        return take_back(g, plies, call, side);
    }
    return g->takeback_offer == side ? svc_done(g, call, side)
                                     : set_offer(g, &g->takeback_offer, side, "offer", call, side);
}

GameStatus service_takeback(LiveGame *g, GameCall *call, const char *action)
{
    svc_lock(g);
    GameStatus status = takeback_locked(g, call, action);
    pthread_mutex_unlock(&g->lock);
    return status;
}

/* Decides on a rematch (g's lock held); *make when the new game is to be made. */
static GameStatus rematch_locked(LiveGame *g, GameCall *call, const char *action, int *side, bool *make)
{
    GameStatus status;
    *side = svc_player(g, call, false, &status);
    if (status != GAME_OK)
        return status;
    svc_flag_fell(g, util_now_ms());
    if (g->result == RESULT_NONE)
        return svc_fail(call, GAME_NOT_OVER, "the game is not over: a rematch comes after it");
    int other = *side ^ 1, act = offer_action(action);
    if (act < 0)
        return svc_fail(call, GAME_BAD_ACTION, "action must be \"offer\", \"accept\" or \"decline\"");
    if (g->rematch_id[0] || g->rematch_making) /* made, or being made */
        return svc_done(g, call, *side);
    if (act != OFFER && g->rematch_offer != other)
        return svc_fail(call, GAME_NO_OFFER, "there is no rematch offer from %s to answer", side_name(other));
    if (act == DECLINE)
        return set_offer(g, &g->rematch_offer, -1, "answer", call, *side);
    if (act == ACCEPT || g->rematch_offer == other || g->engine[other]) {
        g->rematch_making = *make = true;
        return GAME_OK;
    }
    return g->rematch_offer == *side ? svc_done(g, call, *side)
                                     : set_offer(g, &g->rematch_offer, *side, "offer", call, *side);
}

/* What a rematch is made from, copied under the old game's lock. */
typedef struct RematchOf {
    GameOptions o;
    char tokens[2][TOKEN_LEN + 1], start_fen[FEN_MAX], of[GAME_ID_LEN + 1];
} RematchOf;

/* The rematch's options: colours swapped, each player keeping its token (g's lock held). */
static void rematch_options(const LiveGame *g, RematchOf *r)
{
    int human = g->engine[WHITE] ? BLACK : WHITE; /* the side the creator played */
    memcpy(r->of, g->id, sizeof r->of);
    r->o = (GameOptions){.v = g->v, .engine_opponent = g->engine[human ^ 1], .creator = human ^ 1, .skill = g->skill,
                         .has_clock = g->has_clock, .base_ms = g->base_ms, .inc_ms = g->inc_ms, .days = g->days,
                         .rematch_of = r->of, .rated = g->rated};
    for (int s = 0; s < 2; s++) {
        memcpy(r->tokens[s ^ 1], g->token[s], sizeof r->tokens[0]);
        r->o.tokens[s ^ 1] = r->tokens[s ^ 1];
        r->o.seat[s ^ 1] = g->seat[s];
    }
    strcpy(r->start_fen, g->game.start_fen);
}

/* A GameCall's read for the new game: its id. */
static bool read_id(void *ctx, LiveGame *g, int you)
{
    (void)you;
    memcpy(ctx, g->id, sizeof g->id);
    return true;
}

/* Makes the rematch (without g's lock: the table's lock comes before a game's); its id in id.
 * The store makes it g's rematch in the same transaction, unless another server process made
 * one first (GAME_CONFLICT). */
static GameStatus make_rematch(const RematchOf *r, char *id, GameCall *call)
{
    Game initial = {0};
    char why[200];
    GameCall made = {.read = read_id, .ctx = id};
    GameOptions o = r->o;
    for (int s = 0; s < 2; s++) { /* the accounts' ratings as they are now */
        AccountReply reply = {0};
        if (o.seat[s].user[0] && account_rate_seat(&o.seat[s], o.v->def->name, &reply) != ACCOUNT_OK)
            return svc_fail(call, GAME_STORE_FAILED, "%s", reply.message);
    }
    if (!game_init(&initial, r->o.v, r->start_fen, why, sizeof why)) {
        game_free(&initial);
        return svc_fail(call, GAME_NO_MEMORY, "out of memory");
    }
    GameStatus status = service_create(&o, &initial, &made);
    if (status != GAME_OK)
        snprintf(call->message, sizeof call->message, "%s", made.message);
    return status;
}

GameStatus service_rematch(LiveGame *g, GameCall *call, const char *action)
{
    RematchOf r;
    char id[GAME_ID_LEN + 1] = "";
    bool make = false;
    int side;
    svc_lock(g);
    GameStatus status = rematch_locked(g, call, action, &side, &make);
    if (make)
        rematch_options(g, &r);
    pthread_mutex_unlock(&g->lock);
    if (!make)
        return status;
    status = make_rematch(&r, id, call);
    svc_lock(g); /* after a conflict, the other process's rematch comes with the game read again */
    g->rematch_making = false;
    if (status == GAME_OK) {
        memcpy(g->rematch_id, id, sizeof g->rematch_id);
        g->rematch_offer = -1;
        svc_tell_changed(g);
    }
    if (status == GAME_OK || status == GAME_CONFLICT)
        status = svc_done(g, call, side);
    pthread_mutex_unlock(&g->lock);
    return status;
}
