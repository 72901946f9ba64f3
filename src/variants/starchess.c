/*
 * Starchess (Polgár Superstar Chess) on the 37-cell hexagram, in two rule sets:
 *   `starchess`        the official rules: no en passant; a pawn double steps only as its
 *                      very first move, so one that captured onto another start cell of its
 *                      side is "limping" (`~` in the position text);
 *   `starchess-ludii`  the rules as Ludii implements them: en passant, a double step from
 *                      any start cell, no repetition and no insufficient-material rule.
 * Both start with empty back ranks and every piece in hand: a setup phase of ten
 * placements (White first) before the first movement move.
 */
#include "../core/position.h"
#include "variants.h"

enum { KING_STEP, COLUMN, SIDEWAYS, KNIGHT_LEAP, PAWN_MOVES, NPATTERNS };

#define N_ {0, 1, 0}
#define S_ {0, -1, 0}
#define NE_ {1, 0, 0}
#define SE_ {1, -1, 0}
#define NW_ {-1, 1, 0}
#define SW_ {-1, 0, 0}

static const Pattern patterns[NPATTERNS] = {
    [KING_STEP] = {.kind = PAT_STEP, .vec = {N_, S_, NE_, SE_, NW_, SW_}, .nvec = 6},
    [COLUMN] = {.kind = PAT_SLIDE, .vec = {N_, S_}, .nvec = 2},
    [SIDEWAYS] = {.kind = PAT_SLIDE, .vec = {NE_, SE_, NW_, SW_}, .nvec = 4},
    /* Two steps one way, one step 60 degrees off: the 12 cells of rules/starchess.md. */
    [KNIGHT_LEAP] = {.kind = PAT_STEP,
                     .vec = {{1, 2, 0}, {-1, 3, 0}, {2, 1, 0}, {3, -1, 0}, {3, -2, 0}, {2, -3, 0}, {1, -3, 0},
                             {-1, -2, 0}, {-2, -1, 0}, {-3, 1, 0}, {-3, 2, 0}, {-2, 3, 0}},
                     .nvec = 12},
    [PAWN_MOVES] = {.kind = PAT_PAWN, .vec = {N_}, .nvec = 1, .capture = {NE_, NW_}, .ncapture = 2},
};

#define P(x) (1u << (x))

static const PieceDef pieces[] = {
    {'P', "pawn", P(PAWN_MOVES), false, true, 100},
    {'N', "knight", P(KNIGHT_LEAP), false, false, 300},
    {'B', "bishop", P(SIDEWAYS), false, false, 350},
    {'R', "rook", P(COLUMN), false, false, 300},
    {'Q', "queen", P(COLUMN) | P(SIDEWAYS), false, false, 800},
    {'K', "king", P(KING_STEP), true, false, 0},
};

VariantDef starchess_definition(void)
{
    VariantDef d = {
        .name = "starchess",
        .description = "Starchess (Polgar Superstar Chess), official rules: setup phase, limping pawns",
        .geometry = geo_hexstar,
        .patterns = patterns,
        .npatterns = NPATTERNS,
        .pieces = pieces,
        .npieces = (int)(sizeof pieces / sizeof pieces[0]),
        .start_fen = "1/2/1P3p1/1P2p1/1P1p1/1P2p1/1P3p1/2/1[KQRBNkqrbn] w 0 1",
        .promotion_letters = "QRBN",
        .promotion_cells = {"10 16 21 27 34", "4 11 17 22 28"},
        .placement_cells = {"4 11 17 22 28", "10 16 21 27 34"},
        .fen_hand = true,
        .no_en_passant = true,
        .limping = true,
        .insufficient_material = pos_only_royals, /* the tablebases will add more */
    };
    return d;
}

VariantDef starchess_ludii_definition(void)
{
    VariantDef d = starchess_definition();
    d.name = "starchess-ludii";
    d.description = "Starchess as the Ludii system plays it: en passant, no repetition rule";
    d.start_fen = "1/2/1P3p1/1P2p1/1P1p1/1P2p1/1P3p1/2/1[KQRBNkqrbn] w - 0 1";
    d.fen_ep = true;
    d.no_en_passant = false;
    d.limping = false;
    d.no_repetition = true;
    d.insufficient_material = NULL;
    return d;
}
