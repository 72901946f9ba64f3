#include "game_service.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/movegen.h"
#include "../core/pgn.h"
#include "game_change.h"
#include "game_table.h"
#include "util.h"

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
    int n, found = store_load(svc_store, id, &row, &moves, &n);
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
        GameState st = svc_state_of(g);
        store_set_state(svc_store, g->id, g->game.n, &st);
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
    svc_want_engine_move(g);
    pthread_mutex_unlock(&g->lock);
    return g;
}

/* Loads the unfinished games that are not in memory yet; how many, or -1 on an error. */
static int load_unfinished(void)
{
    StoreId *ids;
    int n;
    if (!store_load_unfinished(svc_store, &ids, &n))
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
    svc_refresh(g);
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
    if (store_shared(svc_store) && !svc_store->ops->watch(svc_store, changed_elsewhere, NULL))
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
    LiveGame *g = NULL; /* a finished game from an earlier run, or one evicted */
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

bool service_list(const ListQuery *q, ListRow **rows, int *n)
{
    return store_list(svc_store, q, rows, n);
}

/* For table_each: a flag that fell, an engine move that could not be asked for (memory ran
 * out) and is asked for again. */
static void look_at_clock(LiveGame *g, void *ctx)
{
    const int64_t *now = ctx;
    pthread_mutex_lock(&g->lock);
    svc_flag_fell(g, *now);
    svc_want_engine_move(g);
    pthread_mutex_unlock(&g->lock);
}

/* For table_each: an account closed (ctx: its id) shows as closed in g. */
static void mark_closed(LiveGame *g, void *ctx)
{
    pthread_mutex_lock(&g->lock);
    bool changed = false;
    for (int side = 0; side < 2; side++)
        if (strcmp(g->seat[side].user, ctx) == 0 && !g->seat[side].closed)
            changed = g->seat[side].closed = true;
    if (changed)
        svc_tell_changed(g);
    pthread_mutex_unlock(&g->lock);
}

void service_account_closed(const char *user_id)
{
    table_each(mark_closed, (void *)user_id);
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
        if (!store_id_taken(svc_store, g->id))
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
    StoreResult stored = status == GAME_OK ? store_insert_game(svc_store, &row, rows, n, o->rematch_of) : STORE_OK;
    if (stored == STORE_UNKNOWN)
        stored = svc_stored_or_not(g);
    if (stored == STORE_CONFLICT)
        status = svc_fail(call, GAME_CONFLICT, "game %s has a rematch already", o->rematch_of);
    else if (stored != STORE_OK)
        status = svc_stored_status(status, stored, g, "game", call);
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
    svc_want_engine_move(g);
    pthread_mutex_unlock(&g->lock);
    service_release(g);
    return GAME_OK;
}

/* ---- Actions ------------------------------------------------------------------------------ */

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
    return svc_play(g, m, now, call, side);
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
    if (todo && store_shared(svc_store)) /* the process that claims the move searches it */
        todo = t->claimed = svc_store->ops->claim(svc_store, g->id, g->game.n);
    if (todo) {
        t->skill = g->skill;
        t->movetime_ms = engine_movetime(g, now);
        todo = svc_copy_game(g, &t->game);
        if (!todo && t->claimed)
            svc_store->ops->unclaim(svc_store, g->id, g->game.n);
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
        else if (svc_play(g, best, now, &call, -1) != GAME_OK)
            fprintf(stderr, "starfish: game %s: %s\n", g->id, call.message);
    } else if (best != MOVE_NONE && g->result == RESULT_NONE) { /* a takeback, or another process's move */
        fprintf(stderr, "starfish: game %s: the game moved on while the engine searched ply %d: dropped\n", g->id,
                t->game.n);
    }
    if (t->claimed)
        svc_store->ops->unclaim(svc_store, g->id, t->game.n);
    pthread_mutex_unlock(&g->lock);
}
