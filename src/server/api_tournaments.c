/* The API's tournaments, in lichess's shapes (its arena endpoints): the list, making one (an
 * arena, or a round robin: our extension), one with its standings, joining and withdrawing,
 * the results (NDJSON), and the standings' live stream (Server-Sent Events, ours). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/parse.h"
#include "../util/text.h"
#include "api_route.h"
#include "lichess_json.h"
#include "stream.h"
#include "tournament_json.h"
#include "tournament_news.h"
#include "tournament_service.h"
#include "util.h"

#define LIST_MAX 50
#define LINES_MAX 100000
#define WAIT_DEFAULT_MIN 5
#define TOURNAMENT_KEEPALIVE_MS 15000

static unsigned status_of(TourStatus s)
{
    static const unsigned codes[] = {[TOUR_OK] = 200,        [TOUR_BAD] = 400,    [TOUR_DENIED] = 401,
                                     [TOUR_NOT_FOUND] = 404, [TOUR_CLOSED] = 409, [TOUR_FAILED] = 503};
    return codes[s];
}

/* GET /api/tournament: {"created", "started", "finished"}, each a list. */
static enum MHD_Result get_list(ApiRequest *rq)
{
    static const char *const statuses[] = {"created", "started", "finished"};
    json_t *out = json_object();
    bool ok = out != NULL;
    int64_t now = util_now_ms();
    for (int i = 0; i < 3 && ok; i++) {
        TournamentRow *rows;
        int n;
        char message[TOURNAMENT_MESSAGE_MAX];
        if (tournament_list(statuses[i], LIST_MAX, &rows, &n, message) != TOUR_OK) {
            json_decref(out);
            return http_error(rq->c, 503, "%s", message);
        }
        json_t *list = json_array();
        for (int k = 0; k < n; k++)
            util_json_append(list, tournament_json(&rows[k], now), &ok);
        util_json_put(out, statuses[i], list, &ok);
        free(rows);
    }
    if (!ok) {
        json_decref(out);
        out = NULL;
    }
    return http_json(rq->c, 200, out);
}

/* "a,b,c" into names (at most max of them, pointing into copy). */
static int split_names(char *copy, const char **names, int max)
{
    int n = 0;
    for (char *save = NULL, *name = strtok_r(copy, ", ", &save); name; name = strtok_r(NULL, ", ", &save))
        if (n < max + 1) /* one too many: refused as such */
            names[n++] = name;
    return n;
}

/* The body's options of a tournament (lichess's fields, form or JSON): 0 or a status with err. */
static int read_tournament(json_t *o, TourOptions *t, char *names_copy, const char **names, char *err)
{
    const char *variant = NULL, *system = NULL, *players = NULL;
    double clock_min;
    long long increment, minutes, wait, start, lo, hi, games;
    int status;
    if ((status = opt_string(o, "name", &t->name, err)) || (status = opt_string(o, "variant", &variant, err)) ||
        (status = opt_string(o, "system", &system, err)) || (status = opt_string(o, "players", &players, err)) ||
        (status = opt_string(o, "description", &t->description, err)) ||
        (status = form_number(o, "clockTime", 0, 60, -1, &clock_min, err)) ||
        (status = form_int(o, "clockIncrement", 0, 60, -1, &increment, err)) ||
        (status = form_int(o, "minutes", 1, TOURNAMENT_MINUTES_MAX, 0, &minutes, err)) ||
        (status = form_int(o, "waitMinutes", 0, 1440, WAIT_DEFAULT_MIN, &wait, err)) ||
        (status = form_int(o, "startDate", 0, 1LL << 50, 0, &start, err)) ||
        (status = form_bool(o, "rated", true, &t->rated, err)) ||
        (status = form_bool(o, "berserkable", true, &t->berserkable, err)) ||
        (status = form_bool(o, "conditions.bots", false, &t->bots_allowed, err)) ||
        (status = form_int(o, "conditions.minRating.rating", 0, 5000, 0, &lo, err)) ||
        (status = form_int(o, "conditions.maxRating.rating", 0, 5000, 0, &hi, err)) ||
        (status = form_int(o, "conditions.nbRatedGame.nb", 0, 10000, 0, &games, err)))
        return status;
    if (clock_min < 0 || increment < 0) {
        snprintf(err, ERR_MAX, "missing clockTime (minutes) or clockIncrement (seconds)");
        return 400;
    }
    t->v = lichess_variant(variant ? variant : "standard");
    if (!t->v) {
        snprintf(err, ERR_MAX, "unknown variant '%.40s'", variant);
        return 400;
    }
    if (system && strcmp(system, "arena") != 0 && strcmp(system, "robin") != 0) {
        snprintf(err, ERR_MAX, "\"system\" is \"arena\" (the default) or \"robin\"");
        return 400;
    }
    t->robin = system && strcmp(system, "robin") == 0;
    if (!t->robin && minutes == 0) {
        snprintf(err, ERR_MAX, "missing minutes (an arena's length)");
        return 400;
    }
    if (t->robin && players) {
        snprintf(names_copy, 2048, "%s", players);
        t->players = names;
        t->nplayers = split_names(names_copy, names, ROBIN_PLAYERS_MAX);
    }
    t->limit_s = (int)(clock_min * 60 + 0.5);
    t->increment_s = (int)increment;
    t->minutes = (int)minutes;
    t->min_rating = (int)lo;
    t->max_rating = (int)hi;
    t->min_rated_games = (int)games;
    t->starts_ms = start ? start : util_now_ms() + wait * 60000LL;
    if (t->name && !*t->name)
        t->name = NULL;
    return 0;
}

static enum MHD_Result answer_tournament(ApiRequest *rq, const char *id, unsigned ok_status)
{
    Standings s;
    char message[TOURNAMENT_MESSAGE_MAX];
    TourStatus status = tournament_read(id, &s, message);
    if (status != TOUR_OK)
        return http_error(rq->c, status_of(status), "%s", message);
    const char *page_text = api_query(rq, "page");
    int page = 1;
    if (page_text && !parse_int(page_text, 1, 200, &page)) {
        standings_free(&s);
        return http_error(rq->c, 400, "page must be an integer from 1 to 200");
    }
    json_t *out = tournament_full_json(&s, page, util_now_ms());
    standings_free(&s);
    return http_json(rq->c, ok_status, out);
}

static enum MHD_Result post_tournament(ApiRequest *rq)
{
    char err[ERR_MAX], message[TOURNAMENT_MESSAGE_MAX], names_copy[2048];
    const char *names[ROBIN_PLAYERS_MAX + 1];
    json_t *o;
    TourOptions options = {0};
    int bad = api_body(rq, &o, err);
    if (!bad)
        bad = read_tournament(o, &options, names_copy, names, err);
    if (bad) {
        json_decref(o);
        return http_error(rq->c, (unsigned)bad, "%s", err);
    }
    TournamentRow t;
    TourStatus status = tournament_create(&rq->who, &options, NULL, &t, message);
    json_decref(o);
    if (status != TOUR_OK)
        return http_error(rq->c, status_of(status), "%s", message);
    tournament_touch(t.id);
    return answer_tournament(rq, t.id, 200);
}

static enum MHD_Result get_tournament(ApiRequest *rq)
{
    return answer_tournament(rq, rq->arg[0], 200);
}

static enum MHD_Result post_join(ApiRequest *rq)
{
    char message[TOURNAMENT_MESSAGE_MAX];
    TourStatus status = tournament_join(&rq->who, rq->arg[0], message);
    return status == TOUR_OK ? http_json(rq->c, 200, json_pack("{s:b}", "ok", true))
                             : http_error(rq->c, status_of(status), "%s", message);
}

static enum MHD_Result post_withdraw(ApiRequest *rq)
{
    char message[TOURNAMENT_MESSAGE_MAX];
    TourStatus status = tournament_withdraw(&rq->who, rq->arg[0], message);
    return status == TOUR_OK ? http_json(rq->c, 200, json_pack("{s:b}", "ok", true))
                             : http_error(rq->c, status_of(status), "%s", message);
}

/* An NDJSON answer of the tournament's standings made into a list by `list_of`, at most `nb`
 * lines (the query's `nb`). */
static enum MHD_Result answer_lines(ApiRequest *rq, json_t *(*list_of)(const Standings *))
{
    Standings s;
    char message[TOURNAMENT_MESSAGE_MAX];
    const char *nb_text = api_query(rq, "nb");
    int nb = LINES_MAX;
    if (nb_text && !parse_int(nb_text, 1, LINES_MAX, &nb))
        return http_error(rq->c, 400, "nb must be an integer from 1 to %d", LINES_MAX);
    TourStatus status = tournament_read(rq->arg[0], &s, message);
    if (status != TOUR_OK)
        return http_error(rq->c, status_of(status), "%s", message);
    json_t *list = list_of(&s);
    standings_free(&s);
    while (list && (int)json_array_size(list) > nb)
        json_array_remove(list, json_array_size(list) - 1);
    char *text = list ? api_ndjson_text(list) : NULL;
    return text ? http_text(rq->c, 200, "application/x-ndjson", text, NULL) : http_send(rq->c, 503, NULL);
}

/* GET /api/tournament/{id}/results: NDJSON, a player a line, best first. */
static enum MHD_Result get_results(ApiRequest *rq)
{
    return answer_lines(rq, tournament_results_json);
}

/* GET /api/tournament/{id}/games: NDJSON, a game a line, in the order they ended. */
static enum MHD_Result get_games(ApiRequest *rq)
{
    return answer_lines(rq, tournament_games_json);
}

static const StreamKind tournament_stream = {"text/event-stream; charset=utf-8", ": keep-alive\n\n",
                                             TOURNAMENT_KEEPALIVE_MS, NULL};

/* GET /api/tournament/{id}/stream: Server-Sent Events, `tournament` with the tournament in full
 * (standings page 1) at once and after every change. */
static enum MHD_Result get_stream(ApiRequest *rq)
{
    if (stream_closed())
        return http_error(rq->c, 503, "the server is shutting down");
    char topic[STREAM_TOPIC_MAX], message[TOURNAMENT_MESSAGE_MAX];
    Standings s;
    TourStatus status = tournament_read(rq->arg[0], &s, message);
    if (status != TOUR_OK)
        return http_error(rq->c, status_of(status), "%s", message);
    tournament_topic(s.t.id, topic, sizeof topic);
    Stream *stream = stream_new(&tournament_stream, rq->c, topic, NULL);
    if (!stream) {
        standings_free(&s);
        return http_send(rq->c, 503, NULL);
    }
    stream_join(stream); /* first: a change from now on is not missed */
    char *json = util_json_text(tournament_full_json(&s, 1, util_now_ms()));
    standings_free(&s);
    Text event = {0};
    bool ok = json && text_addf(&event, "event: tournament\ndata: %s\n\n", json);
    StreamMessage *m = ok ? stream_message(event.s, event.len) : NULL;
    stream_push(stream, m); /* NULL: it ends; the page comes again */
    stream_unref(m);
    text_free(&event);
    free(json);
    return http_send(rq->c, MHD_HTTP_OK, stream_response(stream));
}

const ApiRoute api_tournament_routes[] = {
    {"GET", "/tournament", get_list, false},
    {"POST", "/tournament", post_tournament, false},
    {"GET", "/tournament/{id}", get_tournament, false},
    {"POST", "/tournament/{id}/join", post_join, false},
    {"POST", "/tournament/{id}/withdraw", post_withdraw, false},
    {"GET", "/tournament/{id}/results", get_results, false},
    {"GET", "/tournament/{id}/games", get_games, false},
    {"GET", "/tournament/{id}/stream", get_stream, true},
    {NULL, NULL, NULL, false},
};
