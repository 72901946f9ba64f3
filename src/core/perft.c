#include "perft.h"

#include "movegen.h"

uint64_t perft(Position *pos, int depth)
{
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    if (depth <= 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        Undo u;
        pos_make(pos, moves[i], &u);
        total += perft(pos, depth - 1);
        pos_unmake(pos, moves[i], &u);
    }
    return total;
}
