#include "helpers.h"

#include <stdlib.h>

#include "test.h"

bool setup(Position *pos, const char *variant, const char *fen)
{
    char err[200];
    const Variant *v = variant_by_name(variant);
    if (!v) {
        test_fail(__FILE__, __LINE__, "no variant %s", variant);
        return false;
    }
    if (!pos_set_fen(pos, v, fen ? fen : v->def->start_fen, err, sizeof err)) {
        test_fail(__FILE__, __LINE__, "bad fen %s: %s", fen, err);
        return false;
    }
    return true;
}

static int compare(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

const char *legal_moves_text(Position *pos, const char *from, char *buf, size_t len)
{
    Move moves[MAX_MOVES];
    static char texts[MAX_MOVES][MOVE_TEXT_MAX];
    int n = gen_legal(pos, moves), k = 0;
    Cell origin = from ? geo_parse_cell(pos->v->geo, from, NULL) : NO_CELL;
    for (int i = 0; i < n; i++)
        if (!from || MOVE_FROM(moves[i]) == origin)
            move_to_text(pos, moves[i], texts[k++]);
    qsort(texts, (size_t)k, MOVE_TEXT_MAX, compare);
    buf[0] = 0;
    for (int i = 0; i < k; i++) {
        if (i)
            strncat(buf, " ", len - strlen(buf) - 1);
        strncat(buf, texts[i], len - strlen(buf) - 1);
    }
    return buf;
}

bool play_moves(Game *g, const char *moves)
{
    char copy[4096], err[200];
    snprintf(copy, sizeof copy, "%s", moves);
    for (char *t = strtok(copy, " "); t; t = strtok(NULL, " ")) {
        Move m = parse_move(&g->pos, t, err, sizeof err);
        if (m == MOVE_NONE) {
            test_fail(__FILE__, __LINE__, "%s", err);
            return false;
        }
        game_play(g, m);
    }
    return true;
}
