#include "perft.h"

#include "movegen.h"
#include "notation.h"

uint64_t perft(Position *pos, int depth)
{
    if (depth <= 1)
        return (uint64_t)count_legal_moves(pos);
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        Undo u;
        pos_make(pos, moves[i], &u);
        total += perft(pos, depth - 1);
        pos_unmake(pos, moves[i], &u);
    }
    return total;
}

uint64_t perft_divide(Position *pos, int depth, FILE *out)
{
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        Undo u;
        char text[MOVE_TEXT_MAX];
        pos_make(pos, moves[i], &u);
        uint64_t count = depth > 1 ? perft(pos, depth - 1) : 1;
        pos_unmake(pos, moves[i], &u);
        move_to_text(pos, moves[i], text);
        fprintf(out, "%s: %llu\n", text, (unsigned long long)count);
        total += count;
    }
    fprintf(out, "\nNodes searched: %llu\n", (unsigned long long)total);
    return total;
}
