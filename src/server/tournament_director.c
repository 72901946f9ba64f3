#include "tournament_director.h"

#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../util/text.h"
#include "../variants/registry.h"
#include "account_events.h"
#include "bot_service.h"
#include "lichess_json.h"
#include "relay.h"
#include "stream.h"
#include "tournament_json.h"
#include "tournament_news.h"
#include "tournament_service.h"
#include "util.h"

#define LEASE_NAME "tournaments"
#define SCHEDULED_MAX 32
#define ANNOUNCE_MS (60 * 60 * 1000LL) /* a scheduled tournament is made this long before it starts */

static Store *store;
static pthread_t thread;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static bool running, quit;
static char holder[16]; /* this instance, as the lease names it */

/* A tournament of the schedule: made every `every_ms`, starting `offset_ms` into each period. */
typedef struct Scheduled {
    char name[TOURNAMENT_SCHEDULE_MAX + 1];
    const Variant *v;
    int limit_s, increment_s, minutes;
    bool rated, berserkable, bots_allowed;
    int64_t every_ms, offset_ms;
} Scheduled;

static Scheduled scheduled[SCHEDULED_MAX];
static int nscheduled;

/* ---- Publishing ---------------------------------------------------------------------------- */

/* The standings of tournament id to its streams on every instance (a Server-Sent Event). */
static void publish(const char *id, int64_t now)
{
    Standings s;
    if (standings_read(store, id, &s) != 1)
        return;
    char *json = util_json_text(tournament_full_json(&s, 1, now));
    standings_free(&s);
    Text event = {0};
    char topic[STREAM_TOPIC_MAX];
    tournament_topic(id, topic, sizeof topic);
    if (json && text_addf(&event, "event: tournament\ndata: %s\n\n", json))
        relay_publish(topic, event.s, event.len, false);
    text_free(&event);
    free(json);
}

static void publish_touched(int64_t now)
{
    char ids[16][STORE_ID_MAX + 1];
    int n;
    while ((n = tournament_take_touched(ids, 16)) > 0)
        for (int i = 0; i < n; i++)
            publish(ids[i], now);
}

/* ---- Games --------------------------------------------------------------------------------- */

static void seat_of(const EntrantRow *e, const char *variant, SeatRow *seat)
{
    *seat = (SeatRow){.bot = e->bot};
    snprintf(seat->user, sizeof seat->user, "%s", e->user);
    snprintf(seat->name, sizeof seat->name, "%s", e->name);
    AccountReply reply = {0};
    account_rate_seat(seat, variant, &reply); /* a store that fails: the seat's rating is 0 */
}

static bool read_nothing(void *ctx, LiveGame *g, int you)
{
    (void)ctx, (void)g, (void)you;
    return true;
}

/* A game of tournament t between two of its players (both hear gameStart). */
static bool start_game(const TournamentRow *t, const EntrantRow *white, const EntrantRow *black)
{
    const Variant *v = variant_by_name(t->variant);
    GameOptions o = {.v = v, .creator = WHITE, .skill = -1, .has_clock = true, .base_ms = t->limit_s * 1000LL,
                     .inc_ms = t->increment_s * 1000LL, .rated = t->rated, .tournament = t->id};
    seat_of(white, t->variant, &o.seat[WHITE]);
    seat_of(black, t->variant, &o.seat[BLACK]);
    Game initial = {0};
    char why[200];
    if (!v || !game_init(&initial, v, NULL, why, sizeof why)) {
        game_free(&initial);
        return false;
    }
    GameCall call = {.read = read_nothing};
    GameStatus made = service_create(&o, &initial, &call);
    if (made != GAME_OK)
        fprintf(stderr, "starfish: tournament %s: a game of %s and %s was not made: %s\n", t->id, white->name,
                black->name, call.message);
    return made == GAME_OK;
}

/* ---- Arenas -------------------------------------------------------------------------------- */

static bool online(const EntrantRow *e, int64_t now)
{
    return (e->online_ms && now - e->online_ms <= BOT_ONLINE_MS) || account_events_listening(e->user);
}

/* Can a game still fit before the arena's end?  A game's usual length: the clock and 40
 * increments. */
static bool pairings_open(const TournamentRow *t, int64_t now)
{
    return t->finishes_ms - now >= (t->limit_s + 40LL * t->increment_s) * 1000;
}

/* Pairs the arena's players who wait: joined, not withdrawn, online, not in a game. */
static void pair_arena(const TournamentRow *t, int64_t now)
{
    Standings s;
    if (!pairings_open(t, now) || standings_read(store, t->id, &s) != 1)
        return;
    ArenaWaiting *waiting = calloc((size_t)(s.n ? s.n : 1), sizeof *waiting);
    ArenaPairing *pairs = calloc((size_t)(s.n ? s.n : 1), sizeof *pairs);
    int n = 0, present = 0;
    for (int r = 0; waiting && r < s.n; r++) {
        const Standing *line = &s.lines[r];
        bool here = !line->e->withdrawn && online(line->e, now);
        present += here;
        if (here && !line->playing)
            waiting[n++] = (ArenaWaiting){line->index, line->rank, line->last_opponent, line->colour_balance,
                                          line->last_white};
    }
    int made = waiting && pairs ? arena_pair(waiting, n, present == 2, pairs) : 0;
    for (int i = 0; i < made; i++)
        start_game(t, &s.entrants[pairs[i].white], &s.entrants[pairs[i].black]);
    if (made)
        tournament_touch(t->id);
    free(waiting);
    free(pairs);
    standings_free(&s);
}

/* ---- Round robins -------------------------------------------------------------------------- */

/* The game of white against black in the round robin (a pair plays once each way), not
 * aborted, or NULL. */
static const TourGameRow *robin_game(const Standings *s, int white, int black)
{
    for (int k = 0; k < s->ngames; k++) {
        const TourGameRow *g = &s->games[k];
        if (strcmp(g->user[0], s->entrants[white].user) == 0 && strcmp(g->user[1], s->entrants[black].user) == 0 &&
            strcmp(g->result, "aborted") != 0)
            return g;
    }
    return NULL;
}

/* Plays the round in play: its missing games made; once all are over, the next round (or the
 * end). */
static void play_robin(const TournamentRow *t, int64_t now)
{
    Standings s;
    if (standings_read(store, t->id, &s) != 1)
        return;
    ArenaPairing pairs[ROBIN_PLAYERS_MAX / 2 + 1];
    int rounds = 2 * berger_rounds(s.n), count = berger_round(s.n, t->round, pairs);
    bool over = true, touched = false;
    for (int i = 0; i < count; i++) {
        if (pairs[i].black < 0)
            continue; /* a bye */
        const TourGameRow *g = robin_game(&s, pairs[i].white, pairs[i].black);
        if (!g)
            touched |= start_game(t, &s.entrants[pairs[i].white], &s.entrants[pairs[i].black]);
        over = over && g && strcmp(g->result, "*") != 0;
    }
    if (over) {
        bool last = t->round + 1 >= rounds;
        touched |= store_tournament_advance(store, t->id, "started", t->round, last ? "finished" : "started",
                                            last ? t->round : t->round + 1, last ? now : 0) == STORE_OK;
    }
    if (touched)
        tournament_touch(t->id);
    standings_free(&s);
}

/* ---- The director's round ------------------------------------------------------------------ */

static void start_due(int64_t now)
{
    TournamentRow *rows;
    int n;
    if (!store_tournaments_list(store, "created", 100, &rows, &n))
        return;
    for (int i = 0; i < n && rows[i].starts_ms <= now; i++) {
        int64_t end = strcmp(rows[i].system, "arena") == 0 ? rows[i].starts_ms + rows[i].minutes * 60000LL : 0;
        if (store_tournament_advance(store, rows[i].id, "created", 0, "started", 0, end) == STORE_OK)
            tournament_touch(rows[i].id);
    }
    free(rows);
}

static void run_started(int64_t now)
{
    TournamentRow *rows;
    int n;
    if (!store_tournaments_list(store, "started", 100, &rows, &n))
        return;
    for (int i = 0; i < n; i++) {
        const TournamentRow *t = &rows[i];
        if (strcmp(t->system, "robin") == 0)
            play_robin(t, now);
        else if (now >= t->finishes_ms) {
            if (store_tournament_advance(store, t->id, "started", t->round, "finished", t->round, 0) == STORE_OK)
                tournament_touch(t->id);
        } else
            pair_arena(t, now);
    }
    free(rows);
}

/* Makes each scheduled tournament's next occurrence once it is within ANNOUNCE_MS (the store
 * keeps one per entry and start, however many instances try). */
static void make_scheduled(int64_t now)
{
    for (int i = 0; i < nscheduled; i++) {
        const Scheduled *e = &scheduled[i];
        int64_t start = (now - e->offset_ms) / e->every_ms * e->every_ms + e->offset_ms;
        if (start <= now)
            start += e->every_ms;
        if (start - now > ANNOUNCE_MS)
            continue;
        TourOptions o = {.name = e->name, .v = e->v, .limit_s = e->limit_s, .increment_s = e->increment_s,
                         .minutes = e->minutes, .rated = e->rated, .berserkable = e->berserkable,
                         .bots_allowed = e->bots_allowed, .starts_ms = start};
        TournamentRow t;
        char message[TOURNAMENT_MESSAGE_MAX];
        tournament_create(NULL, &o, e->name, &t, message); /* made already: TOUR_CLOSED, nothing to do */
    }
}

static void direct(int64_t now)
{
    if (store_lease(store, LEASE_NAME, holder, now, now + DIRECTOR_LEASE_MS) != 1)
        return;
    make_scheduled(now);
    start_due(now);
    run_started(now);
}

static void *director(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&lock);
    while (!quit) {
        pthread_mutex_unlock(&lock);
        int64_t now = util_now_ms();
        direct(now);
        publish_touched(now);
        pthread_mutex_lock(&lock);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += DIRECTOR_EVERY_MS / 1000;
        if (!quit)
            pthread_cond_timedwait(&wake, &lock, &until);
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

/* ---- The schedule -------------------------------------------------------------------------- */

/* One entry of the schedule file: false with err set when it is not one. */
static bool read_entry(json_t *o, Scheduled *e, char *err, size_t errlen)
{
    const char *name = NULL, *variant = NULL, *every = NULL;
    double minutes_clock = -1;
    int increment = 0, minutes = 0, at = 0, rated = 1, berserkable = 1, bots = 0;
    json_error_t why;
    if (json_unpack_ex(o, &why, 0, "{s:s, s:s, s:F, s?:i, s:i, s:s, s?:i, s?:b, s?:b, s?:b}", "name", &name,
                       "variant", &variant, "clockTime", &minutes_clock, "clockIncrement", &increment, "minutes",
                       &minutes, "every", &every, "at", &at, "rated", &rated, "berserkable", &berserkable, "bots",
                       &bots) != 0) {
        snprintf(err, errlen, "%s", why.text);
        return false;
    }
    *e = (Scheduled){.v = lichess_variant(variant), .limit_s = (int)(minutes_clock * 60 + 0.5),
                     .increment_s = increment, .minutes = minutes, .rated = rated, .berserkable = berserkable,
                     .bots_allowed = bots};
    snprintf(e->name, sizeof e->name, "%s", name);
    e->every_ms = strcmp(every, "hour") == 0 ? 3600000LL : strcmp(every, "day") == 0 ? 86400000LL : 0;
    e->offset_ms = at * 60000LL;
    if (!e->v || !e->every_ms || at < 0 || e->offset_ms >= e->every_ms || strlen(name) < 2 ||
        strlen(name) > TOURNAMENT_NAME_MAX) {
        snprintf(err, errlen, "%s: a variant we play, \"every\": \"hour\" or \"day\", \"at\" minutes within it, "
                 "a name of 2 to %d characters", name, TOURNAMENT_NAME_MAX);
        return false;
    }
    return true;
}

bool director_schedule(const char *path, char *err, size_t errlen)
{
    json_error_t why;
    json_t *list = json_load_file(path, 0, &why);
    if (!list || !json_is_array(list) || json_array_size(list) > SCHEDULED_MAX) {
        snprintf(err, errlen, "%s: %s", path,
                 !list ? why.text : "a JSON array of at most 32 scheduled tournaments is expected");
        json_decref(list);
        return false;
    }
    size_t i;
    json_t *o;
    nscheduled = 0;
    json_array_foreach(list, i, o)
    {
        char why_entry[200];
        if (!read_entry(o, &scheduled[nscheduled], why_entry, sizeof why_entry)) {
            snprintf(err, errlen, "%s: entry %zu: %s", path, i + 1, why_entry);
            json_decref(list);
            nscheduled = 0;
            return false;
        }
        nscheduled++;
    }
    json_decref(list);
    return true;
}

/* ---- Starting ------------------------------------------------------------------------------ */

static void on_game_finished(void *ctx, LiveGame *g)
{
    (void)ctx;
    if (g->tournament[0])
        tournament_touch(g->tournament);
}

bool director_start(Store *s)
{
    store = s;
    GameObserver o = {.finished = on_game_finished};
    if (!service_observe(&o) || !util_random_string(holder, sizeof holder - 1, ID_ALPHABET))
        return false;
    quit = false;
    running = pthread_create(&thread, NULL, director, NULL) == 0;
    return running;
}

void director_stop(void)
{
    if (!running)
        return;
    pthread_mutex_lock(&lock);
    quit = true;
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
    pthread_join(thread, NULL);
    running = false;
}
