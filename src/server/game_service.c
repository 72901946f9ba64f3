#include "game_service.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/movegen.h"
#include "../core/pgn.h"
#include "game_change.h"
#include "game_table.h"
#include "util.h"

#define OBSERVERS_MAX 4

static Store *store;
static GameObserver observers[OBSERVERS_MAX];
static int nobservers;


void service_start(Store *s)
{
    store = s;
}

/* Do other processes share the store? */
static bool shared(void)
{
    return store->ops->watch != NULL;
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

static void want_engine_move(LiveGame *g)
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

/* ---- The store's version of a game (g's lock held) ----------------------------------------- */

/* Has the stored game other moves (a takeback and new moves may leave their number) or
 * another state than g? */
static bool differs(const LiveGame *g, const GameRow *row, const MoveRow *moves, int n)
{
    if (n != g->game.n || strcmp(row->result, result_text(g->result)) != 0 || row->draw_offer != g->draw_offer ||
        row->takeback_offer != g->takeback_offer || row->rematch_offer != g->rematch_offer ||
        strcmp(row->rematch_id, g->rematch_id) != 0 || memcmp(row->joined, g->joined, sizeof row->joined) != 0)
        return true;
    for (int i = 0; i < n; i++)
        if (strcmp(moves[i].move, g->uci[i]) != 0)
            return true;
    return false;
}

/* When other processes share the store, brings g up to date with it; the observers hear of
 * a change as of this process's own.  (A store that fails leaves g as it is: a change then
 * fails in the store.) */
static void refresh(LiveGame *g)
{
    GameRow row;
    MoveRow *moves;
    int n;
    if (!shared() || store_load(store, g->id, &row, &moves, &n) != 1)
        return;
    if (differs(g, &row, moves, n)) {
        char err[256];
        LiveGame *fresh = live_from_row(&row, moves, n, err, sizeof err);
        if (fresh) {
            live_exchange(g, fresh);
            live_free(fresh);
            svc_tell_changed(g);
            want_engine_move(g);
        } else {
            fprintf(stderr, "starfish: game %s cannot be read again: %s\n", g->id, err);
        }
    }
    free(moves);
}

void svc_lock(LiveGame *g)
{
    pthread_mutex_lock(&g->lock);
    refresh(g);
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
}

static GameState state_of(const LiveGame *g)
{
    GameState s = {result_text(g->result), g->result != RESULT_NONE ? g->reason : NULL,
                   g->result != RESULT_NONE ? g->ended_ms : 0, g->draw_offer, g->takeback_offer, g->rematch_offer,
                   {g->joined[WHITE], g->joined[BLACK]}};
    return s;
}

/* Stores a change made since `before`: a move, a takeback (fewer moves) or the state alone. */
static StoreResult store_change(const LiveGame *g, const Saved *before, const MoveRow *move)
{
    GameState st = state_of(g);
    if (move)
        return store_append_move(store, g->id, before->n, move, &st);
    if (g->game.n < before->n)
        return store_take_back(store, g->id, before->n, g->game.n, &st);
    return store_set_state(store, g->id, before->n, &st);
}

/* After a commit whose answer was lost: does the store hold g as it is now (the change made)?
 * STORE_OK when it does, STORE_FAILED when it holds something else, STORE_UNKNOWN when it
 * cannot be read (after a few tries: memory may be short). */
static StoreResult stored_or_not(const LiveGame *g)
{
    for (int attempt = 0; attempt < 5; attempt++) {
        GameRow row;
        MoveRow *moves;
        int n, found = store_load(store, g->id, &row, &moves, &n);
        bool same = found == 1 && !differs(g, &row, moves, n);
        free(moves);
        if (found >= 0)
            return same ? STORE_OK : STORE_FAILED;
    }
    return STORE_UNKNOWN;
}

/* The status of a change after the store's answer (when the change got that far). */
static GameStatus stored_status(GameStatus status, StoreResult stored, const LiveGame *g, const char *what,
                                GameCall *call)
{
    if (stored == STORE_FAILED)
        return svc_fail(call, GAME_STORE_FAILED, "the %s could not be stored", what);
    if (stored == STORE_UNKNOWN)
        return svc_fail(call, GAME_STORE_FAILED, "the %s may or may not have been stored (the database's answer "
                        "was lost): read the game again", what);
    if (stored == STORE_CONFLICT)
        return svc_fail(call, GAME_CONFLICT, "game %s changed meanwhile (through another server): the %s was not made",
                    g->id, what);
    return status;
}

/*
 * The caller reads the game after the change (its answer), then the store takes the change;
 * when either fails, the change is undone.  Then the observers are told, and the engine is
 * asked for its move when it is its turn.
 */
GameStatus svc_settle(LiveGame *g, const Saved *before, const MoveRow *move, const char *what, GameCall *call, int you)
{
    GameStatus status = svc_done(g, call, you);
    StoreResult stored = status == GAME_OK ? store_change(g, before, move) : STORE_OK;
    if (stored == STORE_UNKNOWN)
        stored = stored_or_not(g);
    status = stored_status(status, stored, g, what, call);
    if (status != GAME_OK) {
        restore(g, before);
        if (stored == STORE_CONFLICT || stored == STORE_UNKNOWN)
            refresh(g);
        return status;
    }
    svc_tell_changed(g);
    want_engine_move(g);
    return GAME_OK;
}

/* Plays a legal move for the side to move. */
static GameStatus commit_move(LiveGame *g, Move m, int64_t now, GameCall *call, int you)
{
    Saved before = svc_save(g);
    int side = g->game.pos.side;
    MoveRow row;
    move_to_text(&g->game.pos, m, row.move);
    row.clock_ms = g->has_clock ? g->left[side] - (now - g->turn_start_ms) + g->inc_ms : -1;
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

/* ---- The games in memory ------------------------------------------------------------------ */

void service_hold(LiveGame *g)
{
    table_hold(g);
}

void service_release(LiveGame *g)
{
    table_release(g);
}

/* A game from the store, brought up to date with the rules, in *out. */
static GameStatus load(const char *id, LiveGame **out, GameCall *call)
{
    GameRow row;
    MoveRow *moves;
    int n, found = store_load(store, id, &row, &moves, &n);
    if (found <= 0)
        return found == 0 ? svc_fail(call, GAME_NOT_FOUND, "unknown game '%s'", id)
                          : svc_fail(call, GAME_STORE_FAILED, "game %s cannot be read from the store", id);
    char err[256];
    LiveGame *g = live_from_row(&row, moves, n, err, sizeof err);
    free(moves);
    if (!g) {
        if (util_out_of_memory(err))
            return svc_fail(call, GAME_NO_MEMORY, "out of memory");
        fprintf(stderr, "starfish: game %s cannot be loaded: %s\n", id, err);
        return svc_fail(call, GAME_BAD_RECORD, "game %s cannot be loaded: %s", id, err);
    }
    GameResult r = game_status(&g->game);
    if (g->result == RESULT_NONE && r.kind != RESULT_NONE) { /* the rules now end it: record that */
        live_set_result(g, r);
        g->ended_ms = g->turn_start_ms;
        g->draw_offer = -1;
        GameState st = state_of(g);
        store_set_state(store, g->id, g->game.n, &st);
    }
    *out = g;
    return GAME_OK;
}

/* Puts a loaded game in the table (or takes the one another thread put there meanwhile)
 * and asks for the engine's move if it is due; returns the game, with a reference. */
static LiveGame *adopt(LiveGame *loaded)
{
    LiveGame *g = table_add(loaded);
    if (g != loaded) {
        live_free(loaded);
        return g;
    }
    pthread_mutex_lock(&g->lock);
    svc_flag_fell(g, util_now_ms()); /* it may have fallen while the game was out of memory */
    want_engine_move(g);
    pthread_mutex_unlock(&g->lock);
    return g;
}

/* Loads the unfinished games that are not in memory yet; how many, or -1 on an error. */
static int load_unfinished(void)
{
    StoreId *ids;
    int n;
    if (!store_load_unfinished(store, &ids, &n))
        return -1;
    int loaded = 0;
    for (int i = 0; i < n; i++) {
        LiveGame *g = table_find(ids[i]);
        GameCall call = {0};
        if (!g && load(ids[i], &g, &call) == GAME_OK) {
            g = adopt(g);
            loaded++;
        }
        if (g)
            service_release(g);
    }
    free(ids);
    return loaded;
}

/* For table_each: a game brought up to date with the store. */
static void refresh_one(LiveGame *g, void *ctx)
{
    (void)ctx;
    pthread_mutex_lock(&g->lock);
    refresh(g);
    pthread_mutex_unlock(&g->lock);
}

/* The store's news: another process changed or created game id (NULL: any game, news may
 * have been lost).  A game in memory is brought up to date, a new one that goes on is loaded
 * (so that this process can continue it should the other one end). */
static void changed_elsewhere(void *ctx, const char *id)
{
    (void)ctx;
    if (!id) {
        table_each(refresh_one, NULL);
        load_unfinished();
        return;
    }
    LiveGame *g = table_find(id);
    if (g) {
        refresh_one(g, NULL);
        service_release(g);
        return;
    }
    GameCall call = {0};
    if (load(id, &g, &call) != GAME_OK)
        return;
    if (g->result == RESULT_NONE)
        service_release(adopt(g));
    else
        live_free(g);
}

int service_load_unfinished(void)
{
    if (shared() && !store->ops->watch(store, changed_elsewhere, NULL))
        return -1;
    return load_unfinished();
}

GameStatus service_find(const char *id, LiveGame **out, GameCall *call)
{
    size_t len = strlen(id);
    if (len == 0 || len > STORE_ID_MAX || strspn(id, ID_ALPHABET) != len)
        return svc_fail(call, GAME_NOT_FOUND, "unknown game '%s'", id);
    *out = table_find(id);
    if (*out)
        return GAME_OK;
    LiveGame *g; /* a finished game from an earlier run, or one evicted */
    GameStatus status = load(id, &g, call);
    if (status == GAME_OK)
        *out = adopt(g);
    return status;
}

void service_free_all(void)
{
    table_free_all();
}

/* Whether g can go: it is over and idle long enough.  A queued engine job would hold a
 * reference; it is checked as well so that a missing reference keeps a game rather than
 * freeing one in use. */
static bool idle_and_over(const LiveGame *g, void *ctx)
{
    const int64_t *limits = ctx; /* now, idle_ms */
    return g->result != RESULT_NONE && !g->engine_queued && limits[0] - atomic_load(&g->used_ms) >= limits[1];
}

int service_evict(int64_t idle_ms)
{
    int64_t limits[2] = {clock_ms(), idle_ms};
    return table_evict(idle_and_over, limits);
}

int service_count(void)
{
    return table_size();
}

bool service_list(int limit, ListRow **rows, int *n)
{
    return store_list(store, limit, rows, n);
}

/* For table_each: a flag that fell, an engine move that could not be asked for (memory ran
 * out) and is asked for again. */
static void look_at_clock(LiveGame *g, void *ctx)
{
    const int64_t *now = ctx;
    pthread_mutex_lock(&g->lock);
    svc_flag_fell(g, *now);
    want_engine_move(g);
    pthread_mutex_unlock(&g->lock);
}

void service_check_flags(void)
{
    int64_t now = util_now_ms();
    table_each(look_at_clock, &now);
}

/* ---- Creating ----------------------------------------------------------------------------- */

/* A fresh id for g: one the store does not have (every game in memory is in the store). */
static GameStatus fresh_id(LiveGame *g, GameCall *call)
{
    for (int attempt = 0; attempt < 16; attempt++) {
        if (!util_random_string(g->id, GAME_ID_LEN, ID_ALPHABET))
            return svc_fail(call, GAME_NO_RANDOM, "no random numbers");
        if (!store_id_taken(store, g->id))
            return GAME_OK;
    }
    return svc_fail(call, GAME_STORE_FAILED, "no free game id");
}

/* Gives g its id, lets the caller read it (as its creator), stores it and adds it to the
 * table, with a reference for the caller.  The store's key keeps the id unique should two
 * new games draw the same one. */
static GameStatus store_new(LiveGame *g, const MoveRow *rows, int n, GameCall *call, const GameOptions *o)
{
    GameStatus status = fresh_id(g, call);
    if (status == GAME_OK)
        status = svc_done(g, call, o->creator);
    GameRow row;
    live_to_row(g, &row);
    StoreResult stored = status == GAME_OK ? store_insert_game(store, &row, rows, n, o->rematch_of) : STORE_OK;
    if (stored == STORE_UNKNOWN)
        stored = stored_or_not(g);
    if (stored == STORE_CONFLICT)
        status = svc_fail(call, GAME_CONFLICT, "game %s has a rematch already", o->rematch_of);
    else if (stored != STORE_OK)
        status = stored_status(status, stored, g, "game", call);
    if (status == GAME_OK)
        table_add(g);
    return status;
}

GameStatus service_create(const GameOptions *o, Game *initial, GameCall *call)
{
    int n = initial->n;
    LiveGame *g = live_new();
    MoveRow *rows = calloc((size_t)n + 1, sizeof *rows);
    GameStatus status = g && rows && live_start(g, o, initial, rows, util_now_ms())
                            ? GAME_OK
                            : svc_fail(call, GAME_NO_MEMORY, "out of memory");
    for (int side = 0; side < 2 && status == GAME_OK; side++) {
        if (o->tokens[side])
            snprintf(g->token[side], sizeof g->token[side], "%s", o->tokens[side]);
        else if (!util_random_string(g->token[side], TOKEN_LEN, TOKEN_ALPHABET))
            status = svc_fail(call, GAME_NO_RANDOM, "no random numbers");
    }
    if (status == GAME_OK)
        status = store_new(g, rows, n, call, o);
    free(rows);
    game_free(initial);
    if (status != GAME_OK) {
        if (g)
            live_free(g);
        return status;
    }
    pthread_mutex_lock(&g->lock);
    want_engine_move(g);
    pthread_mutex_unlock(&g->lock);
    service_release(g);
    return GAME_OK;
}

/* ---- Actions ------------------------------------------------------------------------------ */

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

int svc_player(LiveGame *g, GameCall *call, bool optional, GameStatus *status)
{
    bool given = call->token && *call->token;
    int side = side_of_token(g, call->token);
    *status = GAME_OK;
    if (!given && !optional)
        *status = svc_fail(call, GAME_NOT_A_PLAYER, "missing token: only the players may do this");
    else if (given && side < 0)
        *status = svc_fail(call, GAME_NOT_A_PLAYER, "wrong token for game %s", g->id);
    return side;
}

GameStatus svc_still_going(LiveGame *g, int64_t now, GameCall *call)
{
    svc_flag_fell(g, now);
    if (g->result == RESULT_NONE)
        return GAME_OK;
    return svc_fail(call, GAME_OVER, "the game is over (%s, %s)", result_text(g->result), g->reason);
}

GameStatus service_read(LiveGame *g, GameCall *call)
{
    svc_lock(g);
    svc_flag_fell(g, util_now_ms());
    GameStatus status;
    int side = svc_player(g, call, true, &status);
    /* A player's first read: their opponent learns that they have come (the invite is done).
     * Should that not be stored, the next read tries again. */
    if (status == GAME_OK && side >= 0 && !g->joined[side]) {
        Saved before = svc_save(g);
        GameCall arrival = {0};
        g->joined[side] = true;
        svc_settle(g, &before, NULL, "arrival", &arrival, side);
    }
    if (status == GAME_OK)
        status = svc_done(g, call, side);
    pthread_mutex_unlock(&g->lock);
    return status;
}

static GameStatus move_locked(LiveGame *g, GameCall *call, const char *text)
{
    int64_t now = util_now_ms();
    GameStatus status;
    int side = svc_player(g, call, false, &status);
    if (status != GAME_OK || (status = svc_still_going(g, now, call)) != GAME_OK)
        return status;
    if (side != g->game.pos.side)
        return svc_fail(call, GAME_NOT_YOUR_TURN, "not your turn: %s is to move", side_name(g->game.pos.side));
    char why[160];
    Move m = parse_move(&g->game.pos, text, why, sizeof why);
    if (m == MOVE_NONE)
        return svc_fail(call, GAME_ILLEGAL_MOVE, "%s", why);
    return commit_move(g, m, now, call, side);
}

GameStatus service_move(LiveGame *g, GameCall *call, const char *move_text)
{
    svc_lock(g);
    GameStatus status = move_locked(g, call, move_text);
    pthread_mutex_unlock(&g->lock);
    return status;
}

GameStatus service_resign(LiveGame *g, GameCall *call)
{
    svc_lock(g);
    int64_t now = util_now_ms();
    GameStatus status;
    int side = svc_player(g, call, false, &status);
    if (status == GAME_OK && (status = svc_still_going(g, now, call)) == GAME_OK)
        status = svc_finish(g, game_resign, side, now, call);
    pthread_mutex_unlock(&g->lock);
    return status;
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

void game_copy_free(GameCopy *c)
{
    free(c->moves);
    c->moves = NULL;
}

char *service_pgn(LiveGame *g)
{
    char event[64];
    snprintf(event, sizeof event, "starfish game %s", g->id);
    Text pgn = {0};
    svc_lock(g);
    svc_flag_fell(g, util_now_ms());
    if (!game_pgn(&g->game, &(PgnTags){.event = event}, &pgn))
        text_free(&pgn);
    pthread_mutex_unlock(&g->lock);
    return text_take(&pgn);
}

/* ---- The engine's moves ------------------------------------------------------------------- */

/* Skill 0..20 -> 100..1500 ms, within what the engine's clock allows. */
static int engine_movetime(const LiveGame *g, int64_t now)
{
    int ms = 100 + g->skill * 70;
    if (g->has_clock) {
        int64_t left = g->left[g->game.pos.side] - (now - g->turn_start_ms);
        int64_t budget = left / 20 + g->inc_ms * 3 / 4;
        if (budget > left / 2)
            budget = left / 2;
        if (budget < 10)
            budget = 10;
        if (budget < ms)
            ms = (int)budget;
    }
    return ms;
}

bool service_engine_task(LiveGame *g, EngineTask *t)
{
    svc_lock(g);
    int64_t now = util_now_ms();
    bool todo = !svc_flag_fell(g, now) && g->result == RESULT_NONE && g->engine[g->game.pos.side];
    t->claimed = false;
    if (todo && shared()) /* the process that claims the move searches it */
        todo = t->claimed = store->ops->claim(store, g->id, g->game.n);
    if (todo) {
        t->skill = g->skill;
        t->movetime_ms = engine_movetime(g, now);
        todo = svc_copy_game(g, &t->game);
        if (!todo && t->claimed)
            store->ops->unclaim(store, g->id, g->game.n);
    }
    if (!todo) /* asked for again by the clock thread while the engine is to move */
        g->engine_queued = false;
    pthread_mutex_unlock(&g->lock);
    return todo;
}

void service_engine_reply(LiveGame *g, const EngineTask *t, Move best)
{
    svc_lock(g);
    g->engine_queued = false;
    int64_t now = util_now_ms();
    bool same = g->game.n == t->game.n && !memcmp(g->game.moves, t->game.moves, sizeof *t->game.moves * (size_t)t->game.n);
    if (best != MOVE_NONE && !svc_flag_fell(g, now) && g->result == RESULT_NONE && same && g->engine[g->game.pos.side]) {
        /* The move is checked again against the rules core's legal moves before it is played. */
        Move legal[MAX_MOVES];
        int n = gen_legal(&g->game.pos, legal), i = 0;
        while (i < n && legal[i] != best)
            i++;
        GameCall call = {0};
        if (i == n)
            fprintf(stderr, "starfish: game %s: the engine found no legal move\n", g->id);
        else if (commit_move(g, best, now, &call, -1) != GAME_OK)
            fprintf(stderr, "starfish: game %s: %s\n", g->id, call.message);
    } else if (best != MOVE_NONE && g->result == RESULT_NONE) { /* a takeback, or another process's move */
        fprintf(stderr, "starfish: game %s: the game moved on while the engine searched ply %d: dropped\n", g->id,
                t->game.n);
    }
    if (t->claimed)
        store->ops->unclaim(store, g->id, t->game.n);
    pthread_mutex_unlock(&g->lock);
}
