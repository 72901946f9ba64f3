/*
 * Move generation.
 *
 * gen_pseudo() walks each piece's move program (see variant.c); gen_legal() keeps the moves
 * after which the mover's royal piece is safe.  For variants whose attacks are all steps,
 * leaps and slides (simple_legality), most moves are proved legal without being made: when
 * the side is not in check, a move of a piece that is not pinned against its royal cannot
 * expose it, and a royal move is safe when its target is not attacked with the royal lifted
 * off the board.  Where a moved piece may be removed after its move (moved_piece_survives),
 * a removed piece empties its from and to cells: that can expose the royal only when one of
 * them holds one of the (at most two) pieces between the royal and an enemy slider aimed at
 * it, and a removed royal makes the move illegal.  Everything else (en passant,
 * castling, a royal double step, which en passant may answer) is made and tested.
 */
#include "movegen.h"

#include <string.h>

typedef struct {
    Move *out;
    int n;
} MoveList;

static inline void add(MoveList *l, Cell from, Cell to, int piece, MoveKind kind)
{
    l->out[l->n++] = MOVE(from, to, piece, kind);
}

/* A pawn reaching its promotion zone becomes each promotion piece in turn. */
static inline void add_pawn(const Position *pos, MoveList *l, Cell from, Cell to, MoveKind kind)
{
    const Variant *v = pos->v;
    if (v->promotion_zone[pos->side][to] && v->npromotion_types) {
        for (int i = 0; i < v->npromotion_types; i++)
            add(l, from, to, v->promotion_types[i], kind);
    } else {
        add(l, from, to, 0, kind);
    }
}

static void gen_placements(const Position *pos, MoveList *l)
{
    const Variant *v = pos->v;
    int us = pos->side;
    for (int t = 1; t <= v->ntypes; t++) {
        if (!pos->hand[us][t])
            continue;
        for (Cell c = 0; c < v->geo->ncells; c++)
            if (v->placement_zone[us][c] && !pos->board[c])
                add(l, NO_CELL, c, t, MK_PLACE);
    }
}

static void gen_castling(const Position *pos, MoveList *l)
{
    const Variant *v = pos->v;
    int us = pos->side;
    for (int i = 0; i < v->ncastling; i++) {
        if (!(pos->castling & (1u << i)) || v->castle[i].colour != us)
            continue;
        Cell kf = v->castle[i].king_from, rf = v->castle[i].rook_from;
        uint8_t king = pos->board[kf], rook = pos->board[rf];
        if (!king || !v->is_royal[king] || PIECE_COLOUR(king) != us || !rook || PIECE_COLOUR(rook) != us)
            continue;
        bool ok = true;
        for (int k = 0; k < v->castle[i].nempty && ok; k++)
            ok = !pos->board[v->castle[i].empty[k]];
        for (int k = 0; k < v->castle[i].nsafe && ok; k++)
            ok = !pos_attacked(pos, v->castle[i].safe[k], us ^ 1);
        if (ok)
            add(l, kf, v->castle[i].king_to, 0, MK_CASTLE);
    }
}

/* The moves of the piece on `from`; without `quiets`, only captures and promotions. */
static void gen_piece(const Position *pos, MoveList *l, Cell from, bool quiets)
{
    const Variant *v = pos->v;
    const uint8_t *board = pos->board;
    uint8_t code = board[from];
    int us = pos->side;
    bool pawn = v->is_pawn[code];
    uint8_t seen[MAX_CELLS];
    bool dedup = v->needs_dedup[code];
    int first = l->n;
    if (dedup)
        memset(seen, 0, (size_t)v->geo->ncells);
    for (const uint8_t *p = v->prog + v->prog_at[code][from]; *p; p += 2 + p[1]) {
        const uint8_t *cells = p + 2, *end = cells + p[1];
        int kind = *p & E_KIND_MASK;
        bool quiet = *p & E_QUIET, capture = *p & E_CAPTURE;
        switch (kind) {
        case E_LEAPS:
            for (; cells < end; cells++) {
                uint8_t o = board[*cells];
                if (o ? capture && PIECE_COLOUR(o) != us
                      : quiet && (quiets || (pawn && v->promotion_zone[us][*cells]))) {
                    if (pawn)
                        add_pawn(pos, l, from, *cells, MK_NORMAL);
                    else
                        add(l, from, *cells, 0, MK_NORMAL);
                }
            }
            break;
        case E_RAY:
        case E_ROSE:
            for (; cells < end; cells++) {
                uint8_t o = board[*cells];
                if (!o) {
                    if (quiet && quiets)
                        add(l, from, *cells, 0, MK_NORMAL);
                    continue;
                }
                if (capture && PIECE_COLOUR(o) != us)
                    add(l, from, *cells, 0, MK_NORMAL);
                break;
            }
            break;
        case E_PUSH:
            if (board[cells[0]])
                break;
            if (quiets || v->promotion_zone[us][cells[0]])
                add_pawn(pos, l, from, cells[0], MK_NORMAL);
            if (p[1] == 2 && !board[cells[1]] && !pos->limping[from] && (quiets || v->promotion_zone[us][cells[1]]))
                add_pawn(pos, l, from, cells[1], MK_DOUBLE);
            break;
        case E_PAWN_CAPTURE:
            for (; cells < end; cells++) {
                uint8_t o = board[*cells];
                if (o && PIECE_COLOUR(o) != us)
                    add_pawn(pos, l, from, *cells, MK_NORMAL);
                else if (!o && *cells == pos->ep)
                    add(l, from, *cells, 0, MK_EP);
            }
            break;
        case E_HOP: {
            bool screened = false;
            for (; cells < end; cells++) {
                uint8_t o = board[*cells];
                if (!screened) {
                    if (!o) {
                        if (quiet && quiets)
                            add(l, from, *cells, 0, MK_NORMAL);
                    } else {
                        screened = true;
                    }
                } else if (o) {
                    if (capture && PIECE_COLOUR(o) != us)
                        add(l, from, *cells, 0, MK_NORMAL);
                    break;
                }
            }
            break;
        }
        }
    }
    if (dedup) { /* keep the first move to each (target, piece, kind) */
        int n = first;
        for (int i = first; i < l->n; i++) {
            Cell to = MOVE_TO(l->out[i]);
            bool dup = false;
            if (seen[to])
                for (int j = first; j < n && !dup; j++)
                    dup = l->out[j] == l->out[i];
            seen[to] = 1;
            if (!dup)
                l->out[n++] = l->out[i];
        }
        l->n = n;
    }
}

int gen_pseudo(const Position *pos, Move *out)
{
    MoveList l = {out, 0};
    int us = pos->side;
    if (pos->hand_total[us]) { /* the setup phase: placements only */
        gen_placements(pos, &l);
        return l.n;
    }
    for (int i = 0; i < pos->pcount[us]; i++)
        gen_piece(pos, &l, pos->plist[us][i], true);
    if (pos->castling)
        gen_castling(pos, &l);
    return l.n;
}

int gen_captures(const Position *pos, Move *out)
{
    MoveList l = {out, 0};
    int us = pos->side;
    if (pos->hand_total[us])
        return 0;
    for (int i = 0; i < pos->pcount[us]; i++)
        gen_piece(pos, &l, pos->plist[us][i], false);
    return l.n;
}

bool move_is_legal(Position *pos, Move m)
{
    Undo u;
    pos_make(pos, m, &u);
    bool ok = pos_mover_safe(pos);
    pos_unmake(pos, m, &u);
    return ok;
}

/* The pieces between the royal and an enemy slider aimed at it. */
typedef struct {
    Cell pinned[MAX_PIECES]; /* ours, alone on the line: moving off it exposes the royal */
    /* Either side's, one or two on the line: emptying their cells (a move whose piece is
     * removed empties its from and to cells) may expose the royal. */
    Cell screens[2 * MAX_PIECES];
    int npinned, nscreens;
} LineBlockers;

/* The next occupied cell of a ray from `cells` on, or `end`. */
static inline const uint8_t *next_piece(const Position *pos, const uint8_t *cells, const uint8_t *end)
{
    while (cells < end && !pos->board[*cells])
        cells++;
    return cells;
}

/*
 * One walk over the attack program at the royal's cell: is the royal attacked, and which
 * pieces stand between it and an enemy slider (two deep only where moved pieces may be
 * removed)?
 */
static bool royal_attacked_and_pins(const Position *pos, Cell royal, LineBlockers *b)
{
    const Variant *v = pos->v;
    int us = pos->side;
    const uint16_t(*mask_of)[MAX_CELLS] = v->side_mask[us ^ 1];
    const uint8_t *p = v->atk + v->atk_at[us ^ 1][royal];
    bool attacked = false;
    b->npinned = b->nscreens = 0;
    if (*p == A_LEAPS) {
        const uint8_t *e = p + 2, *end = e + 3 * p[1];
        for (; e < end && !attacked; e += 3)
            attacked = mask_of[pos->board[e[0]]][e[0]] & (e[1] | (unsigned)e[2] << 8);
        p = end;
    }
    bool removals = v->def->moved_piece_survives != NULL;
    for (; *p; p += 4 + p[3]) {
        unsigned mask = p[1] | (unsigned)p[2] << 8;
        const uint8_t *end = p + 4 + p[3], *first = next_piece(pos, p + 4, end);
        if (first == end)
            continue;
        if (mask_of[pos->board[*first]][*first] & mask) {
            attacked = true;
            continue;
        }
        const uint8_t *second = next_piece(pos, first + 1, end);
        if (second == end)
            continue;
        if (mask_of[pos->board[*second]][*second] & mask) {
            if (PIECE_COLOUR(pos->board[*first]) == us)
                b->pinned[b->npinned++] = *first;
            b->screens[b->nscreens++] = *first;
            continue;
        }
        const uint8_t *third = removals ? next_piece(pos, second + 1, end) : end;
        if (third < end && (mask_of[pos->board[*third]][*third] & mask)) {
            b->screens[b->nscreens++] = *first;
            b->screens[b->nscreens++] = *second;
        }
    }
    return attacked;
}

static bool royal_target_safe(Position *pos, Cell royal, Cell to)
{
    uint8_t code = pos->board[royal];
    pos->board[royal] = 0;
    bool safe = !pos_attacked(pos, to, pos->side ^ 1);
    pos->board[royal] = code;
    return safe;
}

static bool listed(const Cell *cells, int n, Cell c)
{
    for (int k = 0; k < n; k++)
        if (cells[k] == c)
            return true;
    return false;
}

/* A move of a piece other than the royal, in a position without check. */
static bool piece_move_legal(Position *pos, Move m, const LineBlockers *b)
{
    Cell from = MOVE_FROM(m), to = MOVE_TO(m);
    if (listed(b->pinned, b->npinned, from))
        return move_is_legal(pos, m);
    const VariantDef *d = pos->v->def;
    if (d->moved_piece_survives && (listed(b->screens, b->nscreens, from) || listed(b->screens, b->nscreens, to)) &&
        !d->moved_piece_survives(pos, m))
        return move_is_legal(pos, m);
    return true;
}

/* A royal move other than castling and a double step, in a position without check. */
static bool royal_move_legal(Position *pos, Move m)
{
    const VariantDef *d = pos->v->def;
    if (d->moved_piece_survives && !d->moved_piece_survives(pos, m))
        return false; /* the royal would be removed */
    return royal_target_safe(pos, MOVE_FROM(m), MOVE_TO(m));
}

int gen_legal(Position *pos, Move *out)
{
    int n = gen_pseudo(pos, out), kept = 0;
    Cell royal = pos->royal[pos->side];
    LineBlockers b;
    bool fast = pos->v->simple_legality && royal != NO_CELL && !pos->hand_total[pos->side] &&
                !royal_attacked_and_pins(pos, royal, &b);
    if (!fast) {
        for (int i = 0; i < n; i++)
            if (move_is_legal(pos, out[i]))
                out[kept++] = out[i];
        return kept;
    }
    for (int i = 0; i < n; i++) {
        Move m = out[i];
        Cell from = MOVE_FROM(m);
        bool legal;
        MoveKind kind = MOVE_KIND(m);
        if (kind == MK_EP || kind == MK_CASTLE || (from == royal && kind == MK_DOUBLE))
            legal = move_is_legal(pos, m);
        else if (from == royal)
            legal = royal_move_legal(pos, m);
        else
            legal = piece_move_legal(pos, m, &b);
        if (legal)
            out[kept++] = m;
    }
    return kept;
}
