#include "tournament_json.h"

#include <string.h>

#include "../variants/registry.h"
#include "lichess_json.h"
#include "util.h"

/* lichess's status codes: 10 created, 20 started, 30 finished. */
static int status_code(const TournamentRow *t)
{
    return strcmp(t->status, "created") == 0 ? 10 : strcmp(t->status, "started") == 0 ? 20 : 30;
}

static json_t *condition(int value, const char *key)
{
    return value ? json_pack("{s:i}", key, value) : NULL;
}

json_t *tournament_json(const TournamentRow *t, int64_t now)
{
    const Variant *v = variant_by_name(t->variant);
    if (!v)
        return NULL;
    int64_t to_start = t->starts_ms > now ? (t->starts_ms - now + 999) / 1000 : 0;
    json_t *out = json_pack(
        "{s:s, s:o, s:s, s:i, s:{s:i, s:i}, s:b, s:s, s:i, s:o, s:I, s:o, s:i, s:{s:s, s:s}, s:I, s:b, s:b, s:s}",
        "id", t->id, "createdBy", t->created_by[0] ? json_string(t->created_by) : json_string("starfish"), "system",
        t->system, "minutes", t->minutes, "clock", "limit", t->limit_s, "increment", t->increment_s, "rated", t->rated,
        "fullName", t->name, "nbPlayers", t->players, "variant", lichess_variant_json(v), "startsAt",
        (json_int_t)t->starts_ms, "finishesAt", t->finishes_ms ? json_integer(t->finishes_ms) : json_null(), "status",
        status_code(t), "perf", "key", lichess_variant_key(v), "name", v->def->title, "secondsToStart",
        (json_int_t)to_start, "berserkable", t->berserkable, "botsAllowed", t->bots_allowed, "speed",
        lichess_speed(true, t->limit_s * 1000LL, t->increment_s * 1000LL, 0));
    bool ok = out != NULL;
    json_t *min = condition(t->min_rating, "rating"), *max = condition(t->max_rating, "rating"),
           *games = condition(t->min_rated_games, "nb");
    if (min)
        util_json_put(out, "minRating", min, &ok);
    if (max)
        util_json_put(out, "maxRating", max, &ok);
    if (games)
        util_json_put(out, "minRatedGames", games, &ok);
    if (t->description[0])
        util_json_put(out, "description", json_string(t->description), &ok);
    if (t->schedule[0])
        util_json_put(out, "schedule", json_pack("{s:s}", "name", t->schedule), &ok);
    if (!ok) {
        json_decref(out);
        return NULL;
    }
    return out;
}

/* A line of the standings: {name, rank, rating, score, sheet, nb, withdraw?, title?}. */
static json_t *player_json(const Standings *s, const Standing *line)
{
    const EntrantRow *e = line->e;
    bool robin = standings_robin(s);
    json_t *p = json_pack("{s:s, s:s, s:i, s:i, s:i, s:{s:i, s:i, s:i}}", "name", e->name, "id", e->user, "rank",
                          line->rank, "rating", e->rating, "score", robin ? line->score / 2 : line->score, "nb", "game",
                          line->games, "berserk", line->sheet.berserks, "win",
                          line->games - line->draws - line->losses);
    bool ok = p != NULL;
    if (robin) { /* points with their half, and Sonneborn-Berger */
        util_json_put(p, "points", json_real(line->score / 2.0), &ok);
        util_json_put(p, "tieBreak", json_real(line->tiebreak / 4.0), &ok);
    } else {
        json_t *sheet = json_pack("{s:s}", "scores", line->scores ? line->scores : "");
        if (sheet && line->sheet.fire)
            json_object_set_new(sheet, "fire", json_true());
        util_json_put(p, "sheet", sheet, &ok);
    }
    if (e->bot)
        util_json_put(p, "title", json_string("BOT"), &ok);
    if (e->withdrawn)
        util_json_put(p, "withdraw", json_true(), &ok);
    if (line->playing)
        util_json_put(p, "playing", json_true(), &ok);
    if (!ok) {
        json_decref(p);
        return NULL;
    }
    return p;
}

/* The games in play: [{id, p: [{n, r, k}, {n, r, k}]}] (names, ratings, ranks). */
static json_t *duels_json(const Standings *s)
{
    json_t *duels = json_array();
    bool ok = duels != NULL;
    for (int k = 0; k < s->ngames; k++) {
        const TourGameRow *g = &s->games[k];
        if (strcmp(g->result, "*") != 0)
            continue;
        json_t *players = json_array();
        for (int side = 0; side < 2; side++) {
            int i = standings_find(s, g->user[side]);
            int rank = 0;
            for (int r = 0; i >= 0 && r < s->n; r++)
                if (s->lines[r].index == i)
                    rank = s->lines[r].rank;
            util_json_append(players,
                             json_pack("{s:s, s:i, s:i}", "n", i >= 0 ? s->entrants[i].name : g->user[side], "r",
                                       g->rating[side], "k", rank),
                             &ok);
        }
        util_json_append(duels, json_pack("{s:s, s:o}", "id", g->id, "p", players), &ok);
    }
    if (!ok) {
        json_decref(duels);
        return NULL;
    }
    return duels;
}

/* A round robin's cross table: {"players": [names by rank], "results": [[...]]}: row i, column
 * j the results of player i against player j ("1", "½", "0" each, or "" while to come). */
static json_t *cross_table(const Standings *s)
{
    json_t *names = json_array(), *rows = json_array();
    bool ok = names && rows;
    for (int a = 0; a < s->n; a++) {
        const Standing *me = &s->lines[a];
        util_json_append(names, json_string(me->e->name), &ok);
        json_t *row = json_array();
        for (int b = 0; b < s->n; b++) {
            char cell[32] = "";
            for (int k = 0; k < s->ngames && a != b; k++) {
                const TourGameRow *g = &s->games[k];
                const char *them = s->lines[b].e->user;
                int side = strcmp(g->user[0], me->e->user) == 0 && strcmp(g->user[1], them) == 0   ? 0
                           : strcmp(g->user[1], me->e->user) == 0 && strcmp(g->user[0], them) == 0 ? 1
                                                                                                   : -1;
                if (side < 0 || strcmp(g->result, "*") == 0 || strcmp(g->result, "aborted") == 0)
                    continue;
                ArenaOutcome o = standings_outcome(g, side);
                strncat(cell, o == ARENA_WIN ? "1" : o == ARENA_DRAW ? "\xc2\xbd" : "0", sizeof cell - strlen(cell) - 1);
            }
            util_json_append(row, a == b ? json_null() : json_string(cell), &ok);
        }
        util_json_append(rows, row, &ok);
    }
    if (!ok) {
        json_decref(names);
        json_decref(rows);
        return NULL;
    }
    return json_pack("{s:o, s:o}", "players", names, "results", rows);
}

json_t *tournament_full_json(const Standings *s, int page, int64_t now)
{
    json_t *out = tournament_json(&s->t, now);
    bool ok = out != NULL, finished = strcmp(s->t.status, "finished") == 0;
    json_t *players = json_array();
    for (int r = (page - 1) * STANDING_PAGE; r >= 0 && r < s->n && r < page * STANDING_PAGE; r++)
        util_json_append(players, player_json(s, &s->lines[r]), &ok);
    util_json_put(out, "standing", json_pack("{s:i, s:o}", "page", page, "players", players), &ok);
    util_json_put(out, "duels", duels_json(s), &ok);
    util_json_put(out, "isFinished", json_boolean(finished), &ok);
    int64_t to_finish = s->t.finishes_ms > now ? (s->t.finishes_ms - now + 999) / 1000 : 0;
    util_json_put(out, "secondsToFinish", json_integer(to_finish), &ok);
    if (finished) {
        json_t *podium = json_array();
        for (int r = 0; r < 3 && r < s->n; r++)
            util_json_append(podium, player_json(s, &s->lines[r]), &ok);
        util_json_put(out, "podium", podium, &ok);
        if (s->n > 0)
            util_json_put(out, "winner", json_pack("{s:s, s:s}", "id", s->lines[0].e->user, "name",
                                                   s->lines[0].e->name),
                          &ok);
    }
    if (standings_robin(s))
        util_json_put(out, "crossTable", cross_table(s), &ok);
    if (!ok) {
        json_decref(out);
        return NULL;
    }
    return out;
}

json_t *tournament_results_json(const Standings *s)
{
    json_t *list = json_array();
    bool ok = list != NULL;
    for (int r = 0; r < s->n; r++)
        util_json_append(list, player_json(s, &s->lines[r]), &ok);
    if (!ok) {
        json_decref(list);
        return NULL;
    }
    return list;
}

static json_t *game_player(const Standings *s, const TourGameRow *g, int side)
{
    int i = standings_find(s, g->user[side]);
    return json_pack("{s:{s:s, s:s}, s:i, s:b}", "user", "id", g->user[side], "name",
                     i >= 0 ? s->entrants[i].name : g->user[side], "rating", g->rating[side], "berserk",
                     g->berserk[side]);
}

json_t *tournament_games_json(const Standings *s)
{
    json_t *list = json_array();
    bool ok = list != NULL;
    for (int k = 0; k < s->ngames; k++) {
        const TourGameRow *g = &s->games[k];
        json_t *game = json_pack("{s:s, s:s, s:i, s:I, s:o, s:{s:o, s:o}}", "id", g->id, "result", g->result,
                                 "plies", g->plies, "createdAt", (json_int_t)g->created_ms, "lastMoveAt",
                                 g->ended_ms ? json_integer(g->ended_ms) : json_null(), "players", "white",
                                 game_player(s, g, 0), "black", game_player(s, g, 1));
        if (game && (strcmp(g->result, "1-0") == 0 || strcmp(g->result, "0-1") == 0))
            json_object_set_new(game, "winner", json_string(g->result[0] == '1' ? "white" : "black"));
        util_json_append(list, game, &ok);
    }
    if (!ok) {
        json_decref(list);
        return NULL;
    }
    return list;
}
