/*
 * The account's event stream (GET /api/stream/event), on the main thread: challenges to the
 * bot accepted or declined by the config's filters, the config's tournaments joined once it
 * is open, a thread started for each game that starts (a challenge's or a tournament's, or
 * announced again: the server names every running game when the stream opens), and the table
 * of games.
 *
 * Only this thread touches the table: a game's thread says it has ended through its own
 * flag (bot_game_done), and is joined here.  An accepted challenge holds a place in the table
 * until its gameStart comes (RESERVE_SECONDS at most), so that challenges accepted at once
 * cannot pass the config's concurrency.
 */
#include "bot_events.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../util/clock.h"
#include "bot_game.h"

#define RESERVE_SECONDS 30.0   /* how long an accepted challenge waits for its game */
#define BACKOFF_MIN_S 1.0      /* the first wait before opening the event stream again */
#define BACKOFF_MAX_S 60.0
#define EVENTS_LOOP_MS 200
#define RECENT_CHALLENGES 64   /* challenges answered, remembered so as to answer each once */

typedef enum { SLOT_FREE, SLOT_RESERVED, SLOT_RUNNING } SlotState;

typedef struct Slot {
    SlotState state;
    char id[BOT_ID_MAX];
    double since;   /* when reserved */
    BotGame *game;
    pthread_t thread;
} Slot;

static Slot slots[BOT_MAX_GAMES];
static char recent[RECENT_CHALLENGES][BOT_ID_MAX];
static int recent_next;

/* ---- The table of games ---------------------------------------------------------------- */

static Slot *find_slot(const char *id)
{
    for (int i = 0; i < BOT_MAX_GAMES; i++)
        if (slots[i].state != SLOT_FREE && strcmp(slots[i].id, id) == 0)
            return &slots[i];
    return NULL;
}

static Slot *free_slot(void)
{
    for (int i = 0; i < BOT_MAX_GAMES; i++)
        if (slots[i].state == SLOT_FREE)
            return &slots[i];
    return NULL;
}

/* Games under way, and challenges accepted whose game has not started yet. */
static int games_now(void)
{
    int n = 0;
    for (int i = 0; i < BOT_MAX_GAMES; i++)
        n += slots[i].state != SLOT_FREE;
    return n;
}

/* Joins the threads of games that ended, and lets go of reservations that waited too long. */
static void reap(void)
{
    double now = clock_seconds();
    for (int i = 0; i < BOT_MAX_GAMES; i++) {
        Slot *s = &slots[i];
        if (s->state == SLOT_RUNNING && bot_game_done(s->game)) {
            pthread_join(s->thread, NULL);
            bot_game_free(s->game);
            s->state = SLOT_FREE;
        } else if (s->state == SLOT_RESERVED && now - s->since > RESERVE_SECONDS) {
            s->state = SLOT_FREE;
        }
    }
}

static void reserve(const char *id)
{
    Slot *s = find_slot(id);
    if (!s && (s = free_slot())) {
        s->state = SLOT_RESERVED;
        snprintf(s->id, sizeof s->id, "%s", id);
        s->since = clock_seconds();
    }
}

/* gameStart: the game's thread, unless it runs already. */
static void start_game(const Bot *b, const char *id)
{
    Slot *s = find_slot(id);
    if (s && s->state == SLOT_RUNNING)
        return;
    if (!s && !(s = free_slot())) {
        bot_log("game %s: not played: %d games at once already", id, BOT_MAX_GAMES);
        return;
    }
    BotGame *g = bot_game_new(b, id);
    if (!g || pthread_create(&s->thread, NULL, bot_game_run, g) != 0) {
        bot_log("game %s: not played: %s", id, g ? "cannot start its thread" : "out of memory");
        bot_game_free(g);
        s->state = SLOT_FREE;
        return;
    }
    snprintf(s->id, sizeof s->id, "%s", id);
    s->game = g;
    s->state = SLOT_RUNNING;
}

static void game_finished(const char *id)
{
    Slot *s = find_slot(id);
    if (s && s->state == SLOT_RUNNING)
        bot_game_finish_seen(s->game);
}

/* ---- Challenges ------------------------------------------------------------------------ */

/* Was this challenge answered already?  (It may come on the stream and in GET /api/challenge.) */
static bool answered(const char *id)
{
    for (int i = 0; i < RECENT_CHALLENGES; i++)
        if (strcmp(recent[i], id) == 0)
            return true;
    snprintf(recent[recent_next], BOT_ID_MAX, "%s", id);
    recent_next = (recent_next + 1) % RECENT_CHALLENGES;
    return false;
}

static void read_challenge(json_t *c, ChallengeInfo *ch)
{
    memset(ch, 0, sizeof *ch);
    snprintf(ch->id, sizeof ch->id, "%s", json_text(c, "id"));
    snprintf(ch->challenger, sizeof ch->challenger, "%s", json_text(c, "challenger.name"));
    snprintf(ch->variant, sizeof ch->variant, "%s", json_text(c, "variant.key"));
    snprintf(ch->speed, sizeof ch->speed, "%s", json_text(c, "speed"));
    ch->rated = json_flag(c, "rated");
    ch->challenger_is_bot = strcmp(json_text(c, "challenger.title"), "BOT") == 0;
    const char *type = json_text(c, "timeControl.type");
    ch->tc = strcmp(type, "clock") == 0 ? TC_CLOCK : strcmp(type, "correspondence") == 0 ? TC_CORRESPONDENCE
                                                                                         : TC_UNLIMITED;
    ch->limit_s = (int)json_number(c, "timeControl.limit");
    ch->increment_s = (int)json_number(c, "timeControl.increment");
    ch->days = (int)json_number(c, "timeControl.daysPerTurn");
}

/* The challenge in a line of the log: "ID from NAME: VARIANT, 1+0, rated". */
static void describe(const ChallengeInfo *ch, char *out, size_t len)
{
    char tc[48];
    if (ch->tc == TC_CLOCK)
        snprintf(tc, sizeof tc, "%g+%d", ch->limit_s / 60.0, ch->increment_s);
    else if (ch->tc == TC_CORRESPONDENCE)
        snprintf(tc, sizeof tc, "%d day%s a move", ch->days, ch->days == 1 ? "" : "s");
    else
        snprintf(tc, sizeof tc, "unlimited");
    snprintf(out, len, "%s from %s%s: %s, %s, %s", ch->id, ch->challenger, ch->challenger_is_bot ? " (bot)" : "",
             ch->variant, tc, ch->rated ? "rated" : "casual");
}

/* A challenge to the bot: accepted, or declined with the reason the filters give. */
static void decide(const Bot *b, json_t *c)
{
    const char *status = json_text(c, "status");
    if (strcasecmp(json_text(c, "challenger.id"), b->me_id) == 0 ||
        strcasecmp(json_text(c, "destUser.id"), b->me_id) != 0 || (*status && strcmp(status, "created") != 0))
        return; /* the bot's own, an open one, or no longer open */
    ChallengeInfo ch;
    read_challenge(c, &ch);
    if (!*ch.id || answered(ch.id))
        return;
    char about[256], path[128], why[300], err[256], form[64];
    describe(&ch, about, sizeof about);
    const char *reason = bot_verdict(&b->cfg, &ch, games_now());
    Text body = {0};
    snprintf(path, sizeof path, "/api/challenge/%s/%s", ch.id, reason ? "decline" : "accept");
    snprintf(form, sizeof form, "reason=%s", reason ? reason : "");
    long st = http_call(&b->conn, "POST", path, reason ? form : "", &body, err, sizeof err);
    if (st == 200 && !reason)
        reserve(ch.id);
    if (st == 200 && reason)
        bot_log("challenge %s: declined (%s)", about, reason);
    else if (st == 200)
        bot_log("challenge %s: accepted", about);
    else {
        http_describe(st, &body, err, why, sizeof why);
        bot_log("challenge %s: could not be %s: %s", about, reason ? "declined" : "accepted", why);
    }
    text_free(&body);
}

/* The challenges that came while the bot was away (lichess names them on the stream too). */
static void waiting_challenges(const Bot *b)
{
    json_t *all = NULL;
    char err[256];
    long st = http_get_json(&b->conn, "/api/challenge", &all, err, sizeof err);
    if (st != 200 && st)
        snprintf(err, sizeof err, "%ld", st);
    if (st != 200) {
        bot_log("the waiting challenges cannot be read: %s", err);
    } else {
        size_t i;
        json_t *c;
        json_array_foreach(json_object_get(all, "in"), i, c) decide(b, c);
    }
    json_decref(all);
}

static void on_event(const Bot *b, json_t *o)
{
    const char *type = json_text(o, "type");
    const char *game = *json_text(o, "game.gameId") ? json_text(o, "game.gameId") : json_text(o, "game.id");
    if (strcmp(type, "challenge") == 0)
        decide(b, json_at(o, "challenge"));
    else if (strcmp(type, "gameStart") == 0 && *game)
        start_game(b, game);
    else if (strcmp(type, "gameFinish") == 0 && *game)
        game_finished(game);
    else if (strcmp(type, "challengeCanceled") == 0)
        bot_log("challenge %s: canceled", json_text(o, "challenge.id"));
}

/* ---- Tournaments ----------------------------------------------------------------------- */

/* The config's tournaments joined (POST /api/tournament/ID/join), once the event stream is
 * open: the server pairs only players it sees online, and their games come as gameStart. */
static void join_tournaments(const Bot *b)
{
    for (int i = 0; i < b->cfg.njoin; i++) {
        char path[128], err[256], why[300];
        Text body = {0};
        snprintf(path, sizeof path, "/api/tournament/%s/join", b->cfg.join[i]);
        long st = http_call(&b->conn, "POST", path, "", &body, err, sizeof err);
        if (st == 200) {
            bot_log("tournament %s: joined", b->cfg.join[i]);
        } else {
            http_describe(st, &body, err, why, sizeof why);
            bot_log("tournament %s: not joined: %s", b->cfg.join[i], why);
        }
        text_free(&body);
    }
}

/* ---- The stream ------------------------------------------------------------------------ */

int bot_events_run(const Bot *b)
{
    BotStream s = {0};
    double backoff = BACKOFF_MIN_S, retry_at = 0;
    bool listening = false, ever = false;
    char err[256];
    while (!bot_stopping()) {
        reap();
        if (!stream_is_open(&s) && clock_seconds() >= retry_at && !s.multi) {
            if (!stream_open(&s, &b->conn, "/api/stream/event", "the event stream", err, sizeof err)) {
                bot_log("%s", err);
                retry_at = clock_seconds() + BACKOFF_MAX_S;
            }
            listening = false;
        }
        bool ready;
        StreamState st = stream_pump(&s, -1, EVENTS_LOOP_MS, &ready);
        if (!listening && stream_status(&s) == 200) { /* the server has us: nothing is missed from now on */
            listening = true;
            bot_log(ever ? "the event stream is back" : "listening for challenges as %s on %s", b->me_name,
                    b->conn.base);
            if (!ever)
                join_tournaments(b);
            ever = true;
            waiting_challenges(b);
        }
        json_t *o;
        while ((o = stream_next(&s))) {
            on_event(b, o);
            json_decref(o);
            backoff = BACKOFF_MIN_S;
        }
        if (st == STREAM_OPEN || !s.multi)
            continue;
        long status = s.status;
        snprintf(err, sizeof err, "%s", st == STREAM_FAILED ? s.err : "the server ended it");
        stream_close(&s);
        if (status == 401) {
            bot_log("the server refused the token: %s", err);
            bot_request_stop(1);
            break;
        }
        double wait = status == 429 ? RATE_LIMIT_SECONDS : backoff; /* lichess: a minute after a 429 */
        bot_log("the event stream dropped (%s): again in %.0f s", err, wait);
        retry_at = clock_seconds() + wait;
        backoff = backoff * 2 > BACKOFF_MAX_S ? BACKOFF_MAX_S : backoff * 2;
    }
    stream_close(&s);
    reap();
    int running = 0;
    for (int i = 0; i < BOT_MAX_GAMES; i++)
        running += slots[i].state == SLOT_RUNNING;
    return running;
}

void bot_events_join(void)
{
    for (int i = 0; i < BOT_MAX_GAMES; i++)
        if (slots[i].state == SLOT_RUNNING) {
            pthread_join(slots[i].thread, NULL);
            bot_game_free(slots[i].game);
        }
    memset(slots, 0, sizeof slots);
}
