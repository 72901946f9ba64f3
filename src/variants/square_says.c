/*
 * Move as square says (Daniil Frolov): every piece moves as the orthodox piece named by the
 * mark of the square it stands on.  Each side has 15 identical men and one royal piece.  On
 * a P square a piece moves as a pawn of its colour (double step from its 2nd rank, en
 * passant by any piece on a P square); no promotion; castling with the corner piece.  No
 * draws: stalemate is won by the side that captured fewer men, every orthodox draw by the
 * side that captured more, ties by Black.
 *
 * Two variant names: `square-says` (royals on e1 and e8) and `square-says-reversed` (Black's
 * royal on d8, castling d8-f8 with h8-e8 and d8-b8 with a8-c8).
 */
#include <string.h>

#include "../core/position.h"
#include "orthodox.h"
#include "variants.h"

/* The marks, rank 8 first, as in rules/square-says.md. */
static const char marks[8][9] = {
    "RNBQQBNR", "PPPPPPPP", "KRNBBNRK", "PPPPPPPP", "PPPPPPPP", "KRNBBNRK", "PPPPPPPP", "RNBQQBNR",
};

static char mark(const Geometry *g, Cell c)
{
    return marks[7 - g->r[c]][g->q[c]];
}

#define P(x) (1u << (x))

static uint32_t patterns_at(const VariantDef *def, const Geometry *g, int type, int colour, Cell c)
{
    (void)def, (void)type, (void)colour;
    switch (mark(g, c)) {
    case 'R':
        return P(ORTHO_ROOK);
    case 'N':
        return P(ORTHO_KNIGHT);
    case 'B':
        return P(ORTHO_BISHOP);
    case 'Q':
        return P(ORTHO_ROOK) | P(ORTHO_BISHOP);
    case 'K':
        return P(ORTHO_KING);
    default:
        return P(ORTHO_PAWN);
    }
}

enum { MAN = 1, ROYAL };

static const PieceDef pieces[] = {
    {'M', "man", 0, false, false, 350},
    {'K', "royal piece", 0, true, false, 0},
};

static const CastleDef castling[] = {
    {WHITE, "e1", "g1", "h1", "f1", 'K', "O-O"},
    {WHITE, "e1", "c1", "a1", "d1", 'Q', "O-O-O"},
    {BLACK, "e8", "g8", "h8", "f8", 'k', "O-O"},
    {BLACK, "e8", "c8", "a8", "d8", 'q', "O-O-O"},
};

static const CastleDef castling_reversed[] = {
    {WHITE, "e1", "g1", "h1", "f1", 'K', "O-O"},
    {WHITE, "e1", "c1", "a1", "d1", 'Q', "O-O-O"},
    {BLACK, "d8", "f8", "h8", "e8", 'k', "O-O"},
    {BLACK, "d8", "b8", "a8", "c8", 'q', "O-O-O"},
};

/* Men a side has captured: 15 minus the opponent's men left. */
static int captured_by(const Position *pos, int side)
{
    return 15 - pos->count[MAKE_PIECE(side ^ 1, MAN)];
}

/* more == true: the side that captured more wins; false: fewer.  Ties go to Black. */
static GameResult winner_by_captures(const Position *pos, bool more, const char *reason)
{
    int white = captured_by(pos, WHITE), black = captured_by(pos, BLACK);
    bool white_wins = more ? white > black : white < black;
    return (GameResult){white_wins ? RESULT_WHITE_WINS : RESULT_BLACK_WINS, reason};
}

static GameResult stalemate(const Position *pos)
{
    return winner_by_captures(pos, false, "stalemate");
}

static GameResult decide_draw(const Position *pos, const char *reason)
{
    /* The rules name the bare-royals ending "dead-position". */
    if (strcmp(reason, "insufficient-material") == 0)
        reason = "dead-position";
    return winner_by_captures(pos, true, reason);
}

VariantDef square_says_definition(void)
{
    VariantDef d = {
        .name = "square-says",
        .title = "Move as square says",
        .description = "Move as square says: every piece moves as its square's mark; no draws",
        .geometry = geo_square8,
        .patterns = orthodox_patterns,
        .npatterns = ORTHO_NPATTERNS,
        .pieces = pieces,
        .npieces = (int)(sizeof pieces / sizeof pieces[0]),
        .start_fen = "mmmmkmmm/mmmmmmmm/8/8/8/8/MMMMMMMM/MMMMKMMM w KQkq - 0 1",
        .double_step_cells = {"a2 b2 c2 d2 e2 f2 g2 h2", "a7 b7 c7 d7 e7 f7 g7 h7"},
        .castling = castling,
        .ncastling = 4,
        .fen_castling = true,
        .fen_ep = true,
        .castle_king_takes_rook = true,
        .san_style = SAN_LONG,
        .patterns_at = patterns_at,
        .stalemate = stalemate,
        .decide_draw = decide_draw,
        .insufficient_material = pos_only_royals,
        .cell_mark = mark,
        /* A piece's power changes with every square it steps on, and stalemate is a win for
         * the side that captured fewer: passing is no safe lower bound here. */
        .zugzwang_prone = true,
    };
    return d;
}

VariantDef square_says_reversed_definition(void)
{
    VariantDef d = square_says_definition();
    d.name = "square-says-reversed";
    d.title = "Square says (reversed)";
    d.description = "Move as square says with Black's royal on d8 (reverse symmetry)";
    d.start_fen = "mmmkmmmm/mmmmmmmm/8/8/8/8/MMMMMMMM/MMMMKMMM w KQkq - 0 1";
    d.castling = castling_reversed;
    return d;
}
