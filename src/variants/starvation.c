/*
 * Starvation (Event chess #6): orthodox chess, but after every move the piece that moved is
 * removed unless it is a pawn, it moved from or to a cell next to a pawn, or it captured a
 * pawn.  Only the king is subject when castling.  A move that would remove the mover's own
 * king is illegal.  The rules core knows this event (removal_unless_near_pawn), so that move
 * generation can judge it with cell sets.  A stalemated side with no pawn next to its king
 * loses.  No insufficient-material draw.
 */
#include "../core/position.h"
#include "orthodox.h"
#include "variants.h"

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
    d.title = "Starvation";
    d.description = "chess where a moved piece dies unless it is near a pawn (Event chess #6)";
    d.removal_unless_near_pawn = true;
    d.stalemate = stalemate;
    d.insufficient_material = NULL;
    d.removal_mark = '^';
    /* Every move may cost the mover its piece: having to move is often the worst thing.  A
     * verified null move still pays (docs/engine.md: +29 Elo in 600 games; in square-says,
     * which has no draws, it lost 35). */
    d.zugzwang_prone = true;
    d.null_move_verified = true;
    return d;
}
