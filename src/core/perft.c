#include "perft.h"

#include "movegen.h"
#include "notation.h"

static bool stopped(const atomic_bool *stop)
{
    return stop && atomic_load_explicit(stop, memory_order_relaxed);
}

/* perft, given up once *stop is set (stop may be NULL): looked at before each subtree. */
static uint64_t count_leaves(Position *pos, int depth, const atomic_bool *stop)
{
    if (depth <= 1)
        return (uint64_t)count_legal_moves(pos);
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    uint64_t total = 0;
    for (int i = 0; i < n && !stopped(stop); i++) {
        Undo u;
        pos_make(pos, moves[i], &u);
        total += count_leaves(pos, depth - 1, stop);
        pos_unmake(pos, moves[i], &u);
    }
    return total;
}

uint64_t perft(Position *pos, int depth)
{
    return count_leaves(pos, depth, NULL);
}

bool perft_divide_moves(Position *pos, int depth, FILE *out, const atomic_bool *stop, uint64_t *total)
{
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    *total = 0;
    for (int i = 0; i < n; i++) {
        Undo u;
        char text[MOVE_TEXT_MAX];
        pos_make(pos, moves[i], &u);
        uint64_t count = depth > 1 ? count_leaves(pos, depth - 1, stop) : 1;
        pos_unmake(pos, moves[i], &u);
        if (stopped(stop))
            return false;
        move_to_text(pos, moves[i], text);
        fprintf(out, "%s: %llu\n", text, (unsigned long long)count);
        *total += count;
    }
    return true;
}

void perft_print_total(FILE *out, uint64_t total)
{
    fprintf(out, "\nNodes searched: %llu\n", (unsigned long long)total);
}

bool perft_divide(Position *pos, int depth, FILE *out, const atomic_bool *stop, uint64_t *total)
{
    if (!perft_divide_moves(pos, depth, out, stop, total))
        return false;
    perft_print_total(out, *total);
    return true;
}
