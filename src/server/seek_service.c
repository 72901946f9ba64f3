#include "seek_service.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/text.h"
#include "game_service.h"
#include "lichess_json.h"
#include "relay.h"
#include "util.h"

static Store *store;

/* This instance's real-time seeks (their requests are open here): renewed by seek_sweep. */
typedef struct LocalSeek {
    char id[STORE_ID_MAX + 1];
    struct LocalSeek *next;
} LocalSeek;
static pthread_mutex_t local_lock = PTHREAD_MUTEX_INITIALIZER;
static LocalSeek *local;
static int64_t next_sweep;

void seek_start(Store *s)
{
    store = s;
}

static SeekStatus fail(char *message, SeekStatus status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static SeekStatus fail(char *message, SeekStatus status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, SEEK_MESSAGE_MAX, fmt, ap);
    va_end(ap);
    return status;
}

static SeekStatus store_failed(char *message)
{
    return fail(message, SEEK_FAILED, "the seeks cannot be reached (the store failed): try again");
}

/* ---- The lobby -------------------------------------------------------------------------- */

static json_t *seek_json(const SeekRow *k)
{
    const Variant *v = lichess_variant(k->variant);
    json_t *tc = k->days ? json_pack("{s:s, s:i}", "type", "correspondence", "daysPerTurn", k->days)
                         : json_pack("{s:s, s:i, s:i}", "type", "clock", "limit", k->limit_s, "increment",
                                     k->increment_s);
    return v ? json_pack("{s:s, s:s, s:i, s:o, s:b, s:s, s:o, s:s, s:o, s:o}", "id", k->id, "username", k->username,
                         "rating", k->rating, "variant", lichess_variant_json(v), "rated", k->rated, "speed",
                         lichess_speed(k->has_clock, k->limit_s * 1000LL, k->increment_s * 1000LL, k->days),
                         "timeControl", tc, "color", k->color, "ratingMin",
                         k->rating_min ? json_integer(k->rating_min) : json_null(), "ratingMax",
                         k->rating_max ? json_integer(k->rating_max) : json_null())
             : NULL;
}

json_t *seek_lobby_json(void)
{
    SeekRow *rows;
    int n;
    if (!store_seeks(store, util_now_ms() - SEEK_ALIVE_MS, &rows, &n))
        return NULL;
    json_t *list = json_array();
    bool ok = list != NULL;
    for (int i = 0; i < n; i++)
        util_json_append(list, seek_json(&rows[i]), &ok);
    free(rows);
    if (!ok) {
        json_decref(list);
        return NULL;
    }
    return list;
}

/* The lobby's streams on every instance hear the seeks as they are now. */
static void announce_lobby(void)
{
    char *json = util_json_text(seek_lobby_json());
    Text event = {0};
    if (json && text_addf(&event, "event: seeks\ndata: %s\n\n", json))
        relay_publish("lobby", event.s, event.len, false);
    text_free(&event);
    free(json);
}

/* ---- Pairing ---------------------------------------------------------------------------- */

/* A GameCall's read: the new game's id. */
static bool read_id(void *ctx, LiveGame *g, int you)
{
    (void)you;
    snprintf(ctx, STORE_ID_MAX + 1, "%s", g->id);
    return true;
}

/* The side of seeker a against b: a's colour, else the opposite of b's, else drawn. */
static int side_of(const SeekRow *a, const SeekRow *b, bool *ok)
{
    unsigned char bit = 0;
    *ok = true;
    if (strcmp(a->color, "random") != 0)
        return strcmp(a->color, "white") == 0 ? WHITE : BLACK;
    if (strcmp(b->color, "random") != 0)
        return strcmp(b->color, "white") == 0 ? BLACK : WHITE;
    *ok = util_random(&bit, 1);
    return bit & 1;
}

/* The game of two paired seeks; the matched one's request (if it waits) ends. */
static SeekStatus start_game(const SeekRow *a, const SeekRow *b, char game_id[STORE_ID_MAX + 1], char *message)
{
    bool drawn;
    int side = side_of(a, b, &drawn);
    const Variant *v = lichess_variant(a->variant);
    if (!drawn || !v)
        return fail(message, SEEK_FAILED, "no random numbers");
    GameOptions o = {.v = v, .creator = side, .skill = -1, .has_clock = a->has_clock, .base_ms = a->limit_s * 1000LL,
                     .inc_ms = a->increment_s * 1000LL, .days = a->days, .rated = a->rated};
    const SeekRow *by_side[2] = {side == WHITE ? a : b, side == WHITE ? b : a};
    for (int s = 0; s < 2; s++) {
        AccountReply reply = {0};
        snprintf(o.seat[s].user, sizeof o.seat[s].user, "%s", by_side[s]->user);
        snprintf(o.seat[s].name, sizeof o.seat[s].name, "%s", by_side[s]->username);
        if (account_rate_seat(&o.seat[s], v->def->name, &reply) != ACCOUNT_OK)
            return store_failed(message);
    }
    Game initial = {0};
    char why[200];
    if (!game_init(&initial, v, NULL, why, sizeof why)) {
        game_free(&initial);
        return fail(message, SEEK_FAILED, "%s", why);
    }
    GameCall call = {.read = read_id, .ctx = game_id};
    if (service_create(&o, &initial, &call) != GAME_OK)
        return fail(message, SEEK_FAILED, "%s", call.message);
    char topic[32];
    snprintf(topic, sizeof topic, "seek:%s", b->id);
    relay_publish(topic, "", 0, true); /* the matched seek's request ends: its game has begun */
    return SEEK_OK;
}

/* Are the options a seek the rules allow? */
static SeekStatus check_options(const SeekOptions *o, char *message)
{
    const char *why_not = lichess_time_control_error(o->has_clock, o->limit_s, o->increment_s, o->days);
    if (why_not || (!o->has_clock && !o->days))
        return fail(message, SEEK_BAD, "%s", why_not ? why_not : "a seek has a clock (time and increment) or days a move");
    if (strcmp(o->color, "white") != 0 && strcmp(o->color, "black") != 0 && strcmp(o->color, "random") != 0)
        return fail(message, SEEK_BAD, "\"color\" must be \"white\", \"black\" or \"random\"");
    if (o->rating_min && o->rating_max && o->rating_min > o->rating_max)
        return fail(message, SEEK_BAD, "a rating range goes from low to high (\"1300-1700\")");
    return SEEK_OK;
}

SeekStatus seek_create(const Principal *p, const SeekOptions *o, SeekRow *k, bool *paired,
                       char game_id[STORE_ID_MAX + 1], char *message)
{
    *paired = false;
    if (p->via == AUTH_NONE)
        return fail(message, SEEK_DENIED, "log in first (a session or a bearer token)");
    SeekStatus status = check_options(o, message);
    if (status != SEEK_OK)
        return status;
    SeatRow seat;
    AccountReply reply = {0};
    if (account_seat(p, o->v->def->name, &seat, &reply) != ACCOUNT_OK)
        return store_failed(message);
    int64_t now = util_now_ms();
    *k = (SeekRow){.rated = o->rated, .has_clock = o->has_clock, .limit_s = o->limit_s,
                   .increment_s = o->increment_s, .days = o->days, .rating = seat.rating,
                   .rating_min = o->rating_min, .rating_max = o->rating_max, .created_ms = now,
                   .alive_ms = o->days ? 0 : now};
    snprintf(k->user, sizeof k->user, "%s", p->user_id);
    snprintf(k->username, sizeof k->username, "%s", p->username);
    snprintf(k->variant, sizeof k->variant, "%s", o->v->def->name);
    snprintf(k->color, sizeof k->color, "%s", o->color);
    if (!util_random_string(k->id, GAME_ID_LEN, ID_ALPHABET))
        return fail(message, SEEK_FAILED, "no random numbers");
    SeekRow match;
    int found = store_seek_take_match(store, k, now - SEEK_ALIVE_MS, &match);
    if (found < 0)
        return store_failed(message);
    if (found) {
        *paired = true;
        status = start_game(k, &match, game_id, message);
    } else if (store_seek_insert(store, k) != STORE_OK) {
        return store_failed(message);
    } else if (!k->days) {
        LocalSeek *l = calloc(1, sizeof *l);
        if (l) { /* without it, the seek is not renewed and goes after SEEK_ALIVE_MS */
            snprintf(l->id, sizeof l->id, "%s", k->id);
            pthread_mutex_lock(&local_lock);
            l->next = local;
            local = l;
            pthread_mutex_unlock(&local_lock);
        }
    }
    announce_lobby();
    return status;
}

SeekStatus seek_accept(const Principal *p, const char *id, char game_id[STORE_ID_MAX + 1], char *message)
{
    if (p->via == AUTH_NONE)
        return fail(message, SEEK_DENIED, "log in first (a session or a bearer token)");
    SeekRow match;
    int found = store_seek_take(store, id, p->user_id, util_now_ms() - SEEK_ALIVE_MS, &match);
    if (found <= 0)
        return found < 0 ? store_failed(message) : fail(message, SEEK_NOT_FOUND, "no seek '%.20s' open to you", id);
    SeekRow mine = match; /* the taker plays the seek's game: its options, the other colour */
    snprintf(mine.user, sizeof mine.user, "%s", p->user_id);
    snprintf(mine.username, sizeof mine.username, "%s", p->username);
    snprintf(mine.color, sizeof mine.color, "random");
    SeekStatus status = start_game(&mine, &match, game_id, message);
    announce_lobby();
    return status;
}

/* Forgets a real-time seek of this instance's. */
static void forget_local(const char *id)
{
    pthread_mutex_lock(&local_lock);
    for (LocalSeek **l = &local; *l; l = &(*l)->next)
        if (strcmp((*l)->id, id) == 0) {
            LocalSeek *gone = *l;
            *l = gone->next;
            free(gone);
            break;
        }
    pthread_mutex_unlock(&local_lock);
}

SeekStatus seek_cancel(const Principal *p, const char *id, char *message)
{
    if (p->via == AUTH_NONE)
        return fail(message, SEEK_DENIED, "log in first (a session or a bearer token)");
    int removed = store_seek_remove(store, id, p->user_id);
    if (removed <= 0)
        return removed < 0 ? store_failed(message) : fail(message, SEEK_NOT_FOUND, "you have no seek '%.20s'", id);
    char topic[32];
    snprintf(topic, sizeof topic, "seek:%s", id);
    relay_publish(topic, "", 0, true);
    announce_lobby();
    return SEEK_OK;
}

bool seek_waits(const char *id)
{
    return store_seek_waits(store, id);
}

void seek_abandoned(const char *id, const char *user_id)
{
    forget_local(id);
    if (store_seek_remove(store, id, user_id) > 0)
        announce_lobby();
}

void seek_sweep(int64_t now)
{
    if (now < next_sweep)
        return;
    next_sweep = now + SEEK_RENEW_MS;
    pthread_mutex_lock(&local_lock);
    for (LocalSeek *l = local; l; l = l->next)
        store_seek_touch(store, l->id, now);
    pthread_mutex_unlock(&local_lock);
    long expired = 0;
    if (store_seeks_expire(store, now - SEEK_ALIVE_MS, &expired) == STORE_OK && expired > 0)
        announce_lobby();
}
