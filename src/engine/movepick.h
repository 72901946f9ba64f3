/*
 * The order in which a node tries its moves: the table move, captures that do not lose
 * material (most valuable victim, least valuable attacker), promotions, killers, the counter
 * move, quiet moves by history (their own plus their continuation histories), then the
 * captures that lose material.  Every move is scored once; a move is put in its place only
 * when the search reaches it, because most nodes end after their first move or two: the
 * first ORDER_PICKS places by picking the best left, the rest by one sort.  Both keep moves of
 * equal score in generation order, so the order is that of a stable sort.
 */
#ifndef STARFISH_MOVEPICK_H
#define STARFISH_MOVEPICK_H

#include "history.h"

#define ORDER_PICKS 3

typedef struct MoveOrder {
    Move *moves;
    int score[MAX_MOVES];
    int n, placed;
} MoveOrder;

/* Scores the n moves (kept where they are, in `moves`) for the node at `ply`. */
void order_moves(Worker *w, MoveOrder *o, Move *moves, int n, Move tt_move, int ply, const Followups *f);
/* The same for captures none of which loses material, and promotions (quiescence's moves out
 * of check, the losing captures left out already): no exchange is worked out again. */
void order_noisy(Worker *w, MoveOrder *o, Move *moves, int n, Move tt_move);
/* The i-th move to try (i counts up from 0, one by one). */
Move order_next(MoveOrder *o, int i);

/* Does the exchange a capture starts end below `threshold` (<= 0)?  A capture by a piece
 * worth no more than its victim cannot, so its exchange is not worked out. */
bool exchange_below(const Worker *w, Move m, int threshold);
/* Does a capture lose material in the exchange it starts? */
bool capture_loses(const Worker *w, Move m);

#endif
