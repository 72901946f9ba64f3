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
    char *save = NULL;
    for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        Move m = parse_move(&g->pos, t, err, sizeof err);
        if (m == MOVE_NONE) {
            test_fail(__FILE__, __LINE__, "%s", err);
            return false;
        }
        game_play(g, m);
    }
    return true;
}

bool start_game(Game *g, const char *variant, const char *fen)
{
    char err[200];
    const Variant *v = variant_by_name(variant);
    *g = (Game){0};
    if (!v || !game_init(g, v, fen, err, sizeof err)) {
        test_fail(__FILE__, __LINE__, "%s: %s", variant, v ? err : "no such variant");
        return false;
    }
    return true;
}

const char *fen_of(const Position *pos)
{
    static char buf[FEN_MAX];
    pos_fen(pos, buf, sizeof buf);
    return buf;
}

const char *fen_error(const char *variant, const char *fen)
{
    static char err[200];
    Position pos;
    err[0] = 0;
    if (pos_set_fen(&pos, variant_by_name(variant), fen, err, sizeof err))
        return "(accepted)";
    return err;
}

const char *parse_error(Position *pos, const char *text)
{
    static char err[200];
    err[0] = 0;
    if (parse_move(pos, text, err, sizeof err) != MOVE_NONE)
        return "(accepted)";
    return err;
}

int count_legal(Position *pos)
{
    Move moves[MAX_MOVES];
    return gen_legal(pos, moves);
}

GameResult status_after(const char *variant, const char *fen, const char *moves)
{
    Game g;
    GameResult r = {RESULT_NONE, "setup failed"};
    if (!start_game(&g, variant, fen))
        return r;
    if (play_moves(&g, moves))
        r = game_status(&g);
    game_free(&g);
    return r;
}

const char *star_fen(const char *pieces, const char *hand, const char *tail)
{
    static const int column_len[9] = {1, 2, 7, 6, 5, 6, 7, 2, 1};
    static char out[256];
    char piece[38] = {0};
    bool limp[38] = {false};
    for (const char *s = pieces; *s;) {
        if (*s == ' ') {
            s++;
            continue;
        }
        char letter = *s++;
        int c = (int)strtol(s, (char **)&s, 10);
        piece[c] = letter;
        if (*s == '~') {
            limp[c] = true;
            s++;
        }
    }
    size_t at = 0;
    int c = 1;
    for (int col = 0; col < 9; col++) {
        int empty = 0;
        for (int i = 0; i < column_len[col]; i++, c++) {
            if (!piece[c]) {
                empty++;
                continue;
            }
            if (empty)
                at += (size_t)snprintf(out + at, sizeof out - at, "%d", empty);
            empty = 0;
            at += (size_t)snprintf(out + at, sizeof out - at, "%c%s", piece[c], limp[c] ? "~" : "");
        }
        if (empty)
            at += (size_t)snprintf(out + at, sizeof out - at, "%d", empty);
        if (col < 8)
            out[at++] = '/';
    }
    snprintf(out + at, sizeof out - at, "[%s] %s", hand, tail);
    return out;
}

int check_make_unmake(Position *pos)
{
    char before[FEN_MAX];
    pos_fen(pos, before, sizeof before);
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    for (int k = 0; k < n; k++) {
        Undo u;
        pos_make(pos, moves[k], &u);
        CHECK_EQ_INT(pos->key, pos_compute_key(pos)); /* incremental key == key from scratch */
        pos_unmake(pos, moves[k], &u);
        CHECK_EQ_STR(fen_of(pos), before);
        CHECK_EQ_INT(pos->key, pos_compute_key(pos));
    }
    return n;
}

const char *san_of(Position *pos, const char *move)
{
    static char buf[MOVE_TEXT_MAX];
    static char err[200];
    Move m = parse_move(pos, move, err, sizeof err);
    if (m == MOVE_NONE)
        return err;
    move_to_san(pos, m, buf);
    return buf;
}

/* Position text from a piece list and the fields after the board ("w - 0 1"). */
const char *ms_fen(const char *pieces, const char *rest)
{
    static char out[FEN_MAX];
    const Geometry *g = geo_megastar();
    char board[MAX_CELLS] = {0};
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", pieces);
    char *save = NULL;
    for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        int len;
        Cell c = geo_parse_cell(g, t + 1, &len);
        if (c == NO_CELL || t[1 + len]) {
            test_fail(__FILE__, __LINE__, "bad piece '%s'", t);
            continue;
        }
        board[c] = t[0];
    }
    size_t at = 0;
    int cell = 0;
    for (int row = 0; row < g->nrows; row++) {
        int empty = 0;
        for (int i = 0; i < g->row_len[row]; i++, cell++) {
            char p = board[g->row_cells[cell]];
            if (!p) {
                empty++;
                continue;
            }
            if (empty)
                at += (size_t)snprintf(out + at, sizeof out - at, "%d", empty);
            empty = 0;
            out[at++] = p;
        }
        if (empty)
            at += (size_t)snprintf(out + at, sizeof out - at, "%d", empty);
        if (row + 1 < g->nrows)
            out[at++] = '/';
    }
    snprintf(out + at, sizeof out - at, " %s", rest);
    return out;
}
