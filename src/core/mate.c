#include "mate.h"

#include "movegen.h"

bool move_mates_within(Position *pos, Move m, int moves)
{
    Undo u;
    pos_make(pos, m, &u);
    bool check = pos_in_check(pos), mates;
    if (moves == 1 && !check) { /* the last move must give check: no need to look further */
        mates = false;
    } else {
        Move replies[MAX_MOVES];
        int n = gen_legal(pos, replies);
        mates = n == 0 ? check : moves > 1;
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
