/*
 * Notation.  Parsing never decodes text into a move directly: it renders every legal move
 * and compares, so only legal moves are ever returned and both notations share one source
 * of truth with the printers.
 */
#include "notation.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
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

/*
 * The legal moves of a position, each with the type of piece it moves, and linked by
 * destination, so that SAN's disambiguation of a move looks only at the moves to its cell: the
 * SAN of every legal move costs O(n), not O(n^2).
 */
typedef struct {
    int n;
    Move move[MAX_MOVES + 1]; /* room for one more: move_to_san's move if it is not legal */
    int type[MAX_MOVES + 1];
    short next_to[MAX_MOVES + 1]; /* the next move to the same cell, or -1 */
    short first_to[MAX_CELLS];
} LegalMoves;

static void link_move(const Position *pos, LegalMoves *l, int i)
{
    Cell to = MOVE_TO(l->move[i]);
    l->type[i] = pos_moved_type(pos, l->move[i]);
    l->next_to[i] = l->first_to[to];
    l->first_to[to] = (short)i;
}

static void legal_moves(Position *pos, LegalMoves *l)
{
    l->n = gen_legal(pos, l->move);
    memset(l->first_to, -1, sizeof l->first_to);
    for (int i = l->n - 1; i >= 0; i--)
        link_move(pos, l, i);
}

/* "Nbd2", "R14-11", "Ue5": what distinguishes legal move i from other legal moves of its kind
 * of piece. */
static void disambiguation(const Position *pos, const LegalMoves *l, int i, bool capture, char *out)
{
    const Geometry *g = pos->v->geo;
    Move m = l->move[i];
    Cell from = MOVE_FROM(m);
    int type = l->type[i];
    bool pawn = type == pos->v->pawn_type;
    bool others = false, same_file = false, same_rank = false;
    for (int k = l->first_to[MOVE_TO(m)]; k >= 0; k = l->next_to[k]) {
        Move o = l->move[k];
        if (MOVE_KIND(o) == MK_PLACE || MOVE_KIND(o) == MK_CASTLE || MOVE_FROM(o) == from || l->type[k] != type)
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

/* The SAN of legal move i without its check, mate and removal marks. */
static void san_body(const Position *pos, const LegalMoves *l, int i, char *buf)
{
    const Variant *v = pos->v;
    const Geometry *g = v->geo;
    Move m = l->move[i];
    int type = l->type[i];
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
        disambiguation(pos, l, i, capture, dis);
        if (type != v->pawn_type)
            buf[len++] = letter;
        len += sprintf(buf + len, "%s%s%s", dis, capture ? "x" : "", g->cell_name[MOVE_TO(m)]);
    }
    if (MOVE_PIECE(m))
        sprintf(buf + len, "=%c", v->letter[MAKE_PIECE(WHITE, MOVE_PIECE(m))]);
    else
        buf[len] = 0;
}

static void san_with_legal(Position *pos, const LegalMoves *l, int i, char *buf)
{
    Move m = l->move[i];
    san_body(pos, l, i, buf);
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
    LegalMoves l;
    legal_moves(pos, &l);
    int i = 0;
    while (i < l.n && l.move[i] != m)
        i++;
    if (i == l.n) { /* a move that is not legal here: disambiguated among the legal ones */
        l.move[i] = m;
        link_move(pos, &l, i);
    }
    san_with_legal(pos, &l, i, buf);
}

/* A sign that SAN is compared without: check and mate signs, removal marks, annotations, and
 * loosely also capture, promotion and hyphen signs.  (A switch, not strchr on the signs: under
 * the fuzz targets' sanitizers each strchr was an intercepted, checked memchr.) */
static bool san_decoration(char c, bool loose)
{
    switch (c) {
    case '+':
    case '#':
    case '!':
    case '?':
    case '^':
        return true;
    case 'x':
    case '=':
    case '-':
    case ':':
        return loose;
    default:
        return false;
    }
}

/* SAN compared without decorations (san_decoration). */
static void strip_san(const char *in, char *out, size_t len, bool loose)
{
    size_t k = 0;
    for (; *in && k + 1 < len; in++)
        if (!san_decoration(*in, loose))
            out[k++] = *in;
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

/* The piece and cell of a placement written LETTER@CELL, or (while pieces are in hand) LETTER
 * CELL or, as the Polgár notation does, CELL LETTER; false for other text. */
static bool read_placement(const Position *pos, const char *text, int *type, Cell *c)
{
    const Variant *v = pos->v;
    int cell_len;
    if (strlen(text) >= 3 && text[1] == '@') {
        *c = geo_parse_cell(v->geo, text + 2, &cell_len);
        *type = variant_type_of_letter(v, (char)toupper((unsigned char)text[0]));
        return *type && *c != NO_CELL && !text[2 + cell_len];
    }
    if (!pos->hand_total[pos->side] || !text[0])
        return false;
    *c = geo_parse_cell(v->geo, text + 1, &cell_len);
    if (*c != NO_CELL && !text[1 + cell_len]) {
        *type = variant_type_of_letter(v, text[0]);
        return *type != 0;
    }
    *c = geo_parse_cell(v->geo, text, &cell_len);
    *type = *c != NO_CELL && text[cell_len] && !text[cell_len + 1] ? variant_type_of_letter(v, text[cell_len]) : 0;
    return *type != 0;
}

/* For a placement that is not legal, says why; false for text that is no placement. */
static bool placement_problem(const Position *pos, const char *text, char *why, size_t len)
{
    const Variant *v = pos->v;
    int type;
    Cell c;
    if (!read_placement(pos, text, &type, &c))
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

/* The piece named by a figurine at the start of s (3 bytes of UTF-8: U+2654..U+265F, white
 * ♔♕♖♗♘♙ then black ♚♛♜♝♞♟), or NULL. */
static const char *figurine_name(const char *s)
{
    static const char *const names[6] = {"king", "queen", "rook", "bishop", "knight", "pawn"};
    const unsigned char *u = (const unsigned char *)s;
    if (u[0] != 0xE2 || u[1] != 0x99 || u[2] < 0x94 || u[2] > 0x9F)
        return NULL;
    return names[(u[2] - 0x94) % 6];
}

/*
 * Game records in figurines (♘f3, the Polgár notation's ♘2): each figurine becomes the letter
 * of the variant's piece of that name, a pawn's figurine nothing (SAN writes no letter for
 * pawns).  False when a figurine names no piece of this variant, or the text is too long.
 */
static bool read_figurines(const Variant *v, const char *in, char *out, size_t len)
{
    size_t k = 0;
    while (*in) {
        const char *name = figurine_name(in);
        char letter = *in;
        if (name) {
            letter = 0;
            for (int t = 1; t <= v->ntypes; t++)
                if (strcmp(v->def->pieces[t - 1].name, name) == 0)
                    letter = t == v->pawn_type ? ' ' : v->letter[MAKE_PIECE(WHITE, t)];
            if (!letter)
                return false;
            in += 3;
        } else {
            in++;
        }
        if (letter != ' ') {
            if (k + 1 >= len)
                return false;
            out[k++] = letter;
        }
    }
    out[k] = 0;
    return true;
}

/* A placement as the Polgár notation writes it, the cell first: "17N" (from "17 ♘"). */
static void placement_cell_first(const Position *pos, Move m, char *buf)
{
    const Variant *v = pos->v;
    sprintf(buf, "%s%c", v->geo->cell_name[MOVE_TO(m)], v->letter[MAKE_PIECE(WHITE, MOVE_PIECE(m))]);
}

static int compare_text(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* "white knight" */
static void piece_words(const Position *pos, int type, char *out, size_t len)
{
    snprintf(out, len, "%s %s", pos->side == WHITE ? "white" : "black", pos->v->def->pieces[type - 1].name);
}

/*
 * For SAN (without decorations) that names a piece, or none for a pawn, and a destination but
 * matches no legal move, says why: no such piece can go there (or only by leaving the king
 * attacked), several can and the text does not say which, or a promotion is left out.  False
 * for text that names no destination.
 */
static bool san_problem(Position *pos, const char *san, const LegalMoves *l, char *why, size_t len)
{
    const Variant *v = pos->v;
    const Geometry *g = v->geo;
    size_t total = strlen(san), at = total;
    Cell to = NO_CELL;
    for (size_t i = 0; i < total; i++) { /* the destination: the longest cell name ending the text */
        int cell_len;
        Cell c = geo_parse_cell(g, san + i, &cell_len);
        if (c != NO_CELL && i + (size_t)cell_len == total) {
            to = c;
            at = i;
            break;
        }
    }
    if (to == NO_CELL)
        return false;
    if (pos->hand_total[pos->side]) {
        snprintf(why, len, "%s still has pieces to place", pos->side == WHITE ? "White" : "Black");
        return true;
    }
    int type = at > 0 ? variant_type_of_letter(v, san[0]) : 0;
    if (!type || (at > 1 && type == v->pawn_type))
        type = v->pawn_type; /* "ed5": a pawn from the e-file */
    if (!type)
        return false;
    char piece[64], bodies[MAX_MOVES][MOVE_TEXT_MAX], list[160] = "";
    piece_words(pos, type, piece, sizeof piece);
    int found = 0, pseudo = 0, promotions = 0;
    for (int i = l->first_to[to]; i >= 0; i = l->next_to[i]) {
        if (MOVE_KIND(l->move[i]) == MK_PLACE || l->type[i] != type)
            continue;
        san_body(pos, l, i, bodies[found++]);
        promotions += MOVE_PIECE(l->move[i]) != 0;
    }
    qsort(bodies, (size_t)found, sizeof bodies[0], compare_text); /* the same list whatever the generation order */
    for (int i = 0; i < found && strlen(list) + strlen(bodies[i]) + 3 < sizeof list; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", bodies[i]);
    Move all[MAX_MOVES];
    int np = gen_pseudo(pos, all);
    for (int i = 0; i < np; i++)
        pseudo += MOVE_KIND(all[i]) != MK_PLACE && MOVE_TO(all[i]) == to && pos_moved_type(pos, all[i]) == type;
    if (found == 0 && pseudo > 0)
        snprintf(why, len, "a %s could move to %s only by leaving its king attacked", piece, g->cell_name[to]);
    else if (found == 0)
        snprintf(why, len, "no %s can move to %s", piece, g->cell_name[to]);
    else if (promotions == found)
        snprintf(why, len, "the %s promotes on %s: say to what (%s)", piece, g->cell_name[to], list);
    else
        snprintf(why, len, "ambiguous: more than one %s can move to %s (%s)", piece, g->cell_name[to], list);
    return true;
}

/* Could move m's coordinate text be `text`?  A cheap test before rendering it: the text must
 * begin with what the rendering begins with, the origin's name ("e2e4", any case) or a
 * placement's "N@". */
static bool may_be_coordinates(const Position *pos, Move m, const char *text)
{
    if (MOVE_KIND(m) == MK_PLACE)
        return text[0] && text[1] == '@';
    const char *from = pos->v->geo->cell_name[MOVE_FROM(m)];
    return strncasecmp(text, from, strlen(from)) == 0;
}

/* The coordinate text of a legal move, its promotion or placement letter in either case. */
static int find_coordinates(const Position *pos, const LegalMoves *l, const char *text)
{
    char buf[MOVE_TEXT_MAX];
    for (int i = 0; i < l->n; i++) {
        if (!may_be_coordinates(pos, l->move[i], text))
            continue;
        move_to_text(pos, l->move[i], buf);
        if (strcmp(buf, text) == 0 || (strcasecmp(buf, text) == 0 && strlen(buf) > 2))
            return i;
    }
    return -1;
}

/*
 * Could move m's SAN match `loose` (a text as find_san compares it loosely), strictly or
 * loosely?  A cheap test before rendering it: but for castling, every form of a move's SAN
 * holds its destination's name, and strip_san drops characters one by one, so the stripped
 * name is in the stripped SAN, and in any text that matches it.
 */
static bool may_be_san(const Position *pos, Move m, const char *loose)
{
    char name[CELL_NAME_MAX];
    if (MOVE_KIND(m) == MK_CASTLE)
        return true;
    strip_san(pos->v->geo->cell_name[MOVE_TO(m)], name, sizeof name, true);
    return strstr(loose, name) != NULL;
}

/*
 * The legal move whose SAN is `san` (figurines read), in one pass over the moves: the first
 * whose SAN equals it without decorations (strip_san), else the first that equals it loosely,
 * without capture, promotion and hyphen signs, a placement also with its cell first (the Polgár
 * notation: "17 ♘").  `loose` gets the text as compared loosely.
 */
static int find_san(const Position *pos, const LegalMoves *l, const char *san, char *loose, size_t len)
{
    char strict[MOVE_TEXT_MAX], buf[MOVE_TEXT_MAX], b[MOVE_TEXT_MAX];
    strip_san(san, strict, sizeof strict, false);
    strip_san(san, loose, len, true);
    int loose_match = -1;
    for (int i = 0; i < l->n && strict[0]; i++) {
        if (!may_be_san(pos, l->move[i], loose))
            continue;
        san_body(pos, l, i, buf);
        strip_san(buf, b, sizeof b, false);
        if (strcmp(strict, b) == 0)
            return i;
        if (loose_match >= 0)
            continue;
        if (MOVE_KIND(l->move[i]) == MK_PLACE)
            placement_cell_first(pos, l->move[i], buf);
        strip_san(buf, b, sizeof b, true);
        if (strcmp(loose, b) == 0)
            loose_match = i;
    }
    return loose[0] ? loose_match : -1;
}

Move parse_move(Position *pos, const char *text, char *err, size_t errlen)
{
    LegalMoves l;
    char a[MOVE_TEXT_MAX], letters[MOVE_TEXT_MAX];
    if (strlen(text) >= MOVE_TEXT_MAX) {
        snprintf(err, errlen, "unknown move '%.20s...': too long", text);
        return MOVE_NONE;
    }
    legal_moves(pos, &l);
    int i = find_coordinates(pos, &l, text);
    if (i >= 0)
        return l.move[i];
    if (!read_figurines(pos->v, text, letters, sizeof letters)) {
        snprintf(err, errlen, "unknown move '%s': a figurine that names no piece of %s", text, pos->v->def->name);
        return MOVE_NONE;
    }
    const char *san = strncmp(letters, "0-0-0", 5) == 0 ? "O-O-O" : strncmp(letters, "0-0", 3) == 0 ? "O-O" : letters;
    i = find_san(pos, &l, san, a, sizeof a);
    if (i >= 0)
        return l.move[i];
    char why[320]; /* room for san_problem's longest: a piece, a cell and the candidates */
    if (placement_problem(pos, text, why, sizeof why) || placement_problem(pos, a, why, sizeof why))
        snprintf(err, errlen, "illegal move '%s': %s", text, why);
    else if (looks_like_coordinates(pos, text))
        snprintf(err, errlen, "illegal move '%s'", text);
    else if (san_problem(pos, a, &l, why, sizeof why))
        snprintf(err, errlen, "illegal move '%s': %s", text, why);
    else
        snprintf(err, errlen, "unknown move '%s'", text);
    return MOVE_NONE;
}

/* A lone piece sign: one letter or one figurine. */
static bool piece_sign(const char *t)
{
    return (isalpha((unsigned char)t[0]) && !t[1]) || (figurine_name(t) && !t[3]);
}

Move parse_move_tokens(Position *pos, char *const *tokens, int n, int *used, char *err, size_t errlen)
{
    *used = 1;
    size_t first = strlen(tokens[0]), second = n >= 2 ? strlen(tokens[1]) : 0;
    if (!(n >= 2 && piece_sign(tokens[1]) && first + second < MOVE_TEXT_MAX))
        return parse_move(pos, tokens[0], err, errlen);
    /* A piece sign alone is no move: the two are one, or the first is a move of its own. */
    char joined[MOVE_TEXT_MAX], ignored[8]; /* if neither reads, the joined reading's error tells why */
    memcpy(joined, tokens[0], first);
    memcpy(joined + first, tokens[1], second + 1);
    Move m = parse_move(pos, joined, err, errlen);
    if (m != MOVE_NONE) {
        *used = 2;
        return m;
    }
    return parse_move(pos, tokens[0], ignored, sizeof ignored);
}
