/*
 * Position text.  Every variant's text is BOARD SIDE [CASTLING] [EP] HALFMOVE FULLMOVE, where
 * the bracketed fields exist only where the variant says so, and BOARD lists the geometry's
 * rows (geometry->row_len) with digits for runs of empty cells, a `~` after a limping pawn and,
 * where pieces can be in hand, a `[...]` suffix.  HALFMOVE and FULLMOVE may be left out
 * (as in EPD); anything else missing or extra is an error.  A parsed position is checked for
 * what no game can reach: a side without exactly one royal piece, a pawn on a cell no pawn of
 * its side can stand on, the side not to move in check, castling rights without their king
 * and rook, an en-passant cell that no double step can have passed.
 */
#include "fen.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"

static const char *const colour_name[2] = {"White", "Black"};

static bool read_hand(const Variant *v, const char *s, const char *end, FenBoard *out, char *err, size_t errlen)
{
    int total[2] = {0, 0};
    for (; s < end; s++) {
        uint8_t code = isalpha((unsigned char)*s) ? v->code_of_letter[(int)*s] : 0;
        if (!code) {
            snprintf(err, errlen, "unknown piece '%c' in the hand", *s);
            return false;
        }
        /* Only pieces are ever in hand: a pawn would be placed on its own back rank. */
        if (v->is_pawn[code]) {
            snprintf(err, errlen, "a pawn ('%c') cannot be in the hand", *s);
            return false;
        }
        /* The keys number each count of a piece in hand below MAX_PIECES. */
        int side = PIECE_COLOUR(code);
        if (++total[side] >= MAX_PIECES) {
            snprintf(err, errlen, "%s has more than %d pieces in hand", colour_name[side], MAX_PIECES - 1);
            return false;
        }
        out->hand[side][PIECE_TYPE(code)]++;
    }
    return true;
}

bool fen_read_board(const Variant *v, const char *text, FenBoard *out, char *err, size_t errlen)
{
    const Geometry *g = v->geo;
    memset(out, 0, sizeof *out);
    const char *s = text, *stop = text + strcspn(text, " \t\n");
    const char *bracket = memchr(text, '[', (size_t)(stop - text));
    if (bracket && !v->def->fen_hand) {
        snprintf(err, errlen, "this variant has no pieces in hand ('[' in the board)");
        return false;
    }
    if (v->def->fen_hand) {
        if (!bracket || stop[-1] != ']') {
            snprintf(err, errlen, "the board must end with the pieces in hand, as [KQ...kq...] or []");
            return false;
        }
        if (!read_hand(v, bracket + 1, stop - 1, out, err, errlen))
            return false;
        stop = bracket;
    }
    int cell = 0;
    for (int row = 0; row < g->nrows; row++) {
        int filled = 0, len = g->row_len[row];
        while (s < stop && *s != '/') {
            if (isdigit((unsigned char)*s)) {
                long run = strtol(s, (char **)&s, 10);
                if (run <= 0 || run > len - filled) {
                    snprintf(err, errlen, "row %d of the board has more than %d cells", row + 1, len);
                    return false;
                }
                filled += (int)run;
                cell += (int)run;
                continue;
            }
            uint8_t code = isalpha((unsigned char)*s) ? v->code_of_letter[(int)*s] : 0;
            if (*s == '~' && v->def->limping && cell > 0 && filled > 0 && v->is_pawn[out->board[cell - 1]] &&
                !out->limping[cell - 1]) {
                out->limping[cell - 1] = true;
                s++;
                continue;
            }
            if (!code) {
                snprintf(err, errlen, "unknown piece letter '%c' in the board", *s);
                return false;
            }
            if (filled + 1 > len) {
                snprintf(err, errlen, "row %d of the board has more than %d cells", row + 1, len);
                return false;
            }
            out->board[g->row_cells[cell]] = code;
            filled++;
            cell++;
            s++;
        }
        if (filled != len) {
            snprintf(err, errlen, "row %d of the board has %d cells, expected %d", row + 1, filled, len);
            return false;
        }
        if (row + 1 < g->nrows) {
            if (s >= stop) {
                snprintf(err, errlen, "the board has %d rows, expected %d", row + 1, g->nrows);
                return false;
            }
            s++; /* the '/' */
        }
    }
    if (s != stop) {
        snprintf(err, errlen, "the board has more than %d rows", g->nrows);
        return false;
    }
    return true;
}

static bool parse_int(const char *s, int min, int *out)
{
    char *end;
    long n = strtol(s, &end, 10);
    if (end == s || *end || n < min || n > 1000000)
        return false;
    *out = (int)n;
    return true;
}

static bool check_pieces(const Variant *v, const FenBoard *b, char *err, size_t errlen)
{
    const Geometry *g = v->geo;
    for (int side = 0; side < 2; side++) {
        int royals = 0;
        for (Cell c = 0; c < g->ncells; c++) {
            uint8_t code = b->board[c];
            if (!code || PIECE_COLOUR(code) != side)
                continue;
            royals += v->is_royal[code];
            if (v->is_pawn[code] && !v->pawn_can_stand[side][c]) {
                snprintf(err, errlen, "%s pawn on %s: no pawn of that side can stand there", colour_name[side],
                         g->cell_name[c]);
                return false;
            }
        }
        for (int t = 1; t <= v->ntypes; t++)
            if (v->def->pieces[t - 1].royal)
                royals += b->hand[side][t];
        if (v->has_royal && royals != 1) {
            snprintf(err, errlen, "%s has %d kings, expected 1", colour_name[side], royals);
            return false;
        }
    }
    return true;
}

static bool read_castling(const Variant *v, const char *s, const FenBoard *b, uint8_t *rights, char *err,
                          size_t errlen)
{
    *rights = 0;
    if (strcmp(s, "-") == 0)
        return true;
    for (; *s; s++) {
        int i = 0;
        while (i < v->ncastling && v->def->castling[i].fen_letter != *s)
            i++;
        if (i == v->ncastling || (*rights & (1u << i))) {
            snprintf(err, errlen, "bad castling field character '%c'", *s);
            return false;
        }
        int side = v->castle[i].colour;
        uint8_t king = b->board[v->castle[i].king_from], rook = b->board[v->castle[i].rook_from];
        if (!king || !v->is_royal[king] || PIECE_COLOUR(king) != side || rook != v->castle[i].partner) {
            snprintf(err, errlen, "castling right '%c' needs the king on %s and its rook on %s", *s,
                     v->geo->cell_name[v->castle[i].king_from], v->geo->cell_name[v->castle[i].rook_from]);
            return false;
        }
        *rights |= (uint8_t)(1u << i);
    }
    return true;
}

static bool read_ep(const Variant *v, const char *s, const FenBoard *b, int side, Cell *ep, Cell *victim,
                    char *err, size_t errlen)
{
    const Geometry *g = v->geo;
    *ep = *victim = NO_CELL;
    if (strcmp(s, "-") == 0)
        return true;
    int len;
    Cell c = geo_parse_cell(g, s, &len);
    if (c == NO_CELL || s[len]) {
        snprintf(err, errlen, "bad en-passant cell '%s'", s);
        return false;
    }
    /* The side that just moved double stepped from `origin` over c to `landing`. */
    int mover = side ^ 1;
    Cell landing = geo_add(g, c, v->forward[mover]);
    Cell origin = geo_add(g, c, (Vec){(int8_t)-v->forward[mover].dq, (int8_t)-v->forward[mover].dr,
                                      (int8_t)-v->forward[mover].dl});
    /* The double stepper is a pawn, or (square-says) any piece that moved as a pawn from origin. */
    uint8_t stepper = landing == NO_CELL ? 0 : b->board[landing];
    if (b->board[c] || landing == NO_CELL || origin == NO_CELL || b->board[origin] || !stepper ||
        PIECE_COLOUR(stepper) != mover ||
        !(v->is_pawn[stepper] || (v->pattern_mask[stepper][origin] & v->kind_patterns[PAT_PAWN])) ||
        !v->start_cell[mover][origin]) {
        snprintf(err, errlen, "en-passant cell %s does not follow a double step", g->cell_name[c]);
        return false;
    }
    *ep = c;
    *victim = landing;
    return true;
}

bool pos_set_fen(Position *pos, const Variant *v, const char *fen, char *err, size_t errlen)
{
    char copy[FEN_MAX * 2];
    char *field[16];
    int n = 0;
    if (strlen(fen) >= sizeof copy) {
        snprintf(err, errlen, "position text is too long");
        return false;
    }
    strcpy(copy, fen);
    char *save = NULL;
    for (char *t = strtok_r(copy, " \t\r\n", &save); t && n < 16; t = strtok_r(NULL, " \t\r\n", &save))
        field[n++] = t;
    int core = 2 + v->def->fen_castling + v->def->fen_ep;
    if (n != core && n != core + 2) {
        snprintf(err, errlen, "position text has %d fields, expected %d (or %d)", n, core + 2, core);
        return false;
    }
    FenBoard b;
    if (!fen_read_board(v, field[0], &b, err, errlen) || !check_pieces(v, &b, err, errlen))
        return false;
    int f = 1, side;
    if (strcmp(field[f], "w") == 0)
        side = WHITE;
    else if (strcmp(field[f], "b") == 0)
        side = BLACK;
    else {
        snprintf(err, errlen, "side to move must be 'w' or 'b', not '%s'", field[f]);
        return false;
    }
    f++;
    uint8_t rights = 0;
    if (v->def->fen_castling && !read_castling(v, field[f++], &b, &rights, err, errlen))
        return false;
    Cell ep = NO_CELL, victim = NO_CELL;
    if (v->def->fen_ep && !read_ep(v, field[f++], &b, side, &ep, &victim, err, errlen))
        return false;
    int halfmove = 0, fullmove = 1;
    if (n == core + 2) {
        if (!parse_int(field[f], 0, &halfmove) || !parse_int(field[f + 1], 1, &fullmove)) {
            snprintf(err, errlen, "bad move counters '%s %s'", field[f], field[f + 1]);
            return false;
        }
    }
    Position p;
    pos_clear(&p, v);
    for (Cell c = 0; c < v->geo->ncells; c++) {
        if (b.board[c])
            pos_put(&p, b.board[c], c);
        p.limping[c] = b.limping[c];
    }
    for (int s = 0; s < 2; s++)
        for (int t = 1; t <= v->ntypes; t++) {
            p.hand[s][t] = b.hand[s][t];
            p.hand_total[s] = (uint8_t)(p.hand_total[s] + b.hand[s][t]);
        }
    p.side = side;
    p.castling = rights;
    p.ep = ep;
    p.ep_victim = victim;
    p.halfmove = halfmove;
    p.fullmove = fullmove;
    p.key = pos_compute_key(&p);
    /* pos_mover_safe: also a royal that just double stepped and may be taken en passant. */
    Cell their_royal = p.royal[side ^ 1];
    if (their_royal != NO_CELL && !pos_mover_safe(&p)) {
        snprintf(err, errlen, "%s, not to move, is in check", colour_name[side ^ 1]);
        return false;
    }
    *pos = p;
    return true;
}

static void append(char *buf, size_t len, size_t *at, const char *s)
{
    size_t n = strlen(s);
    if (*at + n < len) {
        memcpy(buf + *at, s, n + 1);
        *at += n;
    }
}

void pos_fen(const Position *pos, char *buf, size_t len)
{
    const Variant *v = pos->v;
    const Geometry *g = v->geo;
    size_t at = 0;
    char tmp[32];
    buf[0] = 0;
    int cell = 0;
    for (int row = 0; row < g->nrows; row++) {
        int empty = 0;
        for (int i = 0; i < g->row_len[row]; i++, cell++) {
            Cell c = g->row_cells[cell];
            uint8_t code = pos->board[c];
            if (!code) {
                empty++;
                continue;
            }
            if (empty)
                snprintf(tmp, sizeof tmp, "%d%c%s", empty, v->letter[code], pos->limping[c] ? "~" : "");
            else
                snprintf(tmp, sizeof tmp, "%c%s", v->letter[code], pos->limping[c] ? "~" : "");
            append(buf, len, &at, tmp);
            empty = 0;
        }
        if (empty) {
            snprintf(tmp, sizeof tmp, "%d", empty);
            append(buf, len, &at, tmp);
        }
        if (row + 1 < g->nrows)
            append(buf, len, &at, "/");
    }
    if (v->def->fen_hand) {
        append(buf, len, &at, "[");
        /* Highest type first: the rules write the start hand as [KQRBNkqrbn]. */
        for (int side = 0; side < 2; side++)
            for (int t = v->ntypes; t >= 1; t--)
                for (int k = 0; k < pos->hand[side][t]; k++) {
                    snprintf(tmp, sizeof tmp, "%c", v->letter[MAKE_PIECE(side, t)]);
                    append(buf, len, &at, tmp);
                }
        append(buf, len, &at, "]");
    }
    append(buf, len, &at, pos->side == WHITE ? " w" : " b");
    if (v->def->fen_castling) {
        append(buf, len, &at, " ");
        if (!pos->castling)
            append(buf, len, &at, "-");
        for (int i = 0; i < v->ncastling; i++)
            if (pos->castling & (1u << i)) {
                snprintf(tmp, sizeof tmp, "%c", v->def->castling[i].fen_letter);
                append(buf, len, &at, tmp);
            }
    }
    if (v->def->fen_ep) {
        append(buf, len, &at, " ");
        append(buf, len, &at, pos->ep == NO_CELL ? "-" : g->cell_name[pos->ep]);
    }
    snprintf(tmp, sizeof tmp, " %d %d", pos->halfmove, pos->fullmove);
    append(buf, len, &at, tmp);
}
