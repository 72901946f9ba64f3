/*
 * UCI's options: one table prints them for `uci` and applies them for `setoption` (each value
 * checked against its option's type and range first), and at `isready` the session says which
 * evaluation its next search uses.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../engine/search.h"
#include "../nnue/nnue.h"
#include "../tablebase/tb.h"
#include "../util/options.h"
#include "../util/parse.h"
#include "../util/version.h"
#include "../variants/registry.h"
#include "uci_session.h"

typedef enum { UCI_SPIN, UCI_CHECK, UCI_BUTTON, UCI_STRING, UCI_COMBO } UciOptionType;

typedef struct UciOption {
    const char *name;
    UciOptionType type;
    const char *def; /* the default, as text */
    int min, max;    /* UCI_SPIN */
    /* Applies a value already checked against the type and range (number: its value). */
    void (*apply)(Session *s, const char *value, int number);
} UciOption;

/* The strength the engine plays at: Skill Level, or UCI_Elo when strength is limited. */
static void apply_strength(Session *s)
{
    int skill = s->skill_level;
    if (s->limit_strength) /* 800 Elo plays as level 0, 2800 as level 20 */
        skill = (s->elo - 800) / 100;
    s->engine.skill = skill < 0 ? 0 : skill > 20 ? 20 : skill;
}

static void set_variant(Session *s, const char *value, int number)
{
    (void)number;
    const Variant *v = variant_by_name(value);
    if (!v) {
        uci_error(s, "unknown variant '%s'", value);
        return;
    }
    s->variant = v;
    uci_reset_game(s);
    uci_say(s, "info string variant %s", v->def->name);
}

static void set_threads(Session *s, const char *value, int number)
{
    if (!engine_set_threads(&s->engine, number))
        uci_error(s, "cannot start %s threads", value);
}

static void set_hash(Session *s, const char *value, int number)
{
    if (!tt_resize(&s->engine.tt, (size_t)number))
        uci_error(s, "cannot allocate %s MB for the hash table", value);
}

static void clear_hash(Session *s, const char *value, int number)
{
    (void)value, (void)number;
    engine_new_game(&s->engine);
}

static void set_multipv(Session *s, const char *value, int number)
{
    (void)value;
    s->engine.multipv = number;
}

static void set_ponder(Session *s, const char *value, int number)
{
    (void)s, (void)value, (void)number; /* pondering needs no preparation */
}

static void set_skill(Session *s, const char *value, int number)
{
    (void)value;
    s->skill_level = number;
    apply_strength(s);
}

static void set_limit_strength(Session *s, const char *value, int number)
{
    (void)value;
    s->limit_strength = number;
    apply_strength(s);
}

static void set_elo(Session *s, const char *value, int number)
{
    (void)value;
    s->elo = number;
    apply_strength(s);
}

static void set_greedy(Session *s, const char *value, int number)
{
    (void)value;
    s->engine.greedy = number;
}

/* The Starchess tables' folder (`starfish tb generate`); "<empty>" turns them off. */
static void set_tablebase_path(Session *s, const char *value, int number)
{
    (void)s, (void)number;
    tb_set_dir(strcmp(value, "<empty>") == 0 ? "" : value);
}

static void set_use_nnue(Session *s, const char *value, int number)
{
    (void)value;
    s->engine.use_nnue = number;
}

/* A net file for its variant (any of ours, said when not the current one); "<built in>": the
 * current variant's own again. */
static void set_eval_file(Session *s, const char *value, int number)
{
    (void)number;
    char why[200];
    if (strcmp(value, "<built in>") == 0) {
        nnue_use_builtin(s->variant);
        return;
    }
    const NnueNet *net = nnue_load_file(value, why, sizeof why);
    if (!net)
        uci_error(s, "EvalFile '%s' refused: %s; the net in use is kept", value, why);
    else if (nnue_net_for(s->variant) != net)
        uci_say(s, "info string EvalFile %s is a net for %s: %s plays with it from now on, %s does not", net->name,
            net->variant, net->variant, s->variant->def->name);
}

/* Which evaluation the next search of the current variant uses, said at `isready` when it
 * changed since it was last said (the hand-written one needs no word at the start). */
void uci_say_evaluation(Session *s)
{
    bool off = !s->engine.use_nnue;
    const NnueNet *net = off ? NULL : nnue_net_for(s->variant);
    if (net == s->said_net && off == s->said_off)
        return;
    if (off)
        uci_say(s, "info string hand-written evaluation enabled (Use NNUE false)");
    else if (!net)
        uci_say(s, "info string hand-written evaluation: no net for %s yet", s->variant->def->name);
    else
        uci_say(s, "info string NNUE evaluation using %s (%zu KiB)", net->name, (net->bytes + 1023) / 1024);
    s->said_net = net;
    s->said_off = off;
}

static const UciOption options[] = {
    {"UCI_Variant", UCI_COMBO, NULL, 0, 0, set_variant},
    {"Threads", UCI_SPIN, "1", 1, MAX_THREADS, set_threads},
    {"Hash", UCI_SPIN, NUMBER_TEXT(HASH_DEFAULT), 1, HASH_MAX, set_hash},
    {"Clear Hash", UCI_BUTTON, NULL, 0, 0, clear_hash},
    {"MultiPV", UCI_SPIN, "1", 1, MAX_MULTIPV, set_multipv},
    {"Ponder", UCI_CHECK, "false", 0, 0, set_ponder},
    {"Skill Level", UCI_SPIN, "20", 0, 20, set_skill},
    {"UCI_LimitStrength", UCI_CHECK, "false", 0, 0, set_limit_strength},
    {"UCI_Elo", UCI_SPIN, "1500", 800, 2800, set_elo},
    {"Greedy", UCI_CHECK, "false", 0, 0, set_greedy},
    {"TablebasePath", UCI_STRING, "tb", 0, 0, set_tablebase_path},
    {"Use NNUE", UCI_CHECK, "true", 0, 0, set_use_nnue},
    {"EvalFile", UCI_STRING, "<built in>", 0, 0, set_eval_file},
};

void uci_cmd_uci(Session *s)
{
    static const char *type_names[] = {"spin", "check", "button", "string", "combo"};
    uci_say(s, "id name starfish %s", version_number());
    uci_say(s, "id author the starfish developers");
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        const UciOption *o = &options[i];
        char text[4096];
        int len = snprintf(text, sizeof text, "option name %s type %s", o->name, type_names[o->type]);
        if (o->type == UCI_COMBO) {
            len += snprintf(text + len, sizeof text - (size_t)len, " default %s", variant_at(0)->def->name);
            for (int k = 0; k < variant_count() && (size_t)len < sizeof text; k++)
                len += snprintf(text + len, sizeof text - (size_t)len, " var %s", variant_at(k)->def->name);
        } else if (o->def) {
            len += snprintf(text + len, sizeof text - (size_t)len, " default %s", o->def);
        }
        if (o->type == UCI_SPIN)
            snprintf(text + len, sizeof text - (size_t)len, " min %d max %d", o->min, o->max);
        uci_say(s, "%s", text);
    }
    uci_say(s, "uciok");
}

/* Checks a value against its option's type and range, then applies it. */
static void set_option(Session *s, const char *name, const char *value)
{
    const UciOption *o = NULL;
    for (size_t i = 0; i < sizeof options / sizeof options[0] && !o; i++)
        if (strcasecmp(name, options[i].name) == 0)
            o = &options[i];
    if (!o) {
        uci_error(s, "unknown option '%s'", name);
        return;
    }
    int number = 0;
    if (o->type == UCI_SPIN && !parse_int(value, o->min, o->max, &number)) {
        uci_error(s, "%s must be a number from %d to %d, not '%s'", o->name, o->min, o->max, value);
        return;
    }
    if (o->type == UCI_CHECK) {
        if (strcmp(value, "true") != 0 && strcmp(value, "false") != 0) {
            uci_error(s, "%s must be true or false, not '%s'", o->name, value);
            return;
        }
        number = strcmp(value, "true") == 0;
    }
    o->apply(s, value, number);
}

void uci_cmd_setoption(Session *s, char **tok, int n)
{
    /* setoption name NAME... value VALUE... */
    char name[256] = "", value[256] = "";
    char *dst = NULL;
    for (int i = 1; i < n; i++) {
        if (strcmp(tok[i], "name") == 0 && !dst) {
            dst = name;
            continue;
        }
        if (strcmp(tok[i], "value") == 0 && dst == name) {
            dst = value;
            continue;
        }
        if (!dst || strlen(dst) + strlen(tok[i]) + 2 > sizeof name) {
            uci_error(s, "malformed setoption: expected 'setoption name NAME value VALUE'");
            return;
        }
        if (*dst)
            strcat(dst, " ");
        strcat(dst, tok[i]);
    }
    set_option(s, name, value);
}
