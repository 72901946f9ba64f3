/* Opening books: EPD and PGN files read into start positions and move lists. */
#include "match_openings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/notation.h"
#include "../core/pgn.h"
#include "../util/error.h"
#include "../util/rng.h"
#include "../util/text.h"
#include "../variants/registry.h"

bool game_moves_text(Game *g, Text *out)
{
    int played = g->n;
    bool ok = true;
    text_clear(out);
    while (game_undo(g))
        ;
    for (int i = 0; i < played; i++) {
        char text[MOVE_TEXT_MAX];
        move_to_text(&g->pos, g->moves[i], text);
        ok = ok && text_addf(out, " %s", text);
        game_play(g, g->moves[i]);
    }
    return ok && text_add(out, "");
}

/* Adds the opening g stands at: its start and the moves played. */
static bool add(OpeningBook *b, Game *g)
{
    Text moves = {0};
    Opening *grown = realloc(b->list, sizeof *grown * (size_t)(b->n + 1));
    if (!grown || !game_moves_text(g, &moves)) {
        if (grown)
            b->list = grown;
        text_free(&moves);
        return false;
    }
    b->list = grown;
    Opening *o = &b->list[b->n];
    o->fen = strdup(g->start_fen);
    o->moves = text_take(&moves);
    if (!o->fen) {
        free(o->moves);
        return false;
    }
    b->n++;
    return true;
}

/*
 * An EPD line's position: the text before the first ';', or, when that does not read (the
 * operations of a chess EPD follow its four fields: `... - bm e4;`), its first 6, 5 or 4
 * fields.  False with the whole text's error.
 */
static bool epd_position(const Variant *v, char *line, Game *g, char *err, size_t errlen)
{
    line[strcspn(line, ";\r")] = 0;
    if (game_init(g, v, line, err, errlen))
        return true;
    for (int fields = 6; fields >= 4; fields--) {
        char copy[FEN_MAX], why[200];
        snprintf(copy, sizeof copy, "%s", line);
        char *end = copy;
        for (int k = 0; k < fields; k++) {
            end += strspn(end, " \t");
            end += strcspn(end, " \t");
        }
        if (!*end)
            continue; /* no more fields than that: the whole text was tried */
        *end = 0;
        if (game_init(g, v, copy, why, sizeof why))
            return true;
    }
    return false;
}

static bool load_epd(OpeningBook *b, char *text, const char *path, const Variant *v, char *err, size_t errlen)
{
    int number = 0;
    for (char *line = text, *next; *line; line = next) {
        next = line + strcspn(line, "\n");
        if (*next)
            *next++ = 0;
        number++;
        char *start = line + strspn(line, " \t\r");
        if (!*start || *start == '#')
            continue;
        Game g = {0};
        char why[300];
        bool ok = epd_position(v, start, &g, why, sizeof why) && (add(b, &g) || error_set(why, sizeof why, "out of memory"));
        game_free(&g);
        if (!ok)
            return error_set(err, errlen, "%s:%d: %s", path, number, why);
    }
    return true;
}

static bool load_pgn(OpeningBook *b, char *text, const char *path, const Variant *v, char *err, size_t errlen)
{
    int number = 0;
    for (char *p = text; *p;) {
        bool movetext;
        char *end = p + pgn_game_length(p, &movetext), saved = *end;
        *end = 0;
        Game g = {0};
        char why[300] = "";
        bool ok = true;
        if (movetext) {
            number++;
            ok = game_from_pgn(&g, p, v, variant_by_name, why, sizeof why);
            if (ok && g.v != v)
                ok = error_set(why, sizeof why, "a game of %s, not %s", g.v->def->name, v->def->name);
            if (ok && !add(b, &g))
                ok = error_set(why, sizeof why, "out of memory");
        }
        game_free(&g);
        *end = saved;
        if (!ok)
            return error_set(err, errlen, "%s: game %d: %s", path, number, why);
        p = end;
    }
    return true;
}

/* A PGN file has tag lines; an EPD file has none. */
static bool is_pgn(const char *text)
{
    for (const char *line = text; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0))
        if (line[strspn(line, " \t\r")] == '[')
            return true;
    return false;
}

bool openings_load(OpeningBook *b, const char *path, const Variant *v, char *err, size_t errlen)
{
    Text file = {0};
    *b = (OpeningBook){0};
    if (!text_read_file(&file, path)) {
        text_free(&file);
        return error_set(err, errlen, "cannot read the openings file '%s'", path);
    }
    bool ok = is_pgn(file.s) ? load_pgn(b, file.s, path, v, err, errlen) : load_epd(b, file.s, path, v, err, errlen);
    text_free(&file);
    if (ok && b->n == 0)
        ok = error_set(err, errlen, "no openings in '%s'", path);
    if (!ok)
        openings_free(b);
    return ok;
}

void openings_shuffle(OpeningBook *b, uint64_t seed)
{
    uint64_t state = seed;
    for (int i = b->n - 1; i > 0; i--) {
        int j = (int)rng_below(&state, (uint64_t)i + 1);
        Opening t = b->list[i];
        b->list[i] = b->list[j];
        b->list[j] = t;
    }
}

void openings_free(OpeningBook *b)
{
    for (int i = 0; i < b->n; i++) {
        free(b->list[i].fen);
        free(b->list[i].moves);
    }
    free(b->list);
    *b = (OpeningBook){0};
}

bool opening_start(const OpeningBook *b, int k, const Variant *v, Game *g, char *err, size_t errlen)
{
    const Opening *o = &b->list[k % b->n];
    if (!game_init(g, v, o->fen, err, errlen))
        return false;
    char *moves = strdup(o->moves), *save = NULL;
    if (!moves)
        return error_set(err, errlen, "out of memory");
    for (char *t = strtok_r(moves, " ", &save); t; t = strtok_r(NULL, " ", &save))
        game_play(g, parse_move(&g->pos, t, err, errlen)); /* read and checked when the book was */
    free(moves);
    return true;
}
