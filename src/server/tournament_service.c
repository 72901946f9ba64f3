#include "tournament_service.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../variants/registry.h"
#include "tournament_news.h"
#include "util.h"

#define DESCRIPTION_MAX TOURNAMENT_DESCRIPTION_MAX
#define LIMIT_MAX_S 3600
#define INCREMENT_MAX_S 60

static Store *store;

static TourStatus fail(char *message, TourStatus status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static TourStatus fail(char *message, TourStatus status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, TOURNAMENT_MESSAGE_MAX, fmt, ap);
    va_end(ap);
    return status;
}

static TourStatus store_failed(char *message)
{
    return fail(message, TOUR_FAILED, "the tournaments cannot be reached (the store failed): try again");
}

void tournament_start(Store *s)
{
    store = s;
}

/* ---- Creating ------------------------------------------------------------------------------ */

static TourStatus check_options(const TourOptions *o, char *message)
{
    if (!o->v)
        return fail(message, TOUR_BAD, "unknown variant");
    if (o->name && (strlen(o->name) < 2 || strlen(o->name) > TOURNAMENT_NAME_MAX))
        return fail(message, TOUR_BAD, "a name has 2 to %d characters", TOURNAMENT_NAME_MAX);
    if (o->description && strlen(o->description) > DESCRIPTION_MAX)
        return fail(message, TOUR_BAD, "a description has at most %d characters", DESCRIPTION_MAX);
    if (o->limit_s < 0 || o->limit_s > LIMIT_MAX_S || o->increment_s < 0 || o->increment_s > INCREMENT_MAX_S ||
        o->limit_s + o->increment_s == 0)
        return fail(message, TOUR_BAD, "a clock of 0 to 60 minutes and an increment of 0 to 60 s, not both 0");
    if (!o->robin && (o->minutes < 1 || o->minutes > TOURNAMENT_MINUTES_MAX))
        return fail(message, TOUR_BAD, "an arena lasts 1 to %d minutes", TOURNAMENT_MINUTES_MAX);
    if (o->robin && (o->nplayers < 2 || o->nplayers > ROBIN_PLAYERS_MAX))
        return fail(message, TOUR_BAD, "a round robin has 2 to %d players (\"players\": names, comma-separated)",
                    ROBIN_PLAYERS_MAX);
    if (o->min_rating < 0 || o->max_rating < 0 || o->min_rated_games < 0 ||
        (o->min_rating && o->max_rating && o->min_rating > o->max_rating))
        return fail(message, TOUR_BAD, "entry conditions: a minimum rating at most the maximum, numbers from 0");
    return TOUR_OK;
}

/* A round robin's players by name: their ids (ids[i], USER_ID_MAX + 1 each), each an open
 * account, none twice, none a house bot. */
static TourStatus robin_players(const TourOptions *o, char (*ids)[USER_ID_MAX + 1], char *message)
{
    for (int i = 0; i < o->nplayers; i++) {
        UserRow u;
        AccountReply reply = {0};
        AccountStatus found = account_find(o->players[i], &u, &reply);
        if (found == ACCOUNT_FAILED)
            return store_failed(message);
        if (found != ACCOUNT_OK || u.closed_ms)
            return fail(message, TOUR_NOT_FOUND, "no account '%.40s'", o->players[i]);
        if (u.bot == BOT_HOUSE)
            return fail(message, TOUR_BAD, "%s plays challenges only", u.username);
        for (int j = 0; j < i; j++)
            if (strcmp(ids[j], u.id) == 0)
                return fail(message, TOUR_BAD, "%s is in the list twice", u.username);
        snprintf(ids[i], USER_ID_MAX + 1, "%s", u.id);
    }
    return TOUR_OK;
}

static void fill_row(const Principal *p, const TourOptions *o, const char *schedule, TournamentRow *t)
{
    memset(t, 0, sizeof *t);
    if (o->name)
        snprintf(t->name, sizeof t->name, "%s", o->name);
    else
        snprintf(t->name, sizeof t->name, "%s %s", o->v->def->title, o->robin ? "Round Robin" : "Arena");
    snprintf(t->system, sizeof t->system, "%s", o->robin ? "robin" : "arena");
    snprintf(t->variant, sizeof t->variant, "%s", o->v->def->name);
    t->limit_s = o->limit_s;
    t->increment_s = o->increment_s;
    t->minutes = o->robin ? 0 : o->minutes;
    t->rated = o->rated;
    t->berserkable = o->berserkable && !o->robin;
    t->bots_allowed = o->bots_allowed || o->robin; /* a round robin's list is its creator's choice */
    t->min_rating = o->min_rating;
    t->max_rating = o->max_rating;
    t->min_rated_games = o->min_rated_games;
    snprintf(t->description, sizeof t->description, "%s", o->description ? o->description : "");
    snprintf(t->created_by, sizeof t->created_by, "%s", p ? p->user_id : "");
    snprintf(t->schedule, sizeof t->schedule, "%s", schedule ? schedule : "");
    t->created_ms = util_now_ms();
    t->starts_ms = o->starts_ms;
    t->finishes_ms = o->robin ? 0 : o->starts_ms + o->minutes * 60000LL;
    snprintf(t->status, sizeof t->status, "created");
    t->players = o->robin ? o->nplayers : 0;
}

TourStatus tournament_create(const Principal *p, const TourOptions *o, const char *schedule, TournamentRow *t,
                             char *message)
{
    if (p && p->via == AUTH_NONE)
        return fail(message, TOUR_DENIED, "log in first (a session or a bearer token)");
    TourStatus status = check_options(o, message);
    char(*ids)[USER_ID_MAX + 1] = calloc((size_t)(o->nplayers > 0 ? o->nplayers : 1), sizeof *ids);
    const char **list = calloc((size_t)(o->nplayers > 0 ? o->nplayers : 1), sizeof *list);
    if (status == TOUR_OK && (!ids || !list))
        status = fail(message, TOUR_FAILED, "out of memory");
    if (status == TOUR_OK && o->robin)
        status = robin_players(o, ids, message);
    for (int i = 0; status == TOUR_OK && i < o->nplayers; i++)
        list[i] = ids[i];
    if (status == TOUR_OK) {
        fill_row(p, o, schedule, t);
        status = !util_random_string(t->id, GAME_ID_LEN, ID_ALPHABET) ? fail(message, TOUR_FAILED, "no random numbers")
                                                                       : TOUR_OK;
    }
    if (status == TOUR_OK) {
        StoreResult stored = store_tournament_insert(store, t, list, o->robin ? o->nplayers : 0);
        status = stored == STORE_OK         ? TOUR_OK
                 : stored == STORE_CONFLICT ? fail(message, TOUR_CLOSED, "that tournament exists already")
                                            : store_failed(message);
    }
    free(ids);
    free(list);
    return status;
}

/* ---- Joining ------------------------------------------------------------------------------- */

/* May p enter t: its conditions (bots, rating, rated games in the variant)? */
static TourStatus entry_conditions(const Principal *p, const TournamentRow *t, char *message)
{
    if (p->bot == BOT_HOUSE)
        return fail(message, TOUR_BAD, "the house bots play challenges only");
    if (p->bot && !t->bots_allowed)
        return fail(message, TOUR_BAD, "bots may not join this tournament");
    if (!t->min_rating && !t->max_rating && !t->min_rated_games)
        return TOUR_OK;
    PerfRow perfs[VARIANTS_MAX];
    AccountReply reply = {0};
    if (account_perfs(p->user_id, perfs, &reply) != ACCOUNT_OK)
        return store_failed(message);
    for (int i = 0; i < variant_count(); i++) {
        if (strcmp(perfs[i].variant, t->variant) != 0)
            continue;
        int rating = (int)(perfs[i].glicko.rating + 0.5);
        if (t->min_rating && rating < t->min_rating)
            return fail(message, TOUR_BAD, "a rating of %d or more in %s is needed (yours: %d)", t->min_rating,
                        t->variant, rating);
        if (t->max_rating && rating > t->max_rating)
            return fail(message, TOUR_BAD, "a rating of %d or less in %s is needed (yours: %d)", t->max_rating,
                        t->variant, rating);
        if (perfs[i].games < t->min_rated_games)
            return fail(message, TOUR_BAD, "%d rated games of %s are needed (yours: %d)", t->min_rated_games,
                        t->variant, perfs[i].games);
    }
    return TOUR_OK;
}

/* The tournament id, open to p's joining or withdrawing (an arena not finished). */
static TourStatus open_arena(const Principal *p, const char *id, TournamentRow *t, char *message)
{
    if (p->via == AUTH_NONE)
        return fail(message, TOUR_DENIED, "log in first (a session or a bearer token)");
    int found = strlen(id) <= STORE_ID_MAX ? store_tournament_get(store, id, t) : 0;
    if (found < 0)
        return store_failed(message);
    if (!found)
        return fail(message, TOUR_NOT_FOUND, "no tournament '%.20s'", id);
    if (strcmp(t->status, "finished") == 0)
        return fail(message, TOUR_CLOSED, "tournament %s is over", id);
    if (strcmp(t->system, "robin") == 0)
        return fail(message, TOUR_CLOSED, "a round robin's players are fixed when it is made");
    return TOUR_OK;
}

TourStatus tournament_join(const Principal *p, const char *id, char *message)
{
    TournamentRow t;
    TourStatus status = open_arena(p, id, &t, message);
    if (status == TOUR_OK)
        status = entry_conditions(p, &t, message);
    if (status == TOUR_OK && store_tournament_join(store, id, p->user_id, util_now_ms()) != STORE_OK)
        status = store_failed(message);
    if (status == TOUR_OK)
        tournament_touch(id);
    return status;
}

TourStatus tournament_withdraw(const Principal *p, const char *id, char *message)
{
    TournamentRow t;
    TourStatus status = open_arena(p, id, &t, message);
    if (status != TOUR_OK)
        return status;
    StoreResult result = store_tournament_withdraw(store, id, p->user_id);
    if (result == STORE_CONFLICT)
        return fail(message, TOUR_BAD, "you have not joined tournament %s", id);
    if (result != STORE_OK)
        return store_failed(message);
    tournament_touch(id);
    return TOUR_OK;
}

/* ---- Reading ------------------------------------------------------------------------------- */

TourStatus tournament_read(const char *id, Standings *s, char *message)
{
    int found = strlen(id) <= STORE_ID_MAX ? standings_read(store, id, s) : 0;
    if (found < 0)
        return store_failed(message);
    return found ? TOUR_OK : fail(message, TOUR_NOT_FOUND, "no tournament '%.20s'", id);
}

TourStatus tournament_list(const char *status, int limit, TournamentRow **rows, int *n, char *message)
{
    return store_tournaments_list(store, status, limit, rows, n) ? TOUR_OK : store_failed(message);
}

GameStatus tournament_berserk(LiveGame *g, GameCall *call)
{
    char tournament[STORE_ID_MAX + 1];
    pthread_mutex_lock(&g->lock);
    snprintf(tournament, sizeof tournament, "%s", g->tournament);
    pthread_mutex_unlock(&g->lock);
    TournamentRow t;
    int found = tournament[0] ? store_tournament_get(store, tournament, &t) : 0;
    if (found < 0) {
        snprintf(call->message, sizeof call->message, "the tournaments cannot be reached (the store failed)");
        return GAME_STORE_FAILED;
    }
    if (!found || !t.berserkable) {
        snprintf(call->message, sizeof call->message, "game %s is not in a tournament that allows berserk", g->id);
        return GAME_NO_BERSERK;
    }
    GameStatus status = service_berserk(g, call);
    if (status == GAME_OK)
        tournament_touch(tournament);
    return status;
}
