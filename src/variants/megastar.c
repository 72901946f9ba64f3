/*
 * Megastar of David (Charles Gilman): two levels of hex cells (src/geometry/megastar.c), ten
 * kinds of piece, moves between the levels inside the 61-cell Drum.  The starting array is a
 * reconstruction (the source's diagrams are lost): see rules/megastar.md and
 * docs/rules-decisions.md.
 */
#include <stdio.h>
#include <string.h>

#include "../core/position.h"
#include "variants.h"

enum {
    KING_STEP,     /* one horizontal orthogonal step on the level */
    VERTICAL,      /* one step to the cell directly above or below (inside the Drum) */
    KING_DIAGONAL, /* "root-2 diagonal": an orthogonal step plus a change of level */
    ROOK_SLIDE,
    KNIGHT_LEAP, /* two orthogonal steps and a change of level, all three cells in the Drum */
    PAWN_MOVES,
    ORTHO_ROSE,
    DIAG_ROSE,
    SENNIGHT_LEAP,
    FORTNIGHT_LEAP,
    SLING_HOP,
    NPATTERNS
};

static bool in_drum(const Geometry *g, Cell c)
{
    return c != NO_CELL && geo_has_other_level(g, c);
}

/* Level-changing steps and leaps start and end inside the Drum. */
static bool both_ends_in_drum(const Geometry *g, Cell from, Vec v)
{
    return in_drum(g, from) && in_drum(g, geo_add(g, from, v));
}

/* The Knight's middle cell, one orthogonal step out, must be in the Drum as well. */
static bool knight_path_in_drum(const Geometry *g, Cell from, Vec v)
{
    Vec half = {(int8_t)(v.dq / 2), (int8_t)(v.dr / 2), 0};
    return both_ends_in_drum(g, from, v) && in_drum(g, geo_add(g, from, half));
}

#define ORTHO6 {0, 1, 0}, {-1, 1, 0}, {-1, 0, 0}, {0, -1, 0}, {1, -1, 0}, {1, 0, 0}
#define DIAG6 {1, 1, 0}, {-1, 2, 0}, {-2, 1, 0}, {-1, -1, 0}, {1, -2, 0}, {2, -1, 0}
/* An orthogonal vector, doubled or not, with either change of level (one of them exists). */
#define LEVEL_CHANGE(k)                                                                             \
    {0, k, 1}, {-(k), k, 1}, {-(k), 0, 1}, {0, -(k), 1}, {k, -(k), 1}, {k, 0, 1}, {0, k, -1},       \
        {-(k), k, -1}, {-(k), 0, -1}, {0, -(k), -1}, {k, -(k), -1}, {k, 0, -1}

static const Pattern patterns[NPATTERNS] = {
    [KING_STEP] = {.kind = PAT_STEP, .vec = {ORTHO6}, .nvec = 6},
    [VERTICAL] = {.kind = PAT_STEP, .vec = {{0, 0, 1}, {0, 0, -1}}, .nvec = 2},
    [KING_DIAGONAL] = {.kind = PAT_STEP, .vec = {LEVEL_CHANGE(1)}, .nvec = 12, .allow = both_ends_in_drum},
    [ROOK_SLIDE] = {.kind = PAT_SLIDE, .vec = {ORTHO6}, .nvec = 6},
    [KNIGHT_LEAP] = {.kind = PAT_STEP, .vec = {LEVEL_CHANGE(2)}, .nvec = 12, .allow = knight_path_in_drum},
    [PAWN_MOVES] = {.kind = PAT_PAWN,
                    .vec = {{0, 1, 0}},
                    .nvec = 1,
                    .capture = {{0, 1, 1}, {0, 1, -1}},
                    .ncapture = 2,
                    .allow = both_ends_in_drum},
    [ORTHO_ROSE] = {.kind = PAT_ROSE, .vec = {ORTHO6}, .nvec = 6, .max_len = 4},
    [DIAG_ROSE] = {.kind = PAT_ROSE, .vec = {DIAG6}, .nvec = 6, .max_len = 4},
    [SENNIGHT_LEAP] = {.kind = PAT_STEP,
                       .vec = {{2, 1, 0}, {3, -1, 0}, {1, 2, 0}, {-1, 3, 0}, {3, -2, 0}, {2, -3, 0},
                               {-2, -1, 0}, {-3, 1, 0}, {-1, -2, 0}, {1, -3, 0}, {-3, 2, 0}, {-2, 3, 0}},
                       .nvec = 12},
    [FORTNIGHT_LEAP] = {.kind = PAT_STEP,
                        .vec = {{3, 1, 1},   {4, -1, 1},  {1, 3, 1},   {-1, 4, 1},  {3, -4, 1},  {4, -3, 1},
                                {-3, -1, 1}, {-4, 1, 1},  {-1, -3, 1}, {1, -4, 1},  {-3, 4, 1},  {-4, 3, 1},
                                {3, 1, -1},  {4, -1, -1}, {1, 3, -1},  {-1, 4, -1}, {3, -4, -1}, {4, -3, -1},
                                {-3, -1, -1}, {-4, 1, -1}, {-1, -3, -1}, {1, -4, -1}, {-3, 4, -1}, {-4, 3, -1}},
                        .nvec = 24,
                        .allow = both_ends_in_drum},
    [SLING_HOP] = {.kind = PAT_HOP, .vec = {DIAG6}, .nvec = 6},
};

#define P(x) (1u << (x))

static const PieceDef pieces[] = {
    {'P', "pawn", P(PAWN_MOVES), false, true, 100},
    {'K', "king", P(KING_STEP) | P(VERTICAL) | P(KING_DIAGONAL), true, false, 0},
    {'R', "rook", P(ROOK_SLIDE) | P(VERTICAL), false, false, 450},
    {'N', "knight", P(KNIGHT_LEAP), false, false, 250},
    {'C', "cohen", P(ORTHO_ROSE) | P(DIAG_ROSE) | P(VERTICAL), false, false, 700},
    {'F', "finch", P(ORTHO_ROSE) | P(VERTICAL), false, false, 450},
    {'T', "fortnight", P(FORTNIGHT_LEAP), false, false, 300},
    {'B', "rabbi", P(DIAG_ROSE), false, false, 300},
    {'S', "sennight", P(SENNIGHT_LEAP), false, false, 300},
    {'L', "sling", P(SLING_HOP), false, false, 250},
};

/* The last Drum cell of each file stack, both levels: top for White, bottom for Black. */
static char promotion_cells[2][512];

static void list_promotion_cells(void)
{
    const Geometry *g = geo_megastar();
    for (int colour = 0; colour < 2; colour++) {
        promotion_cells[colour][0] = 0;
        for (Cell c = 0; c < g->ncells; c++) {
            if (!in_drum(g, c))
                continue;
            Cell next = geo_cell_at(g, g->q[c], g->r[c] + (colour == WHITE ? 1 : -1), g->level[c]);
            if (in_drum(g, next))
                continue;
            strcat(promotion_cells[colour], g->cell_name[c]);
            strcat(promotion_cells[colour], " ");
        }
    }
}

VariantDef megastar_definition(void)
{
    list_promotion_cells();
    VariantDef d = {
        .name = "megastar",
        .title = "Megastar of David",
        .description = "Megastar of David: two hex levels, ten kinds of piece (reconstructed setup)",
        .geometry = geo_megastar,
        .patterns = patterns,
        .npatterns = NPATTERNS,
        .pieces = pieces,
        .npieces = (int)(sizeof pieces / sizeof pieces[0]),
        .start_fen = "1/2/3/4/5/RP2pr/NP3pn/NP4pn/FP5pf/1FP4pf1/1BKP3pkb1/LBBSP2psbbl/LL2RP1pr2ll/"
                     "LL2RP1pr2ll/LBBSP2psbbl/1BCP3pcb1/1TP4pt1/TP5pt/NP4pn/PN3np/RP2pr/5/4/3/2/1 w - 0 1",
        .promotion_letters = "RNCFTBSL",
        .promotion_cells = {promotion_cells[WHITE], promotion_cells[BLACK]},
        .fen_ep = true,
        .insufficient_material = pos_only_royals,
        .long_capture_chains = true,
    };
    return d;
}
