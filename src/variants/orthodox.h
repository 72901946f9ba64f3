/*
 * The orthodox chess pieces and rules that several variants build on: chess itself,
 * Starvation (chess plus a removal event) and, later, square-says (orthodox moves chosen by
 * the square).  Pattern indices are fixed so other variant files can name them.
 */
#ifndef STARFISH_ORTHODOX_H
#define STARFISH_ORTHODOX_H

#include "../core/variant.h"

enum { ORTHO_KING, ORTHO_KNIGHT, ORTHO_ROOK, ORTHO_BISHOP, ORTHO_PAWN, ORTHO_NPATTERNS };

extern const Pattern orthodox_patterns[ORTHO_NPATTERNS];

/* The definition of orthodox chess; other variants copy it and change what differs. */
VariantDef chess_definition(void);

#endif
