/*
 * What a node of the search does before and after its moves, shared by the main search
 * (search.c) and quiescence (quiescence.c): moves made on the worker's path with their keys
 * and net updates, repetitions, the scores of finished games and of endgame tables, the
 * table's entries read as bounds, and the clock.
 */
#include <stdlib.h>

#include "../core/movegen.h"
#include "../util/clock.h"
#include "node.h"

/* How often (in nodes, a power of two) a thread looks at the clock and the stop flags: often,
 * since a Megastar node can take microseconds. */
#define CHECK_EVERY 32

/* A finished game's score for the side to move, preferring quick wins and slow losses. */
static int result_score(GameResult r, int side, int ply)
{
    if (r.kind == RESULT_DRAW || r.kind == RESULT_NONE)
        return 0;
    bool win = (r.kind == RESULT_WHITE_WINS) == (side == WHITE);
    return win ? SCORE_MATE - ply : -(SCORE_MATE - ply);
}

int drawn_score(const Position *pos, const char *reason, int ply)
{
    const VariantDef *d = pos->v->def;
    if (!d->decide_draw)
        return 0;
    return result_score(d->decide_draw(pos, reason), pos->side, ply);
}

/* Should this thread stop?  Every thread obeys `stop` and the main thread's end; the main
 * thread also keeps the node limit and the clock (not while pondering). */
bool out_of_time(Worker *w)
{
    if (w->stopped)
        return true;
    Shared *sh = w->shared;
    if ((counter_read(&w->nodes) & (CHECK_EVERY - 1)) != 0)
        return false;
    if (atomic_load(&sh->engine->stop) || atomic_load(&sh->abort))
        w->stopped = true;
    else if (w->id == 0 && sh->limits.nodes && total_nodes(sh) >= sh->limits.nodes)
        w->stopped = true;
    else if (w->id == 0 && sh->time.maximum > 0 && !atomic_load(&sh->engine->pondering) &&
             clock_seconds() - sh->start >= sh->time.maximum)
        w->stopped = true;
    return w->stopped;
}

/* Has the current position occurred before, since the last irreversible move? */
bool repeated(const Worker *w)
{
    uint64_t now = w->keys[w->nkeys - 1];
    int reach = w->pos.halfmove < w->nkeys - 1 ? w->pos.halfmove : w->nkeys - 1;
    for (int i = 2; i <= reach; i += 2)
        if (w->keys[w->nkeys - 1 - i] == now)
            return true;
    return false;
}

/* After a move: the new position's key goes on the path (for repetitions), and its table
 * bucket is fetched ahead of the probe. */
void push_key(Worker *w)
{
    uint64_t key = search_key(&w->pos);
    w->keys[w->nkeys++] = key;
    tt_prefetch(&w->shared->engine->tt, key);
}

/* The key of the position after a move, as far as the move alone tells it (not castling
 * rights, en passant, promotion, limping pawns or the variants' events): good enough to fetch
 * the child's table bucket before the move is made and tested (push_key fetches the exact
 * one after). */
uint64_t key_after(const Position *pos, Move m)
{
    Cell from = MOVE_FROM(m), to = MOVE_TO(m);
    if (MOVE_KIND(m) == MK_PLACE)
        return pos->key ^ zobrist_side;
    uint8_t code = pos->board[from], victim = pos->board[to];
    uint64_t k = pos->key ^ zobrist_side ^ zobrist_piece[code][from] ^ zobrist_piece[code][to];
    return victim ? k ^ zobrist_piece[victim][to] : k;
}

void make(Worker *w, Move m, Undo *u)
{
    bool net = w->net; /* read once: the compiler then knows `note` is set where it is read */
    NnueMoveNote note;
    if (net)
        nnue_before(&note, &w->pos, m);
    pos_make(&w->pos, m, u);
    if (net)
        nnue_push(w->nnue, &note, &w->pos);
    push_key(w);
    counter_add(&w->nodes, 1);
}

/* Makes a pseudo-legal move if it is legal: the search tests legality only for the moves it
 * actually reaches (`check`: the side to move is in check, which lets masks decide most). */
bool make_if_legal(Worker *w, Move m, Undo *u, bool check)
{
    tt_prefetch(&w->shared->engine->tt, key_after(&w->pos, m));
    bool net = w->net;
    NnueMoveNote note;
    if (net)
        nnue_before(&note, &w->pos, m);
    if (!pos_make_if_legal(&w->pos, m, u, check))
        return false;
    if (net)
        nnue_push(w->nnue, &note, &w->pos);
    push_key(w);
    counter_add(&w->nodes, 1);
    return true;
}

void unmake(Worker *w, Move m, const Undo *u)
{
    w->nkeys--;
    if (w->net)
        nnue_pop(w->nnue);
    pos_unmake(&w->pos, m, u);
}

/* The score when the side to move has no legal move. */
int no_moves_score(const Position *pos, bool check, int ply)
{
    if (check)
        return -(SCORE_MATE - ply);
    return pos->v->def->stalemate ? result_score(pos->v->def->stalemate(pos), pos->side, ply) : 0;
}

int endgame_score(const EndgameVerdict *tb, int ply)
{
    return tb->wdl == 0 ? 0 : tb->wdl > 0 ? SCORE_MATE - (ply + tb->dtm) : -(SCORE_MATE - (ply + tb->dtm));
}

/* Does a table entry this deep, with this bound, settle the node's score for the window? */
bool tt_entry_decides(const TTEntry *e, int depth, int alpha, int beta, int ply)
{
    if (e->depth < depth)
        return false;
    int score = score_from_tt(e->score, ply);
    return e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && score >= beta) ||
           (e->bound == BOUND_UPPER && score <= alpha);
}

/* The static evaluation, refined by the table's score where its bound says the true score
 * lies beyond the evaluation (a search's result knows more than the evaluation). */
int refined_eval(int eval, const TTEntry *e, int ply)
{
    if (!e || e->bound == BOUND_NONE)
        return eval;
    int score = score_from_tt(e->score, ply);
    if (abs(score) >= SCORE_MATE_BOUND)
        return eval;
    bool beyond = e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER ? score > eval : score < eval);
    return beyond ? score : eval;
}
