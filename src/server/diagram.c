#include "diagram.h"

#include "../core/movegen.h"

/* The piece alone on the board, its side to move; with an enemy piece of the same kind on
 * `target` unless that is NO_CELL. */
static void set_alone(Position *pos, const Variant *v, uint8_t code, Cell from, Cell target)
{
    int side = PIECE_COLOUR(code);
    pos_clear(pos, v);
    pos_put(pos, code, from);
    if (target != NO_CELL)
        pos_put(pos, MAKE_PIECE(side ^ 1, PIECE_TYPE(code)), target);
    pos->side = side;
    pos->key = pos_compute_key(pos);
}

/* Does some pseudo-legal move go from `from` to `to`? */
static bool reaches(const Position *pos, Cell from, Cell to)
{
    Move moves[MAX_MOVES];
    int n = gen_pseudo(pos, moves);
    for (int i = 0; i < n; i++)
        if (MOVE_KIND(moves[i]) != MK_PLACE && MOVE_FROM(moves[i]) == from && MOVE_TO(moves[i]) == to)
            return true;
    return false;
}

int diagram_targets(const Variant *v, uint8_t code, Cell from, DiagramTarget *out)
{
    Position pos;
    bool quiet[MAX_CELLS] = {false};
    set_alone(&pos, v, code, from, NO_CELL);
    Move moves[MAX_MOVES];
    int n = gen_pseudo(&pos, moves);
    for (int i = 0; i < n; i++)
        if (MOVE_KIND(moves[i]) != MK_PLACE && MOVE_FROM(moves[i]) == from)
            quiet[MOVE_TO(moves[i])] = true;
    int count = 0;
    for (Cell c = 0; c < v->geo->ncells; c++) {
        if (c == from)
            continue;
        set_alone(&pos, v, code, from, c);
        bool capture = reaches(&pos, from, c);
        if (quiet[c] || capture)
            out[count++] = (DiagramTarget){c, quiet[c], capture};
    }
    return count;
}
