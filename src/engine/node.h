/*
 * Inside a node of the search: the helpers the main search (search.c) and quiescence
 * (quiescence.c) share, defined in node.c, and quiescence itself.
 */
#ifndef STARFISH_NODE_H
#define STARFISH_NODE_H

#include "worker.h"

/* Whether the side to move is in check is not known yet (a node finds out itself). */
#define CHECK_UNKNOWN (-1)

/* Neither a capture nor a promotion (a placement from the hand counts as quiet). */
static inline bool is_quiet(const Position *pos, Move m)
{
    return !pos_is_noisy(pos, m);
}

/* Scores stored in the table are relative to the node, not the root. */
static inline int score_to_tt(int score, int ply)
{
    return score >= SCORE_MATE_BOUND ? score + ply : score <= -SCORE_MATE_BOUND ? score - ply : score;
}

static inline int score_from_tt(int score, int ply)
{
    return score >= SCORE_MATE_BOUND ? score - ply : score <= -SCORE_MATE_BOUND ? score + ply : score;
}

/* A drawn game's score (`reason`: "repetition", "fifty-move", ...), which a variant may make
 * a result (VariantDef.decide_draw). */
int drawn_score(const Position *pos, const char *reason, int ply);
/* The score when the side to move has no legal move: mate, or the variant's stalemate. */
int no_moves_score(const Position *pos, bool check, int ply);
/* An endgame table's verdict as a score, a win's counting the plies to mate. */
int endgame_score(const EndgameVerdict *tb, int ply);
/* Should this thread stop?  Looks at the clock and the flags every few nodes. */
bool out_of_time(Worker *w);
/* Has the current position occurred before, since the last irreversible move? */
bool repeated(const Worker *w);
/* The position's key on the path, and its table bucket fetched (after a move or null move). */
void push_key(Worker *w);
/* The key after a move as far as the move alone tells it, for an early prefetch. */
uint64_t key_after(const Position *pos, Move m);
/* make() for a pseudo-legal move, if it is legal (`check`: the side to move is in check). */
bool make_if_legal(Worker *w, Move m, Undo *u, bool check);
/* Does a table entry this deep, with this bound, settle the node's score for the window? */
bool tt_entry_decides(const TTEntry *e, int depth, int alpha, int beta, int ply);
/* The static evaluation, refined by the table's score where its bound lies beyond it. */
int refined_eval(int eval, const TTEntry *e, int ply);

/* Quiescence (quiescence.c) from the node at `ply`, `qdepth` plies below the main search;
 * `check_known`: whether the side to move is in check, or CHECK_UNKNOWN. */
int quiescence(Worker *w, int alpha, int beta, int ply, int qdepth, int check_known);

#endif
