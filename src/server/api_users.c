/* The API's players, in lichess's shapes: a profile, its rating history, its games, and the
 * leaderboard of each variant. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../util/parse.h"
#include "../variants/registry.h"
#include "account_events.h"
#include "api_route.h"
#include "bot_service.h"
#include "util.h"

#define TOP_MAX 200
#define USER_GAMES_MAX 100

/* The account of the path's first argument, or false after the error answer in *ret. */
static bool find_user(ApiRequest *rq, UserRow *u, enum MHD_Result *ret)
{
    AccountReply reply = {0};
    AccountStatus status = account_find(rq->arg[0], u, &reply);
    if (status == ACCOUNT_OK)
        return true;
    *ret = http_error(rq->c, api_account_status(status), "%s", reply.message);
    return false;
}

/* GET /api/user/NAME: the profile. */
static enum MHD_Result get_user(ApiRequest *rq)
{
    UserRow u;
    enum MHD_Result ret;
    if (!find_user(rq, &u, &ret))
        return ret;
    AccountReply reply = {0};
    PerfRow perfs[VARIANTS_MAX];
    UserCounts counts;
    AccountStatus status = account_perfs(u.id, perfs, &reply);
    if (status == ACCOUNT_OK && !account_counts(u.id, &counts, &reply))
        status = ACCOUNT_FAILED;
    if (status != ACCOUNT_OK)
        return http_error(rq->c, api_account_status(status), "%s", reply.message);
    json_t *out = api_user_json(&u, perfs);
    bool ok = out != NULL;
    util_json_put(out, "closed", json_boolean(u.closed_ms != 0), &ok);
    util_json_put(out, "online", json_boolean(bot_is_online(&u, util_now_ms()) || account_events_listening(u.id)),
                  &ok);
    util_json_put(out, "count",
                  json_pack("{s:i, s:i, s:i, s:i, s:i}", "all", counts.all, "rated", counts.rated, "win", counts.win,
                            "loss", counts.loss, "draw", counts.draw),
                  &ok);
    util_json_put(out, "playing", counts.playing[0] ? json_string(counts.playing) : json_null(), &ok);
    if (!ok) {
        json_decref(out);
        out = NULL;
    }
    return http_json(rq->c, 200, out);
}

/* [year, month (0-11), day, rating]: a point of lichess's rating history. */
static json_t *day_point(int64_t ms, int rating)
{
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    return json_pack("[i, i, i, i]", tm.tm_year + 1900, tm.tm_mon, tm.tm_mday, rating);
}

static bool same_day(int64_t a, int64_t b)
{
    const int64_t day = 24LL * 3600 * 1000;
    return a / day == b / day;
}

/* One variant's points: the rating at the end of each day with a rated game. */
static json_t *variant_points(const char *variant, const RatingPoint *p, int n, bool *ok)
{
    json_t *points = json_array();
    for (int i = 0; points && i < n; i++) {
        if (strcmp(p[i].variant, variant) != 0)
            continue;
        int last = i; /* the day's last game of this variant */
        for (int k = i + 1; k < n && same_day(p[k].at_ms, p[i].at_ms); k++)
            if (strcmp(p[k].variant, variant) == 0)
                last = k;
        util_json_append(points, day_point(p[last].at_ms, p[last].rating), ok);
        while (i + 1 < n && same_day(p[i + 1].at_ms, p[last].at_ms))
            i++;
    }
    return points;
}

/* GET /api/user/NAME/rating-history: for every variant, a point per day with rated games. */
static enum MHD_Result get_rating_history(ApiRequest *rq)
{
    UserRow u;
    enum MHD_Result ret;
    if (!find_user(rq, &u, &ret))
        return ret;
    AccountReply reply = {0};
    RatingPoint *points;
    int n;
    if (!account_rating_points(u.id, &points, &n, &reply))
        return http_error(rq->c, 503, "%s", reply.message);
    json_t *out = json_array();
    bool ok = true;
    for (int v = 0; out && v < variant_count(); v++) {
        const char *name = variant_at(v)->def->name;
        util_json_append(out, json_pack("{s:s, s:o}", "name", name, "points", variant_points(name, points, n, &ok)),
                         &ok);
    }
    free(points);
    if (!ok) {
        json_decref(out);
        out = NULL;
    }
    return http_json(rq->c, 200, out);
}

/* GET /api/games/user/NAME?max=N&until=MS: the account's games, newest first, created before
 * `until` (the last one's createdAt: the next page). */
static enum MHD_Result get_user_games(ApiRequest *rq)
{
    UserRow u;
    enum MHD_Result ret;
    if (!find_user(rq, &u, &ret))
        return ret;
    const char *max = api_query(rq, "max"), *until = api_query(rq, "until");
    long limit = 20, before = 0; /* long: 64 bits here, as the milliseconds need */
    if (max && !parse_long(max, 1, USER_GAMES_MAX, &limit))
        return http_error(rq->c, 400, "max must be an integer from 1 to %d", USER_GAMES_MAX);
    if (until && !parse_long(until, 1, LONG_MAX, &before))
        return http_error(rq->c, 400, "until must be a time in milliseconds since 1970");
    return api_send_list(rq, &(ListQuery){.limit = (int)limit, .user = u.id, .until_ms = before});
}

/* GET /api/player/top/N/VARIANT: the best N ratings that are not provisional. */
static enum MHD_Result get_top(ApiRequest *rq)
{
    int count;
    if (!parse_int(rq->arg[0], 1, TOP_MAX, &count))
        return http_error(rq->c, 400, "the number of players must be an integer from 1 to %d", TOP_MAX);
    const Variant *v = variant_by_name(rq->arg[1]);
    if (!v)
        return http_error(rq->c, 404, "unknown variant '%.40s'", rq->arg[1]);
    AccountReply reply = {0};
    TopRow *rows;
    int n;
    if (account_top(v->def->name, count, &rows, &n, &reply) != ACCOUNT_OK)
        return http_error(rq->c, 503, "%s", reply.message);
    json_t *users = json_array();
    bool ok = true;
    for (int i = 0; i < n; i++)
        util_json_append(users,
                         json_pack("{s:s, s:s, s:i, s:i, s:i}", "id", rows[i].user_id, "username", rows[i].username,
                                   "rating", (int)(rows[i].perf.glicko.rating + 0.5), "rd",
                                   (int)(rows[i].perf.glicko.rd + 0.5), "games", rows[i].perf.games),
                         &ok);
    free(rows);
    return http_json(rq->c, 200, ok ? json_pack("{s:o}", "users", users) : (json_decref(users), NULL));
}

const ApiRoute api_user_routes[] = {
    {"GET", "/user/{name}", get_user, false},
    {"GET", "/user/{name}/rating-history", get_rating_history, false},
    {"GET", "/games/user/{name}", get_user_games, false},
    {"GET", "/player/top/{n}/{variant}", get_top, false},
    {NULL, NULL, NULL, false},
};
