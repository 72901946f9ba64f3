#include "mate.h"

#include "movegen.h"

/* The side to move has no legal move: does it lose?  In check it is mated; a stalemate loses
 * only where the variant says so. */
static bool no_moves_lose(const Position *pos, bool check)
{
    if (check)
        return true;
    if (!pos->v->def->stalemate)
        return false;
    return pos->v->def->stalemate(pos).kind == (pos->side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS);
}

bool move_mates_within(Position *pos, Move m, int moves)
{
    Undo u;
    pos_make(pos, m, &u);
    bool check = pos_in_check(pos), mates;
    /* The last move must give check, unless a stalemate can lose: no need to look further. */
    if (moves == 1 && !check && !pos->v->def->stalemate) {
        mates = false;
    } else {
        Move replies[MAX_MOVES];
        int n = gen_legal(pos, replies);
        mates = n == 0 ? no_moves_lose(pos, check) : moves > 1;
        for (int k = 0; k < n && mates; k++) {
            Undo r;
            pos_make(pos, replies[k], &r);
            mates = mate_within(pos, moves - 1);
            pos_unmake(pos, replies[k], &r);
        }
    }
    pos_unmake(pos, m, &u);
    return mates;
}

bool mate_within(Position *pos, int moves)
{
    Move list[MAX_MOVES];
    int n = gen_legal(pos, list);
    for (int i = 0; i < n; i++)
        if (move_mates_within(pos, list[i], moves))
            return true;
    return false;
}

int mate_length(Position *pos, int most)
{
    for (int k = 1; k <= most; k++)
        if (mate_within(pos, k))
            return k;
    return 0;
}

Move mate_best_defence(Position *pos, int moves, int *left)
{
    Move replies[MAX_MOVES], best = MOVE_NONE;
    int n = gen_legal(pos, replies), longest = -1;
    *left = 0;
    for (int i = 0; i < n; i++) {
        Undo u;
        pos_make(pos, replies[i], &u);
        int k = mate_length(pos, moves);
        pos_unmake(pos, replies[i], &u);
        int rank = k ? k : moves + 1; /* an escape is the best defence of all */
        if (rank > longest) {
            longest = rank;
            best = replies[i];
            *left = k;
        }
        if (k == 0)
            break;
    }
    return best;
}

int mate_line(Position *pos, int moves, Move *line)
{
    int k = mate_length(pos, moves < MATE_MOVES_MAX ? moves : MATE_MOVES_MAX), plies = 0;
    Undo undo[2 * MATE_MOVES_MAX];
    while (k > 0) {
        Move list[MAX_MOVES];
        gen_legal(pos, list);
        int i = 0;
        while (!move_mates_within(pos, list[i], k)) /* one does: the mate was proven */
            i++;
        line[plies] = list[i];
        pos_make(pos, list[i], &undo[plies]);
        plies++;
        Move defence = mate_best_defence(pos, k - 1, &k);
        if (defence == MOVE_NONE)
            break;
        line[plies] = defence;
        pos_make(pos, defence, &undo[plies]);
        plies++;
    }
    for (int i = plies - 1; i >= 0; i--)
        pos_unmake(pos, line[i], &undo[i]);
    return plies;
}
