/*
 * Evaluation, for every variant from its own data: material from the piece values,
 * piece-square terms generated from the geometry (how many cells a piece reaches from a cell
 * on an empty board, so centralisation and square-says's marks come out by themselves), pawn
 * advancement toward the promotion zone, royal shelter in the middlegame and activity in the
 * endgame, a tempo bonus, and the variant's own term (eval_bonus).
 */
#ifndef STARFISH_EVAL_H
#define STARFISH_EVAL_H

#include "../core/position.h"

typedef struct EvalTables {
    const Variant *v;
    int16_t mg[MAX_CODES][MAX_CELLS]; /* from the piece owner's view, material included */
    int16_t eg[MAX_CODES][MAX_CELLS];
    int value[MAX_CODES];
    int phase_total; /* non-pawn, non-royal material of the start position, both sides */
} EvalTables;

const EvalTables *eval_tables(const Variant *v);
/* The position's score in centipawns for the side to move. */
int evaluate(const Position *pos, const EvalTables *t);

#endif
