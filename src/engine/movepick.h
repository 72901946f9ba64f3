/*
 * The moves of a node, in stages, each generated or scored only when the search reaches it,
 * since most nodes end after their first move or two:
 *
 *   1. the table move, if it is pseudo-legal here (no generation: pos_is_pseudo_legal);
 *   2. captures and promotions (gen_captures), best first by most valuable victim and least
 *      valuable attacker, captures before promotions; a capture that loses material in its
 *      exchange (static exchange evaluation, worked out as it comes up) is kept aside;
 *   3. the killers and the counter move, when they are quiet and pseudo-legal here;
 *   4. the quiet moves (placements in a setup phase), generated now (gen_pseudo, less what
 *      stages 1-3 tried), best first by history (their own plus their continuation
 *      histories), placements by the piece-square table;
 *   5. the captures kept aside, in the order they were.
 *
 * Within a stage, moves of equal score keep their generation order.  Quiescence out of check
 * asks for stages 1 and 2 alone: promotions, and the captures that do not lose material less
 * those too small to matter (delta pruning); a table move only if it is one of them.
 */
#ifndef STARFISH_MOVEPICK_H
#define STARFISH_MOVEPICK_H

#include "history.h"

typedef enum {
    PICK_TABLE,
    PICK_GEN_NOISY,
    PICK_GOOD_NOISY,
    PICK_REFUTATIONS,
    PICK_GEN_QUIETS,
    PICK_QUIETS,
    PICK_BAD_NOISY,
    PICK_DONE
} PickStage;

typedef struct MovePicker {
    Worker *w;
    const Followups *followups;
    bool noisy_only;  /* captures and promotions alone */
    int futile;       /* with noisy_only: captures of victims worth no more are left out */
    PickStage stage;
    Move table;
    Move refutations[3]; /* the two killers, then the counter move */
    int refutation;      /* the next one to try */
    /* moves[0..nbad) holds the captures kept aside (stage 5 tries them from next_bad on);
     * the list of the stage at hand is moves[first..n), score[] beside it, its moves before
     * `next` tried, those before `placed` in their place (see list_next). */
    Move moves[MAX_MOVES];
    int score[MAX_MOVES];
    int nbad, next_bad, first, n, next, placed;
} MovePicker;

/* A promotion (a placement from the hand names its piece too, but is none). */
static inline bool move_is_promotion(Move m)
{
    return MOVE_PIECE(m) && MOVE_KIND(m) != MK_PLACE;
}

/* A capture or a promotion: what gen_captures lists; every other move is quiet. */
static inline bool move_is_noisy(const Position *pos, Move m)
{
    return pos_is_capture(pos, m) || move_is_promotion(m);
}

/* Readies the moves of the node at `ply`. */
void picker_init(MovePicker *mp, Worker *w, Move table, int ply, const Followups *f);
/* Readies quiescence's moves out of check: promotions, and the captures that do not lose
 * material whose victim is worth more than `futile` (the others cannot lift the score near
 * alpha, or lose); the table buckets
 * of the first captures' children are fetched as soon as they are generated. */
void picker_init_captures(MovePicker *mp, Worker *w, Move table, int ply, int futile);
/* The next move to try, or MOVE_NONE when every one has been given. */
Move picker_next(MovePicker *mp);
/* The counter move of the node (a refutation, tried in stage 3). */
static inline Move picker_counter(const MovePicker *mp)
{
    return mp->refutations[2];
}

/* Does the exchange a capture starts end below `threshold` (<= 0)?  A capture by a piece
 * worth no more than its victim cannot, so its exchange is not worked out. */
bool exchange_below(const Worker *w, Move m, int threshold);
/* Does a capture lose material in the exchange it starts? */
bool capture_loses(const Worker *w, Move m);

#endif
