#include "challenge_service.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "account_events.h"
#include "bot_service.h"
#include "game_service.h"
#include "lichess_json.h"
#include "util.h"


static Store *store;

void challenge_start(Store *s)
{
    store = s;
}

static ChallengeStatus fail(char *message, ChallengeStatus status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static ChallengeStatus fail(char *message, ChallengeStatus status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, CHALLENGE_MESSAGE_MAX, fmt, ap);
    va_end(ap);
    return status;
}

static ChallengeStatus store_failed(char *message)
{
    return fail(message, CHALLENGE_FAILED, "the challenges cannot be reached (the store failed): try again");
}

/* The reasons to decline (lichess's keys, which clients send in any case: "tooFast") and
 * what the challenger reads. */
static const struct {
    const char *key, *text;
} reasons[] = {
    {"generic", "The challenge was declined."},
    {"later", "Not now: ask again later."},
    {"toofast", "This clock is too fast: challenge again with a slower one."},
    {"tooslow", "This clock is too slow: challenge again with a faster one."},
    {"timecontrol", "Not with this time control."},
    {"rated", "Send a rated challenge instead."},
    {"casual", "Send a casual challenge instead."},
    {"standard", "Not a variant now: send a challenge of the variant's standard form."},
    {"variant", "Not this variant now."},
    {"nobot", "No challenges from bots."},
    {"onlybot", "Only challenges from bots."},
};
#define REASONS (sizeof reasons / sizeof reasons[0])

/* The reason's index (any case; NULL: generic), or -1. */
static int reason_of(const char *key)
{
    for (size_t i = 0; i < REASONS; i++)
        if (!key || strcasecmp(key, reasons[i].key) == 0)
            return (int)i;
    return -1;
}

/* ---- Lichess's shape -------------------------------------------------------------------- */

/* An account of a challenge: {id, name, title, rating, provisional, online}. */
static json_t *challenge_user(const char *id, const char *name, BotKind bot, const char *variant)
{
    SeatRow seat = {0};
    AccountReply reply = {0};
    snprintf(seat.user, sizeof seat.user, "%s", id);
    account_rate_seat(&seat, variant, &reply); /* a store that fails: 1500, provisional */
    return json_pack("{s:s, s:s, s:o, s:i, s:b, s:b}", "id", id, "name", name, "title",
                     bot ? json_string("BOT") : json_null(), "rating", seat.rating ? seat.rating : 1500, "provisional",
                     seat.rating ? seat.prov : true, "online", bot_account_online(id));
}

static json_t *time_control(const ChallengeRow *c)
{
    if (c->days)
        return json_pack("{s:s, s:i}", "type", "correspondence", "daysPerTurn", c->days);
    if (!c->has_clock)
        return json_pack("{s:s}", "type", "unlimited");
    char show[32];
    snprintf(show, sizeof show, "%g+%d", c->limit_s / 60.0, c->increment_s);
    return json_pack("{s:s, s:i, s:i, s:s}", "type", "clock", "limit", c->limit_s, "increment", c->increment_s,
                     "show", show);
}

json_t *challenge_json(const ChallengeRow *c, const char *viewer)
{
    const Variant *v = lichess_variant(c->variant);
    if (!v)
        return NULL;
    char url[64];
    snprintf(url, sizeof url, "/#/challenge/%s", c->id);
    json_t *out = json_pack(
        "{s:s, s:s, s:s, s:o, s:o, s:o, s:b, s:s, s:o, s:s, s:{s:s, s:s}, s:s}", "id", c->id, "url", url, "status",
        c->status, "challenger", challenge_user(c->challenger, c->challenger_name, c->challenger_bot, c->variant),
        "destUser", c->dest[0] ? challenge_user(c->dest, c->dest_name, c->dest_bot, c->variant) : json_null(), "variant",
        lichess_variant_json(v), "rated", c->rated, "speed",
        lichess_speed(c->has_clock, c->limit_s * 1000LL, c->increment_s * 1000LL, c->days), "timeControl",
        time_control(c), "color", c->color, "perf", "icon", "", "name", v->def->title, "direction",
        viewer && strcmp(viewer, c->challenger) == 0 ? "out" : "in");
    bool ok = out != NULL;
    if (c->fen[0])
        util_json_put(out, "initialFen", json_string(c->fen), &ok);
    if (c->decline_reason[0]) {
        int r = reason_of(c->decline_reason);
        util_json_put(out, "declineReason", json_string(r >= 0 ? reasons[r].text : c->decline_reason), &ok);
        util_json_put(out, "declineReasonKey", json_string(c->decline_reason), &ok);
    }
    if (!ok) {
        json_decref(out);
        return NULL;
    }
    return out;
}

/* An event about c (type: "challenge", ...) to an account, its direction as that account's. */
static void tell(const char *user_id, const char *type, const ChallengeRow *c)
{
    json_t *challenge = challenge_json(c, user_id);
    json_t *event = challenge ? json_pack("{s:s, s:o}", "type", type, "challenge", challenge) : NULL;
    if (event)
        account_events_publish(user_id, event);
    else
        fprintf(stderr, "starfish: challenge %s: the %s event was lost (out of memory)\n", c->id, type);
}

/* ---- Making one ------------------------------------------------------------------------- */

/* Are the options a game the rules allow? */
static ChallengeStatus check_options(const ChallengeOptions *o, char *message)
{
    const char *why_not = lichess_time_control_error(o->has_clock, o->limit_s, o->increment_s, o->days);
    if (why_not)
        return fail(message, CHALLENGE_BAD, "%s", why_not);
    if (strcmp(o->color, "white") != 0 && strcmp(o->color, "black") != 0 && strcmp(o->color, "random") != 0)
        return fail(message, CHALLENGE_BAD, "\"color\" must be \"white\", \"black\" or \"random\"");
    if (o->rated && o->fen)
        return fail(message, CHALLENGE_BAD, "a rated game starts from the variant's start (no \"fen\")");
    if (o->rated && !o->has_clock && !o->days)
        return fail(message, CHALLENGE_BAD, "a rated game has a clock or days a move");
    char why[200];
    Game g = {0};
    bool fen_ok = !o->fen || game_init(&g, o->v, o->fen, why, sizeof why);
    game_free(&g);
    return fen_ok ? CHALLENGE_OK : fail(message, CHALLENGE_BAD, "bad fen: %s", why);
}

static ChallengeStatus house_accepts(ChallengeRow *c, const UserRow *u, char *message);

/* A fresh id for a challenge: one no game and no challenge has. */
static ChallengeStatus fresh_id(char id[STORE_ID_MAX + 1], char *message)
{
    for (int attempt = 0; attempt < 16; attempt++) {
        if (!util_random_string(id, GAME_ID_LEN, ID_ALPHABET))
            return fail(message, CHALLENGE_FAILED, "no random numbers");
        if (!store_id_taken(store, id) && !store_challenge_id_taken(store, id))
            return CHALLENGE_OK;
    }
    return fail(message, CHALLENGE_FAILED, "no free id");
}

ChallengeStatus challenge_create(const Principal *p, const char *dest, const ChallengeOptions *o, ChallengeRow *c,
                                 char *message)
{
    if (p->via == AUTH_NONE)
        return fail(message, CHALLENGE_DENIED, "log in first (a session or a bearer token)");
    ChallengeStatus status = check_options(o, message);
    if (status != CHALLENGE_OK)
        return status;
    *c = (ChallengeRow){.rated = o->rated, .has_clock = o->has_clock, .limit_s = o->limit_s,
                        .increment_s = o->increment_s, .days = o->days, .created_ms = util_now_ms()};
    snprintf(c->challenger, sizeof c->challenger, "%s", p->user_id);
    snprintf(c->challenger_name, sizeof c->challenger_name, "%s", p->username);
    c->challenger_bot = p->bot;
    snprintf(c->variant, sizeof c->variant, "%s", o->v->def->name);
    snprintf(c->color, sizeof c->color, "%s", o->color);
    snprintf(c->fen, sizeof c->fen, "%s", o->fen ? o->fen : "");
    snprintf(c->status, sizeof c->status, "created");
    UserRow u = {0};
    if (dest) {
        AccountReply reply = {0};
        AccountStatus found = account_find(dest, &u, &reply);
        if (found != ACCOUNT_OK || u.closed_ms)
            return found == ACCOUNT_FAILED ? store_failed(message)
                                           : fail(message, CHALLENGE_NOT_FOUND, "no account '%.40s'", dest);
        if (strcmp(u.id, p->user_id) == 0)
            return fail(message, CHALLENGE_BAD, "you cannot challenge yourself");
        snprintf(c->dest, sizeof c->dest, "%s", u.id);
        snprintf(c->dest_name, sizeof c->dest_name, "%s", u.username);
        c->dest_bot = u.bot;
    }
    if ((status = fresh_id(c->id, message)) != CHALLENGE_OK)
        return status;
    StoreResult stored = store_challenge_insert(store, c);
    if (stored != STORE_OK)
        return stored == STORE_CONFLICT ? fail(message, CHALLENGE_FAILED, "the challenge's id was taken: try again")
                                        : store_failed(message);
    tell(c->challenger, "challenge", c);
    if (c->dest[0])
        tell(c->dest, "challenge", c);
    return bot_house_skill(c->dest) >= 0 ? house_accepts(c, &u, message) : CHALLENGE_OK;
}

ChallengeStatus challenge_find(const char *id, ChallengeRow *c, char *message)
{
    int found = strlen(id) <= STORE_ID_MAX ? store_challenge_get(store, id, c) : 0;
    if (found < 0)
        return store_failed(message);
    return found ? CHALLENGE_OK : fail(message, CHALLENGE_NOT_FOUND, "no challenge '%.20s'", id);
}

/* The open challenge id, for p to answer: as its challenger (to cancel it), or as the one
 * challenged (anyone but the challenger, for an open challenge). */
static ChallengeStatus open_for(const Principal *p, const char *id, bool challenger, ChallengeRow *c, char *message)
{
    if (p->via == AUTH_NONE)
        return fail(message, CHALLENGE_DENIED, "log in first (a session or a bearer token)");
    ChallengeStatus status = challenge_find(id, c, message);
    if (status != CHALLENGE_OK)
        return status;
    if (strcmp(c->status, "created") != 0)
        return fail(message, CHALLENGE_CLOSED, "challenge %s is %s", c->id, c->status);
    bool mine = strcmp(challenger ? c->challenger : c->dest, p->user_id) == 0;
    bool anyone = !challenger && !c->dest[0] && strcmp(c->challenger, p->user_id) != 0; /* open */
    return mine || anyone ? CHALLENGE_OK : fail(message, CHALLENGE_FORBIDDEN, "challenge %s is not yours to %s", c->id,
                                                challenger ? "cancel" : "answer");
}

/* ---- Answering one ---------------------------------------------------------------------- */

/* A GameCall's read for the challenge's game: nothing to read. */
static bool read_nothing(void *ctx, LiveGame *g, int you)
{
    (void)ctx, (void)g, (void)you;
    return true;
}

/* The game of an accepted challenge: the challenger's colour (random: drawn), the accounts'
 * ratings now. */
static ChallengeStatus start_game(const ChallengeRow *c, const Principal *p, char *message)
{
    const Variant *v = lichess_variant(c->variant);
    unsigned char bit = 0;
    if (strcmp(c->color, "random") == 0 && !util_random(&bit, 1))
        return fail(message, CHALLENGE_FAILED, "no random numbers");
    int challenger = strcmp(c->color, "white") == 0 ? WHITE : strcmp(c->color, "black") == 0 ? BLACK : bit & 1;
    GameOptions o = {.v = v, .creator = challenger, .skill = -1, .has_clock = c->has_clock,
                     .base_ms = c->limit_s * 1000LL, .inc_ms = c->increment_s * 1000LL, .days = c->days,
                     .rated = c->rated, .challenge = c->id};
    AccountReply reply = {0};
    SeatRow *seat = &o.seat[challenger];
    snprintf(seat->user, sizeof seat->user, "%s", c->challenger);
    snprintf(seat->name, sizeof seat->name, "%s", c->challenger_name);
    seat->bot = c->challenger_bot;
    o.skill = bot_house_skill(p->user_id); /* a house bot accepting: the engine plays its side */
    o.engine_opponent = o.skill >= 0;
    if (account_rate_seat(seat, v->def->name, &reply) != ACCOUNT_OK ||
        account_seat(p, v->def->name, &o.seat[challenger ^ 1], &reply) != ACCOUNT_OK)
        return store_failed(message);
    Game initial = {0};
    char why[200];
    if (!game_init(&initial, v, c->fen[0] ? c->fen : NULL, why, sizeof why)) {
        game_free(&initial);
        return fail(message, CHALLENGE_FAILED, "%s", why);
    }
    GameCall call = {.read = read_nothing};
    GameStatus made = service_create(&o, &initial, &call);
    if (made == GAME_CONFLICT)
        return fail(message, CHALLENGE_CLOSED, "%s", call.message);
    return made == GAME_OK ? CHALLENGE_OK : fail(message, CHALLENGE_FAILED, "%s", call.message);
}

ChallengeStatus challenge_accept(const Principal *p, const char *id, char *message)
{
    ChallengeRow c;
    ChallengeStatus status = open_for(p, id, false, &c, message);
    return status == CHALLENGE_OK ? start_game(&c, p, message) : status;
}

/* A house bot takes every challenge at once (c: its challenge, just made; u: the bot). */
static ChallengeStatus house_accepts(ChallengeRow *c, const UserRow *u, char *message)
{
    Principal bot = bot_house_principal(u);
    ChallengeStatus status = start_game(c, &bot, message);
    if (status == CHALLENGE_OK)
        snprintf(c->status, sizeof c->status, "accepted");
    return status;
}

/* Ends an open challenge (declined or canceled) and tells both accounts (event `type`). */
static ChallengeStatus end_challenge(ChallengeRow *c, const char *status, const char *reason, const char *type,
                                     char *message)
{
    StoreResult result = store_challenge_end(store, c->id, status, reason);
    if (result == STORE_CONFLICT)
        return fail(message, CHALLENGE_CLOSED, "challenge %s is no longer open", c->id);
    if (result != STORE_OK)
        return store_failed(message);
    snprintf(c->status, sizeof c->status, "%s", status);
    snprintf(c->decline_reason, sizeof c->decline_reason, "%s", reason ? reason : "");
    tell(c->challenger, type, c);
    if (c->dest[0])
        tell(c->dest, type, c);
    return CHALLENGE_OK;
}

ChallengeStatus challenge_decline(const Principal *p, const char *id, const char *reason, char *message)
{
    int r = reason_of(reason);
    if (r < 0)
        return fail(message, CHALLENGE_BAD, "a reason is one of lichess's keys: generic, later, tooFast, tooSlow, "
                                            "timeControl, rated, casual, standard, variant, noBot, onlyBot");
    ChallengeRow c;
    ChallengeStatus status = open_for(p, id, false, &c, message);
    if (status == CHALLENGE_OK && !c.dest[0])
        return fail(message, CHALLENGE_FORBIDDEN, "an open challenge is not declined: leave it");
    return status == CHALLENGE_OK ? end_challenge(&c, "declined", reasons[r].key, "challengeDeclined", message)
                                  : status;
}

ChallengeStatus challenge_cancel(const Principal *p, const char *id, char *message)
{
    ChallengeRow c;
    ChallengeStatus status = open_for(p, id, true, &c, message);
    return status == CHALLENGE_OK ? end_challenge(&c, "canceled", NULL, "challengeCanceled", message) : status;
}

ChallengeStatus challenge_list(const Principal *p, ChallengeRow **rows, int *n, char *message)
{
    if (p->via == AUTH_NONE)
        return fail(message, CHALLENGE_DENIED, "log in first (a session or a bearer token)");
    return store_challenges_of(store, p->user_id, rows, n) ? CHALLENGE_OK : store_failed(message);
}
