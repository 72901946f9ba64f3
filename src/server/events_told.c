/* What a game's event streams are told (events_told.h): the state first, then patches. */
#include "events_told.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../util/text.h"
#include "game_json.h"
#include "util.h"

#define CLOCK_KEY 6 /* the figures of clock_key */
#define BERSERKS 5  /* its berserks */

/* What a game's streams were last told. */
typedef struct Told {
    int n;                  /* moves */
    uint64_t moves_key;     /* of their coordinate texts: moves taken back and others played differ */
    json_t *fields;         /* GAME's fields but "moves", "legal" and "clock" */
    int64_t clock[CLOCK_KEY]; /* what the clock's figures follow from (clock_key) */
    char *state[AUDIENCES]; /* each audience's GAME without "clock", as JSON text, once a stream needed it */
} Told;

static void told_free(void *p)
{
    Told *t = p;
    if (!t)
        return;
    json_decref(t->fields);
    for (int a = 0; a < AUDIENCES; a++)
        free(t->state[a]);
    free(t);
}

void told_forget(LiveGame *g)
{
    told_free(g->told);
    g->told = NULL;
}

static uint64_t moves_key(const LiveGame *g, int n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a over the texts, each with its NUL */
    for (int i = 0; i < n; i++) {
        const unsigned char *p = (const unsigned char *)g->uci[i];
        do
            h = (h ^ *p) * 1099511628211ull;
        while (*p++);
    }
    return h;
}

/* What the clock's figures follow from: between two changes of these, its figures are the
 * running side's counting down, which a client does itself; and its berserks (the last). */
static void clock_key(const LiveGame *g, int64_t key[CLOCK_KEY])
{
    key[0] = g->left[WHITE];
    key[1] = g->left[BLACK];
    key[2] = g->turn_start_ms;
    key[3] = g->result == RESULT_NONE ? g->game.pos.side : -1;
    key[4] = g->ended_ms;
    key[BERSERKS] = g->berserk[WHITE] | g->berserk[BLACK] << 1;
}

/* Takes note of g as its streams now know it (fields taken over); false when memory ran out
 * (then nothing is known: the next stream starts again). */
static bool note(LiveGame *g, json_t *fields)
{
    Told *t = g->told;
    if (!t && (t = calloc(1, sizeof *t)) != NULL) {
        g->told = t;
        g->told_free = told_free;
    }
    if (!t || !fields) {
        json_decref(fields);
        told_forget(g);
        return false;
    }
    t->n = g->game.n;
    t->moves_key = moves_key(g, g->game.n);
    json_decref(t->fields);
    t->fields = fields;
    clock_key(g, t->clock);
    for (int a = 0; a < AUDIENCES; a++) {
        free(t->state[a]);
        t->state[a] = NULL;
    }
    return true;
}

/* GAME's fields that a patch compares: all but the moves, the legal moves and the clock. */
static json_t *fields_of(LiveGame *g)
{
    return game_json_parts(g, -1, 0);
}

/* "event: NAME\ndata: JSON\n\n", the object `json` (len bytes) with `more` (",\"key\":value"
 * members, or "") added at its end; NULL when memory runs out. */
static StreamMessage *event_message(const char *name, const char *json, size_t len, const char *more)
{
    bool empty = len == 2; /* "{}": the first member comes without its comma */
    Text t = {0};
    bool ok = len >= 2 && json[len - 1] == '}' && text_addf(&t, "event: %s\ndata: ", name) &&
              text_addn(&t, json, len - 1) && text_add(&t, empty && more[0] == ',' ? more + 1 : more) &&
              text_add(&t, "}\n\n");
    StreamMessage *m = ok ? stream_message(t.s, t.len) : NULL;
    text_free(&t);
    return m;
}

/* ",\"clock\":CLOCK" as g's clock is now (its figures at this moment); NULL when memory runs out. */
static char *clock_member(const LiveGame *g)
{
    char *clock = g->has_clock ? util_json_text(game_json_clock(g)) : strdup("null"); /* (the text of an object only) */
    Text t = {0};
    char *member = clock && text_addf(&t, ",\"clock\":%s", clock) ? text_take(&t) : NULL;
    text_free(&t);
    free(clock);
    return member;
}

/* The audience's GAME without its clock, as text: made once after each change, whatever the
 * number of streams that start meanwhile (g->told set up). */
static const char *state_text(LiveGame *g, int audience)
{
    Told *t = g->told;
    if (!t->state[audience]) {
        int you = audience - 1;
        bool moves = you >= 0 && g->result == RESULT_NONE && g->game.pos.side == you && !g->engine[you];
        t->state[audience] = util_json_text(game_json_parts(g, you, GAME_MOVES | (moves ? GAME_LEGAL : GAME_NO_LEGAL)));
    }
    return t->state[audience];
}

/* The audience's "state" event: GAME as it is now, its clock's figures of this moment. */
static StreamMessage *state_message(LiveGame *g, int audience)
{
    const char *state = state_text(g, audience);
    char *clock = state ? clock_member(g) : NULL;
    StreamMessage *m = clock ? event_message("state", state, strlen(state), clock) : NULL;
    free(clock);
    return m;
}

StreamMessage *told_first(LiveGame *g, int you)
{
    if (!g->told && !note(g, fields_of(g)))
        return NULL;
    return state_message(g, you + 1);
}

/* ---- Patches ---------------------------------------------------------------------------- */

/* Adds to `patch` the fields of `now` that differ from `before` (null for one gone), but
 * "fen" when moves were added (it is the last move's). */
static void put_changed(json_t *patch, json_t *now, json_t *before, bool moved, bool *ok)
{
    const char *key;
    json_t *value;
    json_object_foreach(now, key, value) {
        if (!(moved && strcmp(key, "fen") == 0) && !json_equal(value, json_object_get(before, key)))
            util_json_put(patch, key, json_incref(value), ok);
    }
    json_object_foreach(before, key, value) {
        if (!json_object_get(now, key))
            util_json_put(patch, key, json_null(), ok);
    }
}

/* The clock's figures that change (its settings do not): { white_ms, black_ms, running,
 * berserk }. */
static json_t *clock_figures(const LiveGame *g)
{
    json_t *clock = game_json_clock(g);
    json_object_del(clock, "base_ms");
    json_object_del(clock, "inc_ms");
    json_object_del(clock, "days");
    return clock;
}

/* The patch from what g's streams were told to g now, as JSON text; NULL with *ok set when
 * nothing changed that they see, with *ok cleared when memory ran out. */
static char *patch_text(LiveGame *g, json_t *fields, bool *ok)
{
    const Told *t = g->told;
    json_t *patch = json_object();
    util_json_put(patch, "n", json_integer(g->game.n), ok);
    if (g->game.n > t->n) {
        json_t *moves = json_array();
        for (int i = t->n; i < g->game.n; i++)
            util_json_append(moves, game_json_move(g, i), ok);
        util_json_put(patch, "moves", moves, ok);
    }
    put_changed(patch, fields, t->fields, g->game.n > t->n, ok);
    int64_t clock[CLOCK_KEY];
    clock_key(g, clock);
    if (g->has_clock && memcmp(clock, t->clock, sizeof clock) != 0) {
        json_t *figures = clock_figures(g);
        if (clock[BERSERKS] == t->clock[BERSERKS]) /* told already */
            json_object_del(figures, "berserk");
        util_json_put(patch, "clock", figures, ok);
    }
    if (!*ok || json_object_size(patch) == 1) { /* memory ran out, or only "n": nothing to tell */
        json_decref(patch);
        return NULL;
    }
    char *text = util_json_text(patch);
    *ok = text != NULL;
    return text;
}

/* The messages of a patch: the text to every audience, and to the player to move, after
 * moves, with their legal moves. */
static bool patch_messages(LiveGame *g, const char *text, bool moved, Telling *out)
{
    size_t len = strlen(text);
    StreamMessage *all = event_message("patch", text, len, "");
    int side = g->game.pos.side;
    bool to_move = moved && all && g->result == RESULT_NONE && !g->engine[side];
    char *legal = to_move ? util_json_text(game_json_legal(g)) : NULL;
    Text member = {0};
    StreamMessage *mover = legal && text_addf(&member, ",\"legal\":%s", legal)
                               ? event_message("patch", text, len, member.s)
                               : NULL;
    free(legal);
    text_free(&member);
    if (!all || (to_move && !mover)) {
        stream_unref(all);
        return false;
    }
    for (int a = 0; a < AUDIENCES; a++)
        out->to[a] = a == side + 1 && mover ? mover : stream_ref(all);
    stream_unref(all);
    return true;
}

bool told_change(LiveGame *g, Telling *out)
{
    memset(out, 0, sizeof *out);
    Told *t = g->told;
    if (!t)
        return false;
    json_t *fields = fields_of(g);
    bool ok = fields != NULL, moved = g->game.n > t->n;
    bool appended = g->game.n >= t->n && moves_key(g, t->n) == t->moves_key;
    char *patch = ok && appended ? patch_text(g, fields, &ok) : NULL;
    if (ok)
        ok = note(g, fields); /* which takes fields over */
    else
        json_decref(fields);
    bool patched = patch != NULL;
    if (ok && patched)
        ok = patch_messages(g, patch, moved, out);
    else if (ok && !appended) /* moves taken back: the whole state again */
        for (int a = 0; a < AUDIENCES; a++)
            ok = ok && (out->to[a] = state_message(g, a)) != NULL;
    free(patch);
    if (!ok) {
        told_done(out);
        told_forget(g); /* the streams end (no message): each starts again with the state */
    }
    return !ok || patched || !appended;
}

void told_done(Telling *t)
{
    for (int a = 0; a < AUDIENCES; a++) {
        stream_unref(t->to[a]);
        t->to[a] = NULL;
    }
}
