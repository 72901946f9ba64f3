/*
 * Piece-move diagrams for the rules pages: where one piece can go standing alone on an
 * otherwise empty board (no royal piece, nothing in hand), from the rules core's own move
 * generation, so the diagrams show exactly what the games play.
 */
#ifndef STARFISH_SERVER_DIAGRAM_H
#define STARFISH_SERVER_DIAGRAM_H

#include "../core/position.h"

typedef struct DiagramTarget {
    Cell to;
    bool quiet;   /* the piece may move there (the cell empty) */
    bool capture; /* it could capture an enemy piece standing there alone */
} DiagramTarget;

/* The cells that a piece (its code: colour and type) on `from` reaches alone on the board,
 * each once, in cell order.  Returns the count (out needs room for MAX_CELLS). */
int diagram_targets(const Variant *v, uint8_t code, Cell from, DiagramTarget *out);

#endif
