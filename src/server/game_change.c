/*
 * The game service's changes (game_change.h): how one is made under the game's lock, stored
 * in one transaction and told to the observers, or undone; bringing a game up to date with
 * the store that other processes share; the checks every action makes first.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game_change.h"
#include "game_service.h"
#include "util.h"

#define OBSERVERS_MAX 8

Store *svc_store;
static GameObserver observers[OBSERVERS_MAX];
static int nobservers;

void service_start(Store *s)
{
    svc_store = s;
}

bool service_observe(const GameObserver *o)
{
    if (nobservers == OBSERVERS_MAX)
        return false;
    observers[nobservers++] = *o;
    return true;
}

/* ---- Telling the observers (g's lock held) ------------------------------------------------ */

void svc_tell_changed(LiveGame *g)
{
    for (int i = 0; i < nobservers; i++)
        if (observers[i].changed)
            observers[i].changed(observers[i].ctx, g);
}

void svc_tell_seated(LiveGame *g, int side)
{
    for (int i = 0; i < nobservers; i++)
        if (observers[i].seated)
            observers[i].seated(observers[i].ctx, g, side);
}

static void tell_finished(LiveGame *g)
{
    for (int i = 0; i < nobservers; i++)
        if (observers[i].finished)
            observers[i].finished(observers[i].ctx, g);
}

void svc_want_engine_move(LiveGame *g)
{
    if (g->result != RESULT_NONE || !g->engine[g->game.pos.side] || g->engine_queued)
        return;
    for (int i = 0; i < nobservers && !g->engine_queued; i++)
        if (observers[i].engine_to_move)
            g->engine_queued = observers[i].engine_to_move(observers[i].ctx, g);
}

GameStatus svc_fail(GameCall *call, GameStatus status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(call->message, sizeof call->message, fmt, ap);
    va_end(ap);
    return status;
}

GameStatus svc_done(LiveGame *g, GameCall *call, int you)
{
    if (call->read && !call->read(call->ctx, g, you))
        return svc_fail(call, GAME_NO_MEMORY, "out of memory");
    return GAME_OK;
}

/* ---- The svc_store's version of a game (g's lock held) ----------------------------------------- */

/* Do the stored seats name other accounts, ratings or changes than g's? */
static bool seats_differ(const SeatRow *stored, const SeatRow *seat)
{
    for (int side = 0; side < 2; side++)
        if (strcmp(stored[side].user, seat[side].user) != 0 || stored[side].rating != seat[side].rating ||
            stored[side].prov != seat[side].prov || stored[side].has_diff != seat[side].has_diff ||
            stored[side].diff != seat[side].diff || stored[side].closed != seat[side].closed)
            return true;
    return false;
}

/* Has the stored game other moves (a takeback and new moves may leave their number) or
 * another state than g? */
static bool differs(const LiveGame *g, const GameRow *row, const MoveRow *moves, int n)
{
    if (n != g->game.n || strcmp(row->result, live_result_text(g->result)) != 0 || row->draw_offer != g->draw_offer ||
        row->takeback_offer != g->takeback_offer || row->rematch_offer != g->rematch_offer ||
        strcmp(row->rematch_id, g->rematch_id) != 0 || memcmp(row->joined, g->joined, sizeof row->joined) != 0 ||
        seats_differ(row->seat, g->seat) || memcmp(row->berserk, g->berserk, sizeof row->berserk) != 0)
        return true;
    for (int i = 0; i < n; i++)
        if (strcmp(moves[i].move, g->uci[i]) != 0)
            return true;
    return false;
}

/* When other processes share the store, brings g up to date with it; the observers hear of
 * a change as of this process's own.  (A store that fails leaves g as it is: a change then
 * fails in the store.) */
/* Reads g again from the store if the store has it otherwise (g's lock held). */
static void reload(LiveGame *g)
{
    GameRow row;
    MoveRow *moves;
    int n;
    if (store_load(svc_store, g->id, &row, &moves, &n) != 1)
        return;
    if (differs(g, &row, moves, n)) {
        char err[256];
        LiveGame *fresh = live_from_row(&row, moves, n, err, sizeof err);
        if (fresh) {
            live_exchange(g, fresh);
            live_free(fresh);
            svc_tell_changed(g);
            svc_want_engine_move(g);
        } else {
            fprintf(stderr, "starfish: game %s cannot be read again: %s\n", g->id, err);
        }
    }
    free(moves);
}

void svc_refresh(LiveGame *g)
{
    if (store_shared(svc_store))
        reload(g);
}

void svc_lock(LiveGame *g)
{
    pthread_mutex_lock(&g->lock);
    svc_refresh(g);
}

/* ---- Changes (g's lock held) -------------------------------------------------------------- */

Saved svc_save(const LiveGame *g)
{
    Saved s = {.n = g->game.n, .ended = g->game.ended, .left = {g->left[WHITE], g->left[BLACK]},
               .turn_start_ms = g->turn_start_ms, .ended_ms = g->ended_ms, .result = g->result,
               .draw_offer = g->draw_offer, .takeback_offer = g->takeback_offer, .rematch_offer = g->rematch_offer};
    for (int i = 0; i < 2 && i < s.n; i++)
        s.last[1 - i] = g->game.moves[s.n - 1 - i];
    memcpy(s.reason, g->reason, sizeof s.reason);
    memcpy(s.joined, g->joined, sizeof s.joined);
    memcpy(s.seat, g->seat, sizeof s.seat);
    memcpy(s.berserk, g->berserk, sizeof s.berserk);
    return s;
}

static void restore(LiveGame *g, const Saved *s)
{
    while (g->game.n > s->n)
        game_undo(&g->game);
    while (g->game.n < s->n) /* taken back: played again (room for them is still there) */
        game_play(&g->game, s->last[2 - (s->n - g->game.n)]);
    g->game.ended = s->ended;
    g->left[WHITE] = s->left[WHITE];
    g->left[BLACK] = s->left[BLACK];
    g->turn_start_ms = s->turn_start_ms;
    g->ended_ms = s->ended_ms;
    g->result = s->result;
    memcpy(g->reason, s->reason, sizeof g->reason);
    g->draw_offer = s->draw_offer;
    g->takeback_offer = s->takeback_offer;
    g->rematch_offer = s->rematch_offer;
    memcpy(g->joined, s->joined, sizeof g->joined);
    memcpy(g->seat, s->seat, sizeof g->seat);
    memcpy(g->berserk, s->berserk, sizeof g->berserk);
}

GameState svc_state_of(const LiveGame *g)
{
    GameState s = {live_result_text(g->result), g->result != RESULT_NONE ? g->reason : NULL,
                   g->result != RESULT_NONE ? g->ended_ms : 0, g->draw_offer, g->takeback_offer, g->rematch_offer,
                   {g->joined[WHITE], g->joined[BLACK]}, g->seat, NULL, {g->berserk[WHITE], g->berserk[BLACK]}};
    return s;
}

/* Does the change since `before` end a rated game between two accounts?  (An aborted game
 * changes no rating.) */
static bool rated_end(const LiveGame *g, const Saved *before)
{
    return g->rated && before->result == RESULT_NONE && g->result != RESULT_NONE && g->result != RESULT_ABORTED &&
           g->seat[WHITE].user[0] && g->seat[BLACK].user[0];
}

/* Stores a change made since `before`: a move, a takeback (fewer moves) or the state alone;
 * a rated game's end with both accounts' new ratings (written into g's seats). */
static StoreResult save_change(LiveGame *g, const Saved *before, const MoveRow *move)
{
    GameState st = svc_state_of(g);
    RatedEnd rate = {g->v->def->name,
                     g->result == RESULT_WHITE_WINS ? 1 : g->result == RESULT_BLACK_WINS ? 0 : 0.5, g->ended_ms,
                     g->seat};
    if (rated_end(g, before))
        st.rate = &rate;
    if (move)
        return store_append_move(svc_store, g->id, before->n, move, &st);
    if (g->game.n < before->n)
        return store_take_back(svc_store, g->id, before->n, g->game.n, &st);
    return store_set_state(svc_store, g->id, before->n, &st);
}

/* After a commit whose answer was lost: does the store hold g as it is now (the change made)?
 * STORE_OK when it does, STORE_FAILED when it holds something else, STORE_UNKNOWN when it
 * cannot be read (after a few tries: memory may be short). */
StoreResult svc_stored_or_not(const LiveGame *g)
{
    for (int attempt = 0; attempt < 5; attempt++) {
        GameRow row;
        MoveRow *moves;
        int n, found = store_load(svc_store, g->id, &row, &moves, &n);
        bool same = found == 1 && !differs(g, &row, moves, n);
        free(moves);
        if (found >= 0)
            return same ? STORE_OK : STORE_FAILED;
    }
    return STORE_UNKNOWN;
}

/* The status of a change after the store's answer (when the change got that far). */
GameStatus svc_stored_status(GameStatus status, StoreResult stored, const LiveGame *g, const char *what,
                                GameCall *call)
{
    if (stored == STORE_FAILED)
        return svc_fail(call, GAME_STORE_FAILED, "the %s could not be stored", what);
    if (stored == STORE_UNKNOWN)
        return svc_fail(call, GAME_STORE_FAILED, "the %s may or may not have been stored (the database's answer "
                        "was lost): read the game again", what);
    if (stored == STORE_CONFLICT && !store_shared(svc_store)) /* an earlier change whose fate was unknown */
        return svc_fail(call, GAME_STORE_FAILED, "game %s was read again from the store: the %s was not made, "
                        "try again", g->id, what);
    if (stored == STORE_CONFLICT)
        return svc_fail(call, GAME_CONFLICT, "game %s changed meanwhile (through another server): the %s was not made",
                    g->id, what);
    return status;
}

/*
 * The caller reads the game after the change (its answer), then the store takes the change;
 * when either fails, the change is undone.  (A rated game's end is read again once stored, the
 * rating changes being the store's.)  Then the observers are told, and the engine is asked
 * for its move when it is its turn.
 */
GameStatus svc_settle(LiveGame *g, const Saved *before, const MoveRow *move, const char *what, GameCall *call, int you)
{
    GameStatus status = svc_done(g, call, you);
    StoreResult stored = status == GAME_OK ? save_change(g, before, move) : STORE_OK;
    if (stored == STORE_UNKNOWN)
        stored = svc_stored_or_not(g);
    status = svc_stored_status(status, stored, g, what, call);
    if (status != GAME_OK) {
        restore(g, before);
        if (stored == STORE_CONFLICT || stored == STORE_UNKNOWN) /* the store may have it otherwise */
            reload(g);
        return status;
    }
    if (rated_end(g, before)) /* the answer again, with the rating changes the store made */
        svc_done(g, call, you);
    svc_tell_changed(g);
    if (before->result == RESULT_NONE && g->result != RESULT_NONE)
        tell_finished(g);
    svc_want_engine_move(g);
    return GAME_OK;
}

/* Plays a legal move for the side to move. */
GameStatus svc_play(LiveGame *g, Move m, int64_t now, GameCall *call, int you)
{
    Saved before = svc_save(g);
    int side = g->game.pos.side;
    MoveRow row;
    move_to_text(&g->game.pos, m, row.move);
    row.clock_ms = g->has_clock ? live_clock_after_move(g, side, now) : -1;
    row.at_ms = now;
    if (!live_play(g, m))
        return svc_fail(call, GAME_NO_MEMORY, "out of memory");
    if (g->has_clock)
        g->left[side] = row.clock_ms;
    g->turn_start_ms = now;
    if (g->draw_offer == side) /* an offer stands until the opponent answers or the offerer moves */
        g->draw_offer = -1;
    g->takeback_offer = -1; /* a takeback offer, until the next move */
    GameResult r = game_status(&g->game);
    if (r.kind != RESULT_NONE) {
        live_set_result(g, r);
        g->ended_ms = now;
        g->draw_offer = -1;
    }
    return svc_settle(g, &before, &row, "move", call, you);
}

GameStatus svc_finish(LiveGame *g, void (*how)(Game *, int), int side, int64_t ended, GameCall *call)
{
    Saved before = svc_save(g);
    if (how)
        how(&g->game, side);
    else
        game_agree_draw(&g->game);
    live_set_result(g, game_status(&g->game));
    g->ended_ms = ended;
    g->draw_offer = g->takeback_offer = -1;
    return svc_settle(g, &before, NULL, "result", call, side);
}

/* The flag fell when the time ran out. */
bool svc_flag_fell(LiveGame *g, int64_t now)
{
    if (g->result != RESULT_NONE || !g->has_clock)
        return false;
    int side = g->game.pos.side;
    if (g->left[side] - (now - g->turn_start_ms) > 0)
        return false;
    GameCall call = {0};
    GameStatus status = svc_finish(g, game_timeout, side, g->turn_start_ms + g->left[side], &call);
    if (status != GAME_OK && status != GAME_CONFLICT) /* a conflict: another process stored it */
        fprintf(stderr, "starfish: game %s: %s\n", g->id, call.message);
    /* The clock thread may end a game that nobody holds: its idle time starts at its end. */
    atomic_store(&g->used_ms, clock_ms());
    return true;
}

/* ---- The players and the checks before an action (g's lock held) ------------------------- */

/* The side whose secret the token is, or -1. */
static int side_of_token(const LiveGame *g, const char *token)
{
    if (!token || !*token)
        return -1;
    for (int s = 0; s < 2; s++)
        if (!g->engine[s] && util_secret_equal(token, g->token[s]))
            return s;
    return -1;
}

/* The side whose seat the account holds, or -1. */
static int side_of_account(const LiveGame *g, const char *user)
{
    for (int s = 0; user && *user && s < 2; s++)
        if (strcmp(g->seat[s].user, user) == 0)
            return s;
    return -1;
}

/*
 * Who may act for a side: the account seated there (by its session or token), or, where no
 * account is, whoever holds the side's game token; in a rated game, only an account (its
 * invite is for joining).  A read names no side for a token it does not accept; an action
 * is refused.
 */
int svc_player(LiveGame *g, GameCall *call, bool optional, GameStatus *status)
{
    bool given = call->token && *call->token;
    int side = given ? side_of_token(g, call->token) : side_of_account(g, call->user);
    const char *seated = side >= 0 ? g->seat[side].user : "";
    *status = GAME_OK;
    if (given && side < 0)
        *status = svc_fail(call, GAME_NOT_A_PLAYER, "wrong token for game %s", g->id);
    else if (side >= 0 && *seated && (!call->user || strcmp(call->user, seated) != 0))
        *status = svc_fail(call, GAME_NOT_A_PLAYER, "%s plays %s in game %s: log in as them", g->seat[side].name,
                           side_name(side), g->id);
    else if (side >= 0 && !*seated && g->rated)
        *status = svc_fail(call, GAME_NOT_A_PLAYER, "game %s is rated: join it with an account first", g->id);
    else if (side < 0 && !optional)
        *status = svc_fail(call, GAME_NOT_A_PLAYER, call->user ? "your account does not play in game %s"
                                                               : "missing token: only the players may do this (game %s)",
                           g->id);
    if (*status == GAME_OK)
        return side;
    if (optional && side >= 0) /* a read by someone the side is not for: seen as a spectator */
        *status = GAME_OK;
    return -1;
}

GameStatus svc_still_going(LiveGame *g, int64_t now, GameCall *call)
{
    svc_flag_fell(g, now);
    if (g->result == RESULT_NONE)
        return GAME_OK;
    return svc_fail(call, GAME_OVER, "the game is over (%s, %s)", result_text(g->result), g->reason);
}

bool svc_copy_game(const LiveGame *g, GameCopy *c)
{
    c->v = g->v;
    strcpy(c->start_fen, g->game.start_fen);
    c->n = g->game.n;
    c->moves = malloc(sizeof *c->moves * ((size_t)c->n + 1));
    if (c->moves && c->n)
        memcpy(c->moves, g->game.moves, sizeof *c->moves * (size_t)c->n);
    return c->moves != NULL;
}
