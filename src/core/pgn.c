#include "pgn.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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
        if (i < t->nnotes && t->notes[i][0]) {
            char note[PGN_NOTE_MAX + 2];
            snprintf(note, sizeof note, "{%s}", t->notes[i]);
            token(&o, note);
            need_number = true; /* and a move after a comment ("1. e4 {...} 1... e5") */
        }
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

/* A move left out, as in "8. - ♘2" (White's 8th move stood before a diagram): "-", "..", "…". */
static bool is_placeholder(const char *t)
{
    return !strcmp(t, "-") || !strcmp(t, "--") || strspn(t, ".") == strlen(t) || !strcmp(t, "\xE2\x80\xA6");
}

/* The number the side to move's next move has in a record: "9.", "8...", a setup's "III.". */
static void move_label(const Game *g, char *out, size_t len)
{
    const Position *pos = &g->pos;
    const char *dots = pos->side == WHITE ? "." : "...";
    if (!pos->hand_total[pos->side]) {
        snprintf(out, len, "%d%s", pos->fullmove, dots);
        return;
    }
    int placements = pos->side == WHITE; /* White's placements so far, and this one */
    for (int i = 0; i < g->n; i++)
        placements += MOVE_KIND(g->moves[i]) == MK_PLACE && (g->n - i) % 2 == (pos->side == WHITE ? 0 : 1);
    char numeral[16];
    roman(placements ? placements : 1, numeral);
    snprintf(out, len, "%s%s", numeral, dots);
}

/* The movetext (what follows the tag lines) split into tokens in place: comments, variations,
 * NAGs and results are left out.  Returns the count; *tokens is allocated (NULL if none). */
static int movetext_tokens(char *text, char ***tokens)
{
    int depth = 0, n = 0;
    for (char *p = text; *p; p++) { /* blank out comments and variations */
        if (*p == '{' || *p == ';') {
            char *end = strchr(p, *p == '{' ? '}' : '\n');
            end = end ? end : p + strlen(p) - 1;
            memset(p, ' ', (size_t)(end - p + 1));
            p = end;
        } else if (*p == '(' || *p == ')' || depth > 0) {
            depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
            *p = ' ';
        }
    }
    *tokens = malloc((strlen(text) / 2 + 1) * sizeof **tokens);
    if (!*tokens)
        return -1;
    char *save = NULL;
    for (char *t = strtok_r(text, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
        if (t[0] == '$' || is_result(t))
            continue;
        if (is_move_number(t)) { /* "12." or "12...e5" or "IV." */
            t = strrchr(t, '.') + 1;
            if (!*t)
                continue;
        }
        (*tokens)[n++] = t;
    }
    return n;
}

/* Plays the moves of the tokens: false with err naming the first move that cannot be read. */
static bool play_tokens(Game *g, char **tokens, int n, char *err, size_t errlen)
{
    for (int i = 0; i < n;) {
        char label[24], why[240];
        move_label(g, label, sizeof label);
        if (is_placeholder(tokens[i])) {
            if (g->pos.side == WHITE) {
                snprintf(err, errlen, "move %s (White): '%s' leaves out a move, but it is White's turn", label,
                         tokens[i]);
                return false;
            }
            i++;
            continue;
        }
        int used;
        Move m = parse_move_tokens(&g->pos, tokens + i, n - i, &used, why, sizeof why);
        if (m == MOVE_NONE) {
            snprintf(err, errlen, "move %s (%s): %s", label, g->pos.side == WHITE ? "White" : "Black", why);
            return false;
        }
        if (!game_play(g, m)) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
        i += used;
    }
    return true;
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
    char *text = strdup(p), **tokens = NULL;
    int n = text ? movetext_tokens(text, &tokens) : -1;
    bool ok = n >= 0 && play_tokens(g, tokens, n, err, errlen);
    if (n < 0)
        snprintf(err, errlen, "out of memory");
    free(tokens);
    free(text);
    return ok;
}
