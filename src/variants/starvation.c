/*
 * Starvation (Event chess #6): orthodox chess, but after every move the piece that moved is
 * removed unless it is a pawn, it moved from or to a cell next to a pawn, or it captured a
 * pawn.  Only the king is subject when castling.  A move that would remove the mover's own
 * king is illegal (the core sees the king gone and rejects the move).  A stalemated side with
 * no pawn next to its king loses.  No insufficient-material draw.
 */
#include "../core/position.h"
#include "orthodox.h"
#include "variants.h"

/*
 * Judged on the board before the move, which gives the same answer as the board after it
 * (where the rules judge): the only pawns that can differ are the mover (condition 1) and a
 * captured one (condition 4), and neither is a neighbour of itself.  En passant moves a pawn;
 * castling moves the king from and to MOVE_FROM and MOVE_TO.
 */
static bool moved_piece_survives(const Position *before, Move m)
{
    const Variant *v = before->v;
    uint8_t moved = before->board[MOVE_FROM(m)], captured = before->board[MOVE_TO(m)];
    return v->is_pawn[moved] || (captured && v->is_pawn[captured]) || pos_next_to_pawn(before, MOVE_FROM(m)) ||
           pos_next_to_pawn(before, MOVE_TO(m));
}

static GameResult stalemate(const Position *pos)
{
    Cell k = pos->royal[pos->side];
    if (k != NO_CELL && pos_next_to_pawn(pos, k))
        return (GameResult){RESULT_DRAW, "stalemate"};
    return (GameResult){pos->side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS, "starvation-stalemate"};
}

VariantDef starvation_definition(void)
{
    VariantDef d = chess_definition();
    d.name = "starvation";
    d.description = "chess where a moved piece dies unless it is near a pawn (Event chess #6)";
    d.moved_piece_survives = moved_piece_survives;
    d.stalemate = stalemate;
    d.insufficient_material = NULL;
    d.removal_mark = '^';
    /* Every move may cost the mover its piece: having to move is often the worst thing. */
    d.zugzwang_prone = true;
    return d;
}
