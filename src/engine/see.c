#include "see.h"

#include <string.h>

#include "../core/movegen.h"

/* A royal piece may capture last only: losing it outweighs any material. */
#define SEE_ROYAL 100000

static int see_value(const Variant *v, const int *value, uint8_t code)
{
    return v->is_royal[code] ? SEE_ROYAL : value[code];
}

/* The cell of side's least valuable piece attacking x on board, or NO_CELL. */
static Cell least_attacker(const Variant *v, const uint8_t *board, Cell x, int side, const int *value)
{
    Cell cells[MAX_PIECES], best = NO_CELL;
    int n = board_attackers(v, board, x, side, cells), best_value = 0;
    for (int i = 0; i < n; i++) {
        int val = see_value(v, value, board[cells[i]]);
        if (best == NO_CELL || val < best_value) {
            best = cells[i];
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
    uint8_t board[MAX_CELLS];
    memcpy(board, pos->board, (size_t)v->geo->ncells);
    int victim = value[kind == MK_EP ? board[pos->ep_victim] : board[to]];
    if (kind == MK_EP)
        board[pos->ep_victim] = 0;
    int mover = see_value(v, value, board[from]);
    /* A mover that the variant removes after its move (Starvation) cannot be taken back. */
    if (v->def->removal_unless_near_pawn && pos_move_removes(pos, m))
        return victim - mover;
    /* gain[d]: the balance for the side making capture d if the exchange stops after it. */
    int gain[MAX_PIECES * 2 + 2], d = 0;
    gain[0] = victim;
    board[to] = board[from];
    board[from] = 0;
    for (int side = pos->side ^ 1;; side ^= 1) {
        Cell a = least_attacker(v, board, to, side, value);
        if (a == NO_CELL || d + 1 >= (int)(sizeof gain / sizeof gain[0]))
            break;
        d++;
        gain[d] = mover - gain[d - 1];
        /* Neither side can do better by going on: stop early. */
        if ((-gain[d - 1] > gain[d] ? -gain[d - 1] : gain[d]) < 0)
            break;
        mover = see_value(v, value, board[a]);
        board[to] = board[a];
        board[a] = 0;
    }
    /* Each side may stop recapturing when that pays better. */
    for (; d > 0; d--)
        gain[d - 1] = -(-gain[d - 1] > gain[d] ? -gain[d - 1] : gain[d]);
    return gain[0];
}
