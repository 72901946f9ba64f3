#include "lichess_json.h"

#include <stdint.h>
#include <string.h>

#include "../util/text.h"
#include "../variants/registry.h"
#include "util.h"

#define NO_CLOCK_MS INT32_MAX /* what lichess sends for a side without a clock */

const char *lichess_variant_key(const Variant *v)
{
    return strcmp(v->def->name, "chess") == 0 ? "standard" : v->def->name;
}

const Variant *lichess_variant(const char *key)
{
    return variant_by_name(strcmp(key, "standard") == 0 ? "chess" : key);
}

json_t *lichess_variant_json(const Variant *v)
{
    return json_pack("{s:s, s:s, s:s}", "key", lichess_variant_key(v), "name", v->def->title, "short", v->def->title);
}

/* lichess's estimate of a game's length: the base time and 40 increments, in seconds. */
const char *lichess_speed(bool has_clock, int64_t base_ms, int64_t inc_ms, int days)
{
    if (days > 0 || !has_clock)
        return "correspondence";
    int64_t estimate = (base_ms + 40 * inc_ms) / 1000;
    return estimate < 30 ? "ultraBullet" : estimate < 180 ? "bullet" : estimate < 480 ? "blitz"
                                         : estimate < 1500 ? "rapid"
                                                            : "classical";
}

static const char *speed_of(const LiveGame *g)
{
    return lichess_speed(g->has_clock, g->base_ms, g->inc_ms, g->days);
}

/* lichess's status of a game (its name and number) from our result and reason. */
static void status_of(const LiveGame *g, const char **name, int *id)
{
    static const struct {
        const char *reason, *name;
        int id;
    } by_reason[] = {
        {"aborted", "aborted", 25},      {"checkmate", "mate", 30},       {"resignation", "resign", 31},
        {"stalemate", "stalemate", 32},   {"timeout", "outoftime", 35},    {"agreement", "draw", 34},
        {"repetition", "draw", 34},       {"fifty-move", "draw", 34},      {"insufficient-material", "draw", 34},
        {"dead-position", "draw", 34},    {"abandoned", "timeout", 33},
    };
    *name = "started", *id = 20;
    if (g->result == RESULT_NONE)
        return;
    *name = "variantEnd", *id = 60; /* an end of a variant's own (Starvation's starving, ...) */
    for (size_t i = 0; i < sizeof by_reason / sizeof by_reason[0]; i++)
        if (strcmp(g->reason, by_reason[i].reason) == 0)
            *name = by_reason[i].name, *id = by_reason[i].id;
}

static json_t *winner_of(const LiveGame *g)
{
    return g->result == RESULT_WHITE_WINS   ? json_string("white")
           : g->result == RESULT_BLACK_WINS ? json_string("black")
                                            : NULL;
}

/* The moves so far in the engine's notation, space-separated. */
static json_t *moves_text(const LiveGame *g)
{
    Text t = {0};
    bool ok = true;
    for (int i = 0; ok && i < g->game.n; i++)
        ok = text_addf(&t, "%s%s", i ? " " : "", g->uci[i]);
    json_t *moves = ok ? json_string(text_str(&t)) : NULL;
    text_free(&t);
    return moves;
}

/* A side's player as gameFull has it: the account, the engine, or an anonymous player. */
static json_t *player_of(const LiveGame *g, int side)
{
    const SeatRow *s = &g->seat[side];
    if (s->user[0])
        return json_pack("{s:s, s:s, s:o, s:i, s:b}", "id", s->user, "name", s->name, "title",
                         s->bot ? json_string("BOT") : json_null(), "rating", s->rating, "provisional", s->prov);
    if (g->engine[side])
        return json_pack("{s:o, s:s, s:i}", "id", json_null(), "name", "starfish", "aiLevel", g->skill);
    return json_pack("{s:o, s:s}", "id", json_null(), "name", "Anonymous");
}

/* The opponent as an account's events have it. */
static json_t *opponent_of(const LiveGame *g, int side)
{
    const SeatRow *s = &g->seat[side ^ 1];
    if (s->user[0])
        return json_pack("{s:s, s:s, s:i}", "id", s->user, "username", s->name, "rating", s->rating);
    if (g->engine[side ^ 1])
        return json_pack("{s:o, s:s, s:i}", "id", json_null(), "username", "starfish", "ai", g->skill);
    return json_pack("{s:o, s:s}", "id", json_null(), "username", "Anonymous");
}

static json_t *time_left(const LiveGame *g, int side, int64_t now)
{
    return json_integer(g->has_clock ? (json_int_t)live_time_left(g, side, now) : NO_CLOCK_MS);
}

json_t *lichess_game_state(LiveGame *g)
{
    const char *status;
    int id;
    status_of(g, &status, &id);
    int64_t now = util_now_ms();
    json_t *state = json_pack("{s:s, s:o, s:o, s:o, s:I, s:I, s:s}", "type", "gameState", "moves", moves_text(g),
                              "wtime", time_left(g, WHITE, now), "btime", time_left(g, BLACK, now), "winc",
                              (json_int_t)live_increment(g, WHITE), "binc", (json_int_t)live_increment(g, BLACK),
                              "status", status);
    bool ok = state != NULL;
    if (g->berserk[WHITE])
        util_json_put(state, "wberserk", json_true(), &ok);
    if (g->berserk[BLACK])
        util_json_put(state, "bberserk", json_true(), &ok);
    json_t *winner = winner_of(g);
    if (winner)
        util_json_put(state, "winner", winner, &ok);
    if (g->draw_offer >= 0)
        util_json_put(state, g->draw_offer == WHITE ? "wdraw" : "bdraw", json_true(), &ok);
    if (g->takeback_offer >= 0)
        util_json_put(state, g->takeback_offer == WHITE ? "wtakeback" : "btakeback", json_true(), &ok);
    if (!ok) {
        json_decref(state);
        return NULL;
    }
    return state;
}

json_t *lichess_game_full(LiveGame *g)
{
    json_t *clock = g->has_clock && !g->days ? json_pack("{s:I, s:I}", "initial", (json_int_t)g->base_ms,
                                                         "increment", (json_int_t)g->inc_ms)
                                             : json_null();
    bool start = strcmp(g->game.start_fen, g->v->def->start_fen) == 0;
    json_t *full = json_pack("{s:s, s:s, s:o, s:o, s:s, s:{s:s}, s:b, s:I, s:o, s:o, s:s, s:o}", "type", "gameFull",
                             "id", g->id, "variant", lichess_variant_json(g->v), "clock", clock, "speed", speed_of(g),
                             "perf", "name", g->v->def->title, "rated", g->rated, "createdAt",
                             (json_int_t)g->created_ms, "white", player_of(g, WHITE), "black", player_of(g, BLACK),
                             "initialFen", start ? "startpos" : g->game.start_fen, "state", lichess_game_state(g));
    bool ok = full != NULL;
    if (g->days)
        util_json_put(full, "daysPerTurn", json_integer(g->days), &ok);
    if (g->tournament[0])
        util_json_put(full, "tournamentId", json_string(g->tournament), &ok);
    if (!ok) {
        json_decref(full);
        return NULL;
    }
    return full;
}

json_t *lichess_game_info(LiveGame *g, int side)
{
    const char *status;
    int id;
    status_of(g, &status, &id);
    char fen[FEN_MAX];
    pos_fen(&g->game.pos, fen, sizeof fen);
    int64_t now = util_now_ms();
    bool over = g->result != RESULT_NONE, turn = !over && g->game.pos.side == side;
    json_t *info = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:{s:i, s:s}, s:o, s:s, s:s, s:b, s:b, s:o, s:b, "
                             "s:o, s:{s:b, s:b}}",
                             "fullId", g->id, "gameId", g->id, "id", g->id, "fen", fen, "color", side_name(side),
                             "lastMove", g->game.n ? g->uci[g->game.n - 1] : "", "source",
                             g->tournament[0]                        ? "arena"
                             : g->engine[WHITE] || g->engine[BLACK] ? "ai"
                                                                    : "friend",
                             "status", "id", id, "name",
                             status, "variant", lichess_variant_json(g->v), "speed", speed_of(g), "perf",
                             lichess_variant_key(g->v), "rated", g->rated, "hasMoved", g->game.n > (side == WHITE ? 0 : 1),
                             "opponent", opponent_of(g, side), "isMyTurn", turn, "secondsLeft",
                             g->has_clock ? json_integer((json_int_t)(live_time_left(g, side, now) / 1000)) : json_null(),
                             "compat", "bot", true, "board", true);
    bool ok = info != NULL;
    json_t *winner = winner_of(g);
    if (winner)
        util_json_put(info, "winner", winner, &ok);
    if (g->seat[side].has_diff)
        util_json_put(info, "ratingDiff", json_integer(g->seat[side].diff), &ok);
    if (g->tournament[0])
        util_json_put(info, "tournamentId", json_string(g->tournament), &ok);
    if (!ok) {
        json_decref(info);
        return NULL;
    }
    return info;
}

const char *lichess_time_control_error(bool has_clock, int limit_s, int increment_s, int days)
{
    static const int allowed[] = {1, 2, 3, 5, 7, 10, 14};
    bool days_ok = days == 0;
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
        days_ok = days_ok || days == allowed[i];
    if (!days_ok)
        return "days a move: 1, 2, 3, 5, 7, 10 or 14";
    if (days && has_clock)
        return "a clock or days a move, not both";
    if (has_clock && (limit_s < 0 || limit_s > 180 * 60 || increment_s < 0 || increment_s > 180 ||
                      limit_s + increment_s == 0))
        return "a clock of 0 to 180 minutes and an increment of 0 to 180 s, not both 0";
    return NULL;
}
