#include "pgn.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "notation.h"

typedef struct {
    Text *text;
    int column; /* for wrapping movetext at 80 columns */
    bool ok;    /* false once memory ran out */
} Out;

static void __attribute__((format(printf, 2, 3))) put(Out *o, const char *fmt, ...)
{
    size_t before = o->text->len;
    va_list ap;
    va_start(ap, fmt);
    o->ok = o->ok && text_vaddf(o->text, fmt, ap);
    va_end(ap);
    if (!o->ok)
        return;
    const char *added = o->text->s + before, *nl = strrchr(added, '\n');
    o->column = nl ? (int)strlen(nl + 1) : o->column + (int)(o->text->len - before);
}

/* A tag line, its value escaped ('"' and '\\' behind a backslash, control characters as spaces);
 * none for a NULL value unless `unknown` stands in for it. */
static void tag(Out *o, const char *name, const char *value, const char *unknown)
{
    if (!value && !(value = unknown))
        return;
    put(o, "[%s \"", name);
    for (const char *c = value; *c; c++)
        put(o, *c == '"' || *c == '\\' ? "\\%c" : "%c", (unsigned char)*c < 32 ? ' ' : *c);
    put(o, "\"]\n");
}

/* A movetext token, with a line break before it when the line would pass 79 columns. */
static void token(Out *o, const char *text)
{
    int n = (int)strlen(text);
    if (o->column > 0 && o->column + 1 + n > 79)
        put(o, "\n");
    else if (o->column > 0)
        put(o, " ");
    put(o, "%s", text);
}

static void roman(int n, char *out)
{
    static const struct {
        int value;
        const char *text;
    } digits[] = {{10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}};
    out[0] = 0;
    for (size_t i = 0; i < sizeof digits / sizeof digits[0]; i++)
        for (; n >= digits[i].value; n -= digits[i].value)
            strcat(out, digits[i].text);
}

bool game_pgn(Game *g, const PgnTags *tags, Text *out)
{
    static const PgnTags none;
    const PgnTags *t = tags ? tags : &none;
    Out o = {out, 0, true};
    GameResult r = game_status(g);
    const char *result = result_text(r.kind);
    tag(&o, "Event", t->event, "?");
    tag(&o, "Site", "starfish", NULL);
    tag(&o, "Date", t->date, NULL);
    tag(&o, "Round", t->round, NULL);
    tag(&o, "White", t->white, "?");
    tag(&o, "Black", t->black, "?");
    tag(&o, "Result", result, NULL);
    tag(&o, "Variant", g->v->def->name, NULL);
    Position initial;
    char err[160], initial_fen[FEN_MAX] = "";
    if (pos_set_fen(&initial, g->v, g->v->def->start_fen, err, sizeof err))
        pos_fen(&initial, initial_fen, sizeof initial_fen);
    if (strcmp(g->start_fen, initial_fen) != 0) {
        tag(&o, "SetUp", "1", NULL);
        tag(&o, "FEN", g->start_fen, NULL);
    }
    tag(&o, "Termination", r.kind != RESULT_NONE ? r.reason : NULL, NULL);
    tag(&o, "TimeControl", t->time_control, NULL);
    put(&o, "\n");
    /* Replay from the start to print each move in the position it was played in. */
    int played = g->n;
    while (game_undo(g))
        ;
    int placements = 0;
    bool need_number = true;
    for (int i = 0; i < played; i++) {
        Move m = g->moves[i];
        Position *pos = &g->pos;
        char number[24], san[MOVE_TEXT_MAX];
        bool place = MOVE_KIND(m) == MK_PLACE;
        if (place && pos->side == WHITE)
            placements++;
        if (pos->side == WHITE || need_number) {
            if (place) {
                roman(placements ? placements : 1, number);
                strcat(number, pos->side == WHITE ? "." : "...");
            } else {
                snprintf(number, sizeof number, "%d%s", pos->fullmove, pos->side == WHITE ? "." : "...");
            }
            token(&o, number);
        }
        move_to_san(pos, m, san);
        token(&o, san);
        game_play(g, m);
        need_number = false; /* only a first move by Black carries "1..." of its own */
    }
    token(&o, result);
    put(&o, "\n");
    return o.ok;
}

size_t pgn_game_length(const char *text, bool *movetext)
{
    const char *line = text;
    *movetext = false;
    while (*line) {
        const char *eol = strchr(line, '\n'), *next = eol ? eol + 1 : line + strlen(line);
        const char *s = line + strspn(line, " \t\r");
        if (*s == '[' && *movetext)
            break;
        if (*s && *s != '[' && *s != '\n')
            *movetext = true;
        line = next;
    }
    return (size_t)(line - text);
}

bool pgn_tag_value(const char *pgn, const char *name, char *out, size_t len)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "[%s \"", name);
    const char *at = strstr(pgn, pattern);
    if (!at)
        return false;
    at += strlen(pattern);
    size_t n = 0;
    while (at[n] && at[n] != '"' && n + 1 < len)
        n++;
    memcpy(out, at, n);
    out[n] = 0;
    return true;
}

static bool is_move_number(const char *t)
{
    size_t n = strspn(t, "0123456789IVXivx");
    return n > 0 && t[n] == '.';
}

static bool is_result(const char *t)
{
    return !strcmp(t, "1-0") || !strcmp(t, "0-1") || !strcmp(t, "1/2-1/2") || !strcmp(t, "*");
}

bool game_from_pgn(Game *g, const char *pgn, const Variant *fallback, VariantLookup find, char *err, size_t errlen)
{
    char name[64], fen[FEN_MAX];
    const Variant *v = fallback;
    if (pgn_tag_value(pgn, "Variant", name, sizeof name)) {
        for (char *c = name; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        v = find(name);
        if (!v) {
            snprintf(err, errlen, "unknown variant '%s' in the PGN", name);
            return false;
        }
    }
    if (!v) {
        snprintf(err, errlen, "the PGN names no variant");
        return false;
    }
    bool has_fen = pgn_tag_value(pgn, "FEN", fen, sizeof fen);
    if (!game_init(g, v, has_fen ? fen : NULL, err, errlen))
        return false;
    /* The movetext: what follows the last tag line. */
    const char *p = pgn, *line;
    for (line = pgn; *line; line = p) {
        while (*line == ' ' || *line == '\t' || *line == '\r' || *line == '\n')
            line++;
        if (*line != '[')
            break;
        p = strchr(line, '\n');
        if (!p) {
            p = line + strlen(line);
            break;
        }
        p++;
    }
    int depth = 0; /* inside a variation */
    while (*p) {
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        if (*p == '{') { /* comment */
            const char *end = strchr(p, '}');
            p = end ? end + 1 : p + strlen(p);
            continue;
        }
        if (*p == ';') {
            const char *end = strchr(p, '\n');
            p = end ? end : p + strlen(p);
            continue;
        }
        if (*p == '(' || *p == ')') {
            depth += *p == '(' ? 1 : -1;
            p++;
            continue;
        }
        char token[MOVE_TEXT_MAX + 8];
        size_t n = strcspn(p, " \t\r\n{}();");
        if (n >= sizeof token) {
            snprintf(err, errlen, "bad token in the movetext: '%.20s...'", p);
            return false;
        }
        memcpy(token, p, n);
        token[n] = 0;
        p += n;
        if (depth > 0 || token[0] == '$' || is_result(token))
            continue;
        char *move = token;
        if (is_move_number(token)) { /* "12." or "12...e5" or "IV." */
            move = strrchr(token, '.') + 1;
            if (!*move)
                continue;
        }
        char why[160];
        Move m = parse_move(&g->pos, move, why, sizeof why);
        if (m == MOVE_NONE) {
            snprintf(err, errlen, "move %d: %s", g->n + 1, why);
            return false;
        }
        if (!game_play(g, m)) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
    }
    return true;
}
