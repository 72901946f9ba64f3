#include "movepick.h"

#include "see.h"

bool exchange_below(const Worker *w, Move m, int threshold)
{
    const Position *pos = &w->pos;
    return piece_value(w, pos->board[MOVE_FROM(m)]) > victim_value(w, m) &&
           see(pos, m, w->shared->eval->value) < threshold;
}

bool capture_loses(const Worker *w, Move m)
{
    return exchange_below(w, m, 0);
}

/* The bands of the order's scores, highest first; quiet moves score by history below them, and
 * captures that lose material (lost_exchange) below those. */
#define TABLE_MOVE (1 << 30)
#define GOOD_CAPTURE (1 << 24)
#define PROMOTION (1 << 23)
#define REFUTATION (1 << 22)

/* A capture or promotion's score, its exchange not looked at: a capture by most valuable
 * victim, least valuable attacker, above every promotion; a promotion by its piece. */
static int noisy_score(const Worker *w, Move m)
{
    const Position *pos = &w->pos;
    if (!pos_is_capture(pos, m))
        return PROMOTION + MOVE_PIECE(m);
    return victim_value(w, m) * 16 - piece_value(w, pos->board[MOVE_FROM(m)]) / 16 + GOOD_CAPTURE;
}

/* A capture that loses material goes below every quiet move, keeping its order. */
static int lost_exchange(int score)
{
    return score - 2 * GOOD_CAPTURE;
}

/* A quiet move's score, below the killers and the counter move: a placement by the value of
 * its piece on its cell, a board move by history. */
static int quiet_score(const Worker *w, Move m, const Followups *f)
{
    if (MOVE_KIND(m) == MK_PLACE)
        return w->shared->eval->mg[MAKE_PIECE(w->pos.side, MOVE_PIECE(m))][MOVE_TO(m)];
    return quiet_history(w, f, m);
}

/* The score of a move for ordering: table move, captures that do not lose material (most
 * valuable victim, least valuable attacker), promotions, killers, the counter move, history,
 * then the captures that lose material. */
static int order_score(Worker *w, Move m, Move tt_move, int ply, Move counter, const Followups *f)
{
    const Position *pos = &w->pos;
    if (m == tt_move)
        return TABLE_MOVE;
    if (pos_is_noisy(pos, m)) {
        int sc = noisy_score(w, m);
        return pos_is_capture(pos, m) && capture_loses(w, m) ? lost_exchange(sc) : sc;
    }
    if (m == w->killers[ply][0])
        return REFUTATION;
    if (m == w->killers[ply][1])
        return REFUTATION - 1;
    if (m == counter)
        return REFUTATION - 2;
    return quiet_score(w, m, f);
}

void order_moves(Worker *w, MoveOrder *o, Move *moves, int n, Move tt_move, int ply, const Followups *f)
{
    Move counter = counter_move(w, ply);
    o->moves = moves;
    o->n = n;
    o->placed = 0;
    for (int i = 0; i < n; i++)
        o->score[i] = order_score(w, moves[i], tt_move, ply, counter, f);
}

void order_noisy(Worker *w, MoveOrder *o, Move *moves, int n, Move tt_move)
{
    o->moves = moves;
    o->n = n;
    o->placed = 0;
    for (int i = 0; i < n; i++)
        o->score[i] = moves[i] == tt_move ? TABLE_MOVE : noisy_score(w, moves[i]);
}

/* Puts the entry at `from` in place `to` (to <= from), the ones between one place later. */
static void order_place(MoveOrder *o, int to, int from)
{
    Move m = o->moves[from];
    int sc = o->score[from];
    for (int k = from; k > to; k--) {
        o->moves[k] = o->moves[k - 1];
        o->score[k] = o->score[k - 1];
    }
    o->moves[to] = m;
    o->score[to] = sc;
}

Move order_next(MoveOrder *o, int i)
{
    if (i < o->placed)
        return o->moves[i];
    if (i < ORDER_PICKS) {
        int best = i;
        for (int j = i + 1; j < o->n; j++)
            if (o->score[j] > o->score[best])
                best = j;
        order_place(o, i, best);
        o->placed = i + 1;
    } else {
        for (int j = i + 1; j < o->n; j++) { /* insertion sort of the rest: lists are short */
            int k = j;
            while (k > i && o->score[k - 1] < o->score[j])
                k--;
            order_place(o, k, j);
        }
        o->placed = o->n;
    }
    return o->moves[i];
}
