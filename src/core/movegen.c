/* Moves and attacks: the public entry points, each handing over to the rules code of the
 * variant's set width (rules_impl.h). */
#include "movegen.h"

#include "rules.h"

int gen_pseudo(const Position *pos, Move *out)
{
    return pos->v->ops->pseudo(pos, out, false);
}

int gen_captures(const Position *pos, Move *out)
{
    return pos->v->ops->pseudo(pos, out, true);
}

int gen_legal(Position *pos, Move *out)
{
    return pos->v->ops->legal(pos, out);
}

int count_legal_moves(Position *pos)
{
    return pos->v->ops->legal(pos, NULL);
}

bool move_is_legal(Position *pos, Move m)
{
    return pos->v->ops->move_is_legal(pos, m);
}

bool pos_make_if_legal(Position *pos, Move m, Undo *u, bool in_check)
{
    return pos->v->ops->make_if_legal(pos, m, u, in_check);
}

bool pos_attacked(const Position *pos, Cell x, int by)
{
    return pos->v->ops->attacked(pos, x, by, 0xffff);
}

bool pos_attacked_by(const Position *pos, Cell x, int by, unsigned patterns)
{
    return pos->v->ops->attacked(pos, x, by, patterns);
}

CellSet pos_attackers(const Position *pos, Cell x, int by, const CellSet *occ)
{
    return pos->v->ops->attackers(pos, x, by, occ);
}

bool pos_in_check(const Position *pos)
{
    Cell k = pos->royal[pos->side];
    return k != NO_CELL && pos_attacked(pos, k, pos->side ^ 1);
}

bool pos_gives_check(Position *pos, Move m)
{
    Undo u;
    pos_make(pos, m, &u);
    bool check = pos_in_check(pos);
    pos_unmake(pos, m, &u);
    return check;
}

bool pos_mover_safe(const Position *pos)
{
    return pos->v->ops->mover_safe(pos);
}

bool pos_has_legal_ep(Position *pos)
{
    if (pos->ep == NO_CELL)
        return false;
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    for (int i = 0; i < n; i++)
        if (MOVE_KIND(moves[i]) == MK_EP)
            return true;
    return false;
}

uint64_t pos_repetition_key(Position *pos)
{
    return pos->key ^ (pos_has_legal_ep(pos) ? zobrist_ep[pos->ep] : 0);
}

PieceMoves pos_piece_moves(const Position *pos, const CellSet *pieces, const CellSet *zone,
                           const uint32_t threat_types[MAX_TYPES])
{
    return pos->v->ops->piece_moves(pos, pieces, zone, threat_types);
}

CellSet pos_cells_next_to_pawns(const Position *pos)
{
    return pos->v->ops->next_to_pawns(pos);
}
