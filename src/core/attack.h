/* A variant's attack tables: built from its geometry and movement patterns (see tables.h),
 * and read for the evaluation's measures and the tablebases' un-moves. */
#ifndef STARFISH_ATTACK_H
#define STARFISH_ATTACK_H

#include "tables.h"

/* Builds every table of v from its patterns, pieces and zones (variant_build calls it once
 * pattern_mask, start_cell and the zones are known); false with a message on a defect. */
bool attack_build(Variant *v, char *err, size_t errlen);

/*
 * The number of cells a piece reaches from c on an empty board, counted per movement: a
 * slider's rays and a pawn's pushes and captures added up, a cell two rose paths reach
 * counted twice (the evaluation's measure of a cell's worth to a piece).
 */
int variant_reach(const Variant *v, int code, Cell c);

/* Every cell a piece of that code reaches from c on an empty board. */
CellSet variant_targets(const Variant *v, int code, Cell c);

/* A pawn pattern's single and double step from c for the piece code (NO_CELL: none). */
Cell variant_push(const Variant *v, int code, Cell c, bool double_step);

#endif
