/*
 * Notation.  Parsing never decodes text into a move directly: it renders every legal move
 * and compares, so only legal moves are ever returned and both notations share one source
 * of truth with the printers.
 */
#include "notation.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "movegen.h"
#include "variant.h"

static Cell castle_rook(const Variant *v, Move m)
{
    for (int i = 0; i < v->ncastling; i++)
        if (v->castle[i].king_from == MOVE_FROM(m) && v->castle[i].king_to == MOVE_TO(m))
            return v->castle[i].rook_from;
    return NO_CELL;
}

static const char *castle_san(const Variant *v, Move m)
{
    for (int i = 0; i < v->ncastling; i++)
        if (v->castle[i].king_from == MOVE_FROM(m) && v->castle[i].king_to == MOVE_TO(m))
            return v->def->castling[i].san;
    return "O-O";
}

void move_to_text(const Position *pos, Move m, char *buf)
{
    const Variant *v = pos->v;
    const Geometry *g = v->geo;
    if (MOVE_KIND(m) == MK_PLACE) {
        sprintf(buf, "%c@%s", v->letter[MAKE_PIECE(WHITE, MOVE_PIECE(m))], g->cell_name[MOVE_TO(m)]);
        return;
    }
    Cell to = MOVE_TO(m);
    if (MOVE_KIND(m) == MK_CASTLE && v->def->castle_king_takes_rook)
        to = castle_rook(v, m);
    int n = sprintf(buf, "%s%s%s", g->cell_name[MOVE_FROM(m)], g->numeric_names ? "-" : "", g->cell_name[to]);
    if (MOVE_PIECE(m))
        sprintf(buf + n, "%c", v->letter[MAKE_PIECE(BLACK, MOVE_PIECE(m))]);
}

/* "Nbd2", "R14-11", "Ue5": what distinguishes m from other legal moves of its kind of piece. */
static void disambiguation(Position *pos, Move m, const Move *legal, int n, bool capture, char *out)
{
    const Geometry *g = pos->v->geo;
    Cell from = MOVE_FROM(m), to = MOVE_TO(m);
    int type = pos_moved_type(pos, m);
    bool pawn = type == pos->v->pawn_type;
    bool others = false, same_file = false, same_rank = false;
    for (int i = 0; i < n; i++) {
        Move o = legal[i];
        if (MOVE_KIND(o) == MK_PLACE || MOVE_KIND(o) == MK_CASTLE || MOVE_TO(o) != to || MOVE_FROM(o) == from ||
            pos_moved_type(pos, o) != type)
            continue;
        others = true;
        same_file |= g->q[MOVE_FROM(o)] == g->q[from];
        same_rank |= g->r[MOVE_FROM(o)] == g->r[from];
    }
    out[0] = 0;
    if (g->file_rank_names) {
        if (pawn && capture)
            sprintf(out, "%c", g->cell_name[from][0]);
        else if (others && !same_file)
            sprintf(out, "%c", g->cell_name[from][0]);
        else if (others && !same_rank)
            sprintf(out, "%s", g->cell_name[from] + 1);
        else if (others)
            sprintf(out, "%s", g->cell_name[from]);
    } else if (others) {
        sprintf(out, "%s%s", g->cell_name[from], g->numeric_names && !capture ? "-" : "");
    }
}

static void san_body(Position *pos, Move m, const Move *legal, int n, char *buf)
{
    const Variant *v = pos->v;
    const Geometry *g = v->geo;
    int type = pos_moved_type(pos, m);
    char letter = v->letter[MAKE_PIECE(WHITE, type)];
    bool capture = pos_is_capture(pos, m);
    if (MOVE_KIND(m) == MK_PLACE) {
        sprintf(buf, "%c%s", letter, g->cell_name[MOVE_TO(m)]);
        return;
    }
    if (MOVE_KIND(m) == MK_CASTLE) {
        strcpy(buf, castle_san(v, m));
        return;
    }
    int len = 0;
    if (v->def->san_style == SAN_LONG) {
        if (v->is_royal[pos->board[MOVE_FROM(m)]])
            buf[len++] = letter;
        len += sprintf(buf + len, "%s%c%s", g->cell_name[MOVE_FROM(m)], capture ? 'x' : '-', g->cell_name[MOVE_TO(m)]);
    } else {
        char dis[CELL_NAME_MAX + 2];
        disambiguation(pos, m, legal, n, capture, dis);
        if (type != v->pawn_type)
            buf[len++] = letter;
        len += sprintf(buf + len, "%s%s%s", dis, capture ? "x" : "", g->cell_name[MOVE_TO(m)]);
    }
    if (MOVE_PIECE(m))
        sprintf(buf + len, "=%c", v->letter[MAKE_PIECE(WHITE, MOVE_PIECE(m))]);
    else
        buf[len] = 0;
}

static void san_with_legal(Position *pos, Move m, const Move *legal, int n, char *buf)
{
    san_body(pos, m, legal, n, buf);
    Undo u;
    pos_make(pos, m, &u);
    size_t len = strlen(buf);
    if (u.removed && pos->v->def->removal_mark)
        buf[len++] = pos->v->def->removal_mark;
    if (pos_in_check(pos)) {
        Move replies[MAX_MOVES];
        buf[len++] = gen_legal(pos, replies) ? '+' : '#';
    }
    buf[len] = 0;
    pos_unmake(pos, m, &u);
}

void move_to_san(Position *pos, Move m, char *buf)
{
    Move legal[MAX_MOVES];
    int n = gen_legal(pos, legal);
    san_with_legal(pos, m, legal, n, buf);
}

/* SAN compared without decorations: check and mate signs, removal marks, annotations. */
static void strip_san(const char *in, char *out, size_t len, bool loose)
{
    size_t k = 0;
    for (; *in && k + 1 < len; in++) {
        if (strchr("+#!?^", *in) || (loose && strchr("x=-:", *in)))
            continue;
        out[k++] = *in;
    }
    out[k] = 0;
}

static bool looks_like_coordinates(const Position *pos, const char *text)
{
    const Geometry *g = pos->v->geo;
    int len;
    if (strchr(text, '@'))
        return true;
    if (geo_parse_cell(g, text, &len) == NO_CELL)
        return false;
    text += len;
    if (*text == '-')
        text++;
    return geo_parse_cell(g, text, &len) != NO_CELL;
}

/* For a placement written LETTER@CELL that is not legal, says why; false for other text. */
static bool placement_problem(const Position *pos, const char *text, char *why, size_t len)
{
    const Variant *v = pos->v;
    int cell_len;
    if (strlen(text) < 3 || text[1] != '@')
        return false;
    int type = variant_type_of_letter(v, (char)toupper((unsigned char)text[0]));
    Cell c = geo_parse_cell(v->geo, text + 2, &cell_len);
    if (!type || c == NO_CELL || text[2 + cell_len])
        return false;
    const char *side = pos->side == WHITE ? "White" : "Black";
    if (!pos->hand_total[pos->side])
        snprintf(why, len, "%s has no pieces in hand", side);
    else if (!pos->hand[pos->side][type])
        snprintf(why, len, "%s has no %s in hand", side, v->def->pieces[type - 1].name);
    else if (!v->placement_zone[pos->side][c])
        snprintf(why, len, "%s places pieces only on its own back rank, not on %s", side, v->geo->cell_name[c]);
    else if (pos->board[c])
        snprintf(why, len, "%s is occupied", v->geo->cell_name[c]);
    else
        snprintf(why, len, "it would leave %s's king attacked", side);
    return true;
}

Move parse_move(Position *pos, const char *text, char *err, size_t errlen)
{
    Move legal[MAX_MOVES];
    int n = gen_legal(pos, legal);
    char buf[MOVE_TEXT_MAX], a[MOVE_TEXT_MAX], b[MOVE_TEXT_MAX];
    if (strlen(text) >= MOVE_TEXT_MAX) {
        snprintf(err, errlen, "unknown move '%.20s...': too long", text);
        return MOVE_NONE;
    }
    for (int i = 0; i < n; i++) {
        move_to_text(pos, legal[i], buf);
        if (strcmp(buf, text) == 0)
            return legal[i];
        /* Promotion and placement letters in either case. */
        if (strcasecmp(buf, text) == 0 && strlen(buf) > 2)
            return legal[i];
    }
    const char *san = strncmp(text, "0-0-0", 5) == 0 ? "O-O-O" : strncmp(text, "0-0", 3) == 0 ? "O-O" : text;
    for (int loose = 0; loose < 2; loose++) {
        strip_san(san, a, sizeof a, loose);
        for (int i = 0; i < n; i++) {
            san_body(pos, legal[i], legal, n, buf);
            strip_san(buf, b, sizeof b, loose);
            if (a[0] && strcmp(a, b) == 0)
                return legal[i];
        }
    }
    char why[96];
    if (placement_problem(pos, text, why, sizeof why))
        snprintf(err, errlen, "illegal move '%s': %s", text, why);
    else if (looks_like_coordinates(pos, text))
        snprintf(err, errlen, "illegal move '%s'", text);
    else
        snprintf(err, errlen, "unknown move '%s'", text);
    return MOVE_NONE;
}
