#include "see.h"

#include "../core/movegen.h"

/* A royal piece may capture last only: losing it outweighs any material. */
#define SEE_ROYAL 100000

static int see_value(const Variant *v, const int *value, uint8_t code)
{
    return v->is_royal[code] ? SEE_ROYAL : value[code];
}

/* Side's least valuable piece attacking x when only the cells of *occ hold pieces (the
 * lowest cell among equals), or NO_CELL. */
static Cell least_attacker(const Position *pos, Cell x, int side, const CellSet *occ, const int *value)
{
    CellSet mine = pos_attackers(pos, x, side, occ);
    Cell best = NO_CELL;
    int best_value = 0;
    CELLSET_EACH(c, &mine) {
        int val = see_value(pos->v, value, pos->board[c]);
        if (best == NO_CELL || val < best_value) {
            best = c;
            best_value = val;
        }
    }
    return best;
}

int see(const Position *pos, Move m, const int *value)
{
    const Variant *v = pos->v;
    MoveKind kind = MOVE_KIND(m);
    if (kind == MK_PLACE || kind == MK_CASTLE)
        return 0;
    Cell from = MOVE_FROM(m), to = MOVE_TO(m);
    int victim = value[pos->board[kind == MK_EP ? pos->ep_victim : to]];
    int mover = see_value(v, value, pos->board[from]);
    /* A mover that the variant removes after its move (Starvation) cannot be taken back. */
    if (v->def->removal_unless_near_pawn && pos_move_removes(pos, m))
        return victim - mover;
    /* The mover leaves its cell (and en passant empties the victim's). */
    CellSet occ;
    for (int i = 0; i < SET_WORDS_MAX; i++)
        occ.w[i] = pos->by_side[WHITE].w[i] | pos->by_side[BLACK].w[i];
    cellset_flip(&occ, from);
    if (kind == MK_EP)
        cellset_flip(&occ, pos->ep_victim);
    /* gain[d]: the balance for the side making capture d if the exchange stops after it. */
    int gain[MAX_PIECES * 2 + 2], d = 0;
    gain[0] = victim;
    for (int side = pos->side ^ 1;; side ^= 1) {
        Cell a = least_attacker(pos, to, side, &occ, value);
        if (a == NO_CELL || d + 1 >= (int)(sizeof gain / sizeof gain[0]))
            break;
        d++;
        gain[d] = mover - gain[d - 1];
        mover = see_value(v, value, pos->board[a]);
        cellset_flip(&occ, a);
    }
    /* Each side may stop recapturing when that pays better. */
    for (; d > 0; d--)
        gain[d - 1] = -(-gain[d - 1] > gain[d] ? -gain[d - 1] : gain[d]);
    return gain[0];
}
