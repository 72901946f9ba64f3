/* Orthodox chess (FIDE rules): the variant `chess`, and the base of `starvation`. */
#include <stdlib.h>

#include "../core/position.h"
#include "orthodox.h"

#define ORTHOGONAL {0, 1, 0}, {0, -1, 0}, {1, 0, 0}, {-1, 0, 0}
#define DIAGONAL {1, 1, 0}, {-1, 1, 0}, {1, -1, 0}, {-1, -1, 0}

const Pattern orthodox_patterns[ORTHO_NPATTERNS] = {
    [ORTHO_KING] = {.kind = PAT_STEP, .vec = {ORTHOGONAL, DIAGONAL}, .nvec = 8},
    [ORTHO_KNIGHT] = {.kind = PAT_STEP,
                      .vec = {{1, 2, 0}, {2, 1, 0}, {2, -1, 0}, {1, -2, 0}, {-1, -2, 0}, {-2, -1, 0}, {-2, 1, 0}, {-1, 2, 0}},
                      .nvec = 8},
    [ORTHO_ROOK] = {.kind = PAT_SLIDE, .vec = {ORTHOGONAL}, .nvec = 4},
    [ORTHO_BISHOP] = {.kind = PAT_SLIDE, .vec = {DIAGONAL}, .nvec = 4},
    [ORTHO_PAWN] = {.kind = PAT_PAWN, .vec = {{0, 1, 0}}, .nvec = 1, .capture = {{1, 1, 0}, {-1, 1, 0}}, .ncapture = 2},
};

#define P(x) (1u << (x))
enum { PAWN = 1, KNIGHT, BISHOP, ROOK, QUEEN, KING };

static const PieceDef pieces[] = {
    {'P', "pawn", P(ORTHO_PAWN), false, true, 100},
    {'N', "knight", P(ORTHO_KNIGHT), false, false, 320},
    {'B', "bishop", P(ORTHO_BISHOP), false, false, 330},
    {'R', "rook", P(ORTHO_ROOK), false, false, 500},
    {'Q', "queen", P(ORTHO_ROOK) | P(ORTHO_BISHOP), false, false, 900},
    {'K', "king", P(ORTHO_KING), true, false, 0},
};

static const CastleDef castling[] = {
    {WHITE, "e1", "g1", "h1", "f1", 'K', "O-O"},
    {WHITE, "e1", "c1", "a1", "d1", 'Q', "O-O-O"},
    {BLACK, "e8", "g8", "h8", "f8", 'k', "O-O"},
    {BLACK, "e8", "c8", "a8", "d8", 'q', "O-O-O"},
};

/*
 * Dead positions that FIDE practice recognises by material alone: king against king, a
 * single minor piece against a bare king, and any number of bishops all on squares of one
 * colour (both sides' together).  Other dead positions need search and are left to the
 * 50-move and repetition rules.
 */
static bool insufficient_material(const Position *pos)
{
    const Geometry *g = pos->v->geo;
    int knights = 0, bishops[2] = {0, 0};
    for (int side = 0; side < 2; side++)
        CELLSET_EACH(c, &pos->by_side[side]) {
            switch (PIECE_TYPE(pos->board[c])) {
            case KING:
                break;
            case KNIGHT:
                knights++;
                break;
            case BISHOP:
                bishops[(g->q[c] + g->r[c]) & 1]++;
                break;
            default:
                return false;
            }
        }
    int minors = knights + bishops[0] + bishops[1];
    return minors <= 1 || (knights == 0 && (bishops[0] == 0 || bishops[1] == 0));
}

VariantDef chess_definition(void)
{
    VariantDef d = {
        .name = "chess",
        .title = "Chess",
        .description = "orthodox chess (FIDE rules)",
        .geometry = geo_square8,
        .patterns = orthodox_patterns,
        .npatterns = ORTHO_NPATTERNS,
        .pieces = pieces,
        .npieces = (int)(sizeof pieces / sizeof pieces[0]),
        .start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        .promotion_letters = "QRBN",
        .promotion_cells = {"a8 b8 c8 d8 e8 f8 g8 h8", "a1 b1 c1 d1 e1 f1 g1 h1"},
        .castling = castling,
        .ncastling = 4,
        .fen_castling = true,
        .fen_ep = true,
        .insufficient_material = insufficient_material,
    };
    return d;
}
