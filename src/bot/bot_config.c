/*
 * The bot's config: `key = value` lines (docs/bots.md lists every key), and the filters that
 * decide a challenge from it.  A table holds every key: its name, what its value is, where it
 * goes; one function reads each kind of value.  A bad line is refused with its number and
 * why, so a bot never starts on a config it read otherwise than it was meant.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../util/error.h"
#include "../util/parse.h"
#include "../util/text.h"
#include "bot.h"

static const char *const speed_names[SPEEDS] = {"ultraBullet", "bullet", "blitz", "rapid", "classical",
                                                "correspondence"};

Speed bot_speed(const char *key)
{
    for (int s = 0; s < SPEEDS; s++)
        if (strcmp(key, speed_names[s]) == 0)
            return (Speed)s;
    return SPEEDS;
}

void bot_config_defaults(BotConfig *c)
{
    memset(c, 0, sizeof *c);
    c->move_overhead_ms = 100;
    c->movetime_ms = 10000;
    /* lichess lets no bot play ultraBullet; a config may ask for it where the server allows */
    c->speeds = ~0u & ((1u << SPEEDS) - 1) & ~(1u << SPEED_ULTRABULLET);
    c->clock_max_s = 180 * 60;
    c->increment_max_s = 180;
    c->days_min = 1;
    c->days_max = 14;
    c->rated = c->casual = c->bots = c->humans = true;
    c->concurrency = 1;
    c->resign_moves = 3;
}

/* ---- Values ---------------------------------------------------------------------------- */

typedef enum { V_TEXT, V_INT, V_LONG, V_BOOL, V_SPEEDS, V_VARIANTS, V_JOIN, V_OFFER, V_STOP } ValueKind;

typedef struct Key {
    const char *name;
    ValueKind kind;
    size_t offset; /* of the field in BotConfig */
    long min, max; /* V_INT, V_LONG; V_TEXT: the field's size in max */
} Key;

#define FIELD(f) offsetof(BotConfig, f)
static const Key keys[] = {
    {"server", V_TEXT, FIELD(server), 0, sizeof ((BotConfig *)0)->server},
    {"token", V_TEXT, FIELD(token), 0, sizeof ((BotConfig *)0)->token},
    {"engine", V_TEXT, FIELD(engine), 0, sizeof ((BotConfig *)0)->engine},
    {"go.nodes", V_LONG, FIELD(go_nodes), 0, 2000000000},
    {"go.depth", V_INT, FIELD(go_depth), 0, 128},
    {"move_overhead", V_INT, FIELD(move_overhead_ms), 0, 60000},
    {"movetime", V_INT, FIELD(movetime_ms), 10, 3600000},
    {"variants", V_VARIANTS, FIELD(variants), 0, 0},
    {"speeds", V_SPEEDS, FIELD(speeds), 0, 0},
    {"clock.min", V_INT, FIELD(clock_min_s), 0, 10800},
    {"clock.max", V_INT, FIELD(clock_max_s), 0, 10800},
    {"increment.min", V_INT, FIELD(increment_min_s), 0, 180},
    {"increment.max", V_INT, FIELD(increment_max_s), 0, 180},
    {"days.min", V_INT, FIELD(days_min), 1, 14},
    {"days.max", V_INT, FIELD(days_max), 1, 14},
    {"unlimited", V_BOOL, FIELD(unlimited), 0, 0},
    {"rated", V_BOOL, FIELD(rated), 0, 0},
    {"casual", V_BOOL, FIELD(casual), 0, 0},
    {"bots", V_BOOL, FIELD(bots), 0, 0},
    {"humans", V_BOOL, FIELD(humans), 0, 0},
    {"concurrency", V_INT, FIELD(concurrency), 1, BOT_MAX_GAMES},
    {"draws", V_OFFER, FIELD(draws), 0, 0},
    {"takebacks", V_OFFER, FIELD(takebacks), 0, 0},
    {"resign.score", V_INT, FIELD(resign_score_cp), 0, 100000},
    {"resign.moves", V_INT, FIELD(resign_moves), 1, 100},
    {"on_stop", V_STOP, FIELD(on_stop), 0, 0},
    {"join", V_JOIN, FIELD(join), 0, 0},
    {"berserk", V_BOOL, FIELD(berserk), 0, 0},
};
#define NKEYS (sizeof keys / sizeof keys[0])

static bool read_bool(const char *v, bool *out)
{
    bool yes = !strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcasecmp(v, "on") || !strcmp(v, "1");
    bool no = !strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcasecmp(v, "off") || !strcmp(v, "0");
    if (yes || no)
        *out = yes;
    return yes || no;
}

/* Calls each(word) for every word of a list (spaces or commas between); false when it does. */
static bool each_word(const char *list, bool (*each)(void *ctx, const char *word, char *err, size_t errlen),
                      void *ctx, char *err, size_t errlen)
{
    char word[BOT_KEY_MAX * 2];
    for (const char *p = list; *p;) {
        p += strspn(p, " \t,");
        size_t n = strcspn(p, " \t,");
        if (n == 0)
            break;
        if (n >= sizeof word)
            return error_set(err, errlen, "'%.*s...' is too long", 20, p);
        memcpy(word, p, n);
        word[n] = 0;
        if (!each(ctx, word, err, errlen))
            return false;
        p += n;
    }
    return true;
}

static bool add_speed(void *ctx, const char *word, char *err, size_t errlen)
{
    Speed s = bot_speed(word);
    if (s == SPEEDS)
        return error_set(err, errlen, "unknown speed '%s' (ultraBullet, bullet, blitz, rapid, classical, "
                                      "correspondence)", word);
    *(unsigned *)ctx |= 1u << s;
    return true;
}

static bool add_variant(void *ctx, const char *word, char *err, size_t errlen)
{
    BotConfig *c = ctx;
    if (strlen(word) >= BOT_KEY_MAX)
        return error_set(err, errlen, "variant '%.20s...' is too long", word);
    if (c->nvariants == BOT_VARIANTS_MAX)
        return error_set(err, errlen, "more than %d variants", BOT_VARIANTS_MAX);
    snprintf(c->variants[c->nvariants++], BOT_KEY_MAX, "%s", strcmp(word, "chess") == 0 ? "standard" : word);
    return true;
}

static bool add_join(void *ctx, const char *word, char *err, size_t errlen)
{
    BotConfig *c = ctx;
    if (strlen(word) >= BOT_ID_MAX || strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") !=
                                          strlen(word))
        return error_set(err, errlen, "'%.20s' is not a tournament's id (letters and digits)", word);
    if (c->njoin == BOT_JOIN_MAX)
        return error_set(err, errlen, "more than %d tournaments to join", BOT_JOIN_MAX);
    snprintf(c->join[c->njoin++], BOT_ID_MAX, "%s", word);
    return true;
}

/* One value of a kind into its field. */
static bool set_value(BotConfig *c, const Key *k, const char *value, char *err, size_t errlen)
{
    void *field = (char *)c + k->offset;
    bool b;
    switch (k->kind) {
    case V_TEXT:
        if (strlen(value) >= (size_t)k->max)
            return error_set(err, errlen, "%s is too long (%ld bytes at most)", k->name, k->max - 1);
        memcpy(field, value, strlen(value) + 1);
        return true;
    case V_INT:
        return parse_int(value, (int)k->min, (int)k->max, field) ||
               error_set(err, errlen, "%s must be a number from %ld to %ld, not '%s'", k->name, k->min, k->max, value);
    case V_LONG:
        return parse_long(value, k->min, k->max, field) ||
               error_set(err, errlen, "%s must be a number from %ld to %ld, not '%s'", k->name, k->min, k->max, value);
    case V_BOOL:
        if (!read_bool(value, &b))
            return error_set(err, errlen, "%s must be yes or no, not '%s'", k->name, value);
        *(bool *)field = b;
        return true;
    case V_SPEEDS:
        c->speeds = 0;
        return each_word(value, add_speed, &c->speeds, err, errlen);
    case V_VARIANTS:
        c->nvariants = 0;
        return each_word(value, add_variant, c, err, errlen);
    case V_JOIN:
        c->njoin = 0;
        return each_word(value, add_join, c, err, errlen);
    case V_OFFER:
        if (strcmp(value, "decline") && strcmp(value, "accept") && strcmp(value, "ignore"))
            return error_set(err, errlen, "%s must be decline, accept or ignore, not '%s'", k->name, value);
        *(OfferPolicy *)field = value[0] == 'd' ? OFFER_DECLINE : value[0] == 'a' ? OFFER_ACCEPT : OFFER_IGNORE;
        return true;
    case V_STOP:
        if (strcmp(value, "leave") && strcmp(value, "resign") && strcmp(value, "abort"))
            return error_set(err, errlen, "%s must be leave, resign or abort, not '%s'", k->name, value);
        *(StopPolicy *)field = value[0] == 'l' ? STOP_LEAVE : value[0] == 'r' ? STOP_RESIGN : STOP_ABORT;
        return true;
    }
    return false;
}

/* uci.NAME = VALUE: an engine option, set at the engine's start. */
static bool set_engine_option(BotConfig *c, const char *name, const char *value, char *err, size_t errlen)
{
    if (!*name || strlen(name) >= sizeof c->opt_name[0] || strlen(value) >= sizeof c->opt_value[0])
        return error_set(err, errlen, "uci.NAME = VALUE: a name of 1 to %zu bytes, a value of %zu at most",
                         sizeof c->opt_name[0] - 1, sizeof c->opt_value[0] - 1);
    int i = 0;
    while (i < c->nopt && strcmp(c->opt_name[i], name) != 0)
        i++;
    if (i == BOT_OPTIONS_MAX)
        return error_set(err, errlen, "more than %d engine options", BOT_OPTIONS_MAX);
    if (i == c->nopt)
        c->nopt++;
    snprintf(c->opt_name[i], sizeof c->opt_name[i], "%s", name);
    snprintf(c->opt_value[i], sizeof c->opt_value[i], "%s", value);
    return true;
}

bool bot_config_set(BotConfig *c, const char *key, const char *value, char *err, size_t errlen)
{
    if (strncmp(key, "uci.", 4) == 0)
        return set_engine_option(c, key + 4, value, err, errlen);
    for (size_t i = 0; i < NKEYS; i++)
        if (strcmp(key, keys[i].name) == 0)
            return set_value(c, &keys[i], value, err, errlen);
    return error_set(err, errlen, "unknown key '%.60s' (docs/bots.md lists them)", key);
}

/* ---- The file -------------------------------------------------------------------------- */

/* Cuts blanks from both ends of s (in place); returns its start. */
static char *trim(char *s)
{
    s += strspn(s, " \t\r");
    size_t n = strlen(s);
    while (n > 0 && strchr(" \t\r", s[n - 1]))
        s[--n] = 0;
    return s;
}

/* Ranges the keys make together: a minimum above its maximum is a mistake. */
static bool check_ranges(const BotConfig *c, char *err, size_t errlen)
{
    if (c->clock_min_s > c->clock_max_s)
        return error_set(err, errlen, "clock.min (%d) is above clock.max (%d)", c->clock_min_s, c->clock_max_s);
    if (c->increment_min_s > c->increment_max_s)
        return error_set(err, errlen, "increment.min (%d) is above increment.max (%d)", c->increment_min_s,
                         c->increment_max_s);
    if (c->days_min > c->days_max)
        return error_set(err, errlen, "days.min (%d) is above days.max (%d)", c->days_min, c->days_max);
    return true;
}

bool bot_config_read(BotConfig *c, const char *text, const char *name, char *err, size_t errlen)
{
    char line[2048], why[300];
    int number = 0;
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        number++;
        if (n >= sizeof line)
            return error_set(err, errlen, "%s:%d: line longer than %zu bytes", name, number, sizeof line - 1);
        memcpy(line, p, n);
        line[n] = 0;
        p += n + (p[n] == '\n');
        char *t = trim(line);
        if (!*t || *t == '#')
            continue;
        char *eq = strchr(t, '=');
        if (!eq)
            return error_set(err, errlen, "%s:%d: expected 'key = value', not '%.60s'", name, number, t);
        *eq = 0;
        if (!bot_config_set(c, trim(t), trim(eq + 1), why, sizeof why))
            return error_set(err, errlen, "%s:%d: %s", name, number, why);
    }
    return check_ranges(c, why, sizeof why) || error_set(err, errlen, "%s: %s", name, why);
}

bool bot_config_load(BotConfig *c, const char *path, char *err, size_t errlen)
{
    Text t = {0};
    if (!text_read_file(&t, path)) {
        error_set(err, errlen, "cannot read the config %s: %s", path, strerror(errno));
        text_free(&t);
        return false;
    }
    bool ok = strlen(text_str(&t)) == t.len ? bot_config_read(c, text_str(&t), path, err, errlen)
                                            : error_set(err, errlen, "%s: a NUL byte in the config", path);
    text_free(&t);
    return ok;
}

void bot_config_engine_variants(BotConfig *c, const char *engine_variants)
{
    char err[200];
    if (c->nvariants > 0)
        return;
    if (!*engine_variants || !each_word(engine_variants, add_variant, c, err, sizeof err) || c->nvariants == 0) {
        c->nvariants = 0;
        add_variant(c, "standard", err, sizeof err);
    }
}

const char *bot_uci_variant(const char *key)
{
    static const char *const names[][2] = {
        {"standard", "chess"},          {"fromPosition", "chess"},    {"kingOfTheHill", "kingofthehill"},
        {"threeCheck", "3check"},       {"racingKings", "racingkings"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(key, names[i][0]) == 0)
            return names[i][1];
    return key;
}

/* ---- The filters ----------------------------------------------------------------------- */

static bool accepts_variant(const BotConfig *c, const char *key)
{
    for (int i = 0; i < c->nvariants; i++)
        if (strcmp(c->variants[i], key) == 0)
            return true;
    return false;
}

/* Why a speed the config does not take is refused: every taken speed slower, every one
 * faster, or some of each. */
static const char *speed_reason(const BotConfig *c, Speed s)
{
    unsigned clocks = c->speeds & ~(1u << SPEED_CORRESPONDENCE);
    unsigned faster = clocks & ((1u << s) - 1), slower = clocks & ~((1u << (s + 1)) - 1);
    return slower && !faster ? "toofast" : faster && !slower ? "tooslow" : "timecontrol";
}

/* The time control's verdict: NULL when the config takes it. */
static const char *time_control_reason(const BotConfig *c, const ChallengeInfo *ch)
{
    if (ch->tc == TC_UNLIMITED)
        return c->unlimited ? NULL : "timecontrol";
    if (ch->tc == TC_CORRESPONDENCE) {
        if (!(c->speeds & (1u << SPEED_CORRESPONDENCE)))
            return "tooslow";
        return ch->days < c->days_min ? "toofast" : ch->days > c->days_max ? "tooslow" : NULL;
    }
    Speed s = bot_speed(ch->speed);
    if (s == SPEEDS || s == SPEED_CORRESPONDENCE)
        return "timecontrol";
    if (!(c->speeds & (1u << s)))
        return speed_reason(c, s);
    if (ch->limit_s < c->clock_min_s || ch->increment_s < c->increment_min_s)
        return "toofast";
    if (ch->limit_s > c->clock_max_s || ch->increment_s > c->increment_max_s)
        return "tooslow";
    return NULL;
}

const char *bot_verdict(const BotConfig *c, const ChallengeInfo *ch, int games_now)
{
    if (ch->challenger_is_bot ? !c->bots : !c->humans)
        return ch->challenger_is_bot ? "nobot" : "onlybot";
    if (!accepts_variant(c, ch->variant))
        return c->nvariants == 1 && strcmp(c->variants[0], "standard") == 0 ? "standard" : "variant";
    const char *why = time_control_reason(c, ch);
    if (why)
        return why;
    if (ch->rated ? !c->rated : !c->casual)
        return ch->rated ? "casual" : "rated";
    return games_now >= c->concurrency ? "later" : NULL;
}
