/*
 * The node search: principal-variation alpha-beta in numbered steps (negamax) down to
 * quiescence, which searches captures until the position is quiet.  Each step says what it
 * does and why; docs/engine.md prices them.  The moves come in the order movepick.c gives,
 * and what the search learns of quiet moves goes to history.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/movegen.h"
#include "../util/clock.h"
#include "history.h"
#include "movepick.h"
#include "worker.h"


/* Pruning margins, centipawns. */
#define QS_DELTA_MARGIN 200
/* Quiet check evasions quiescence tries once an escape is known. */
#define QS_QUIET_EVASIONS 2
/* Where capture chains run long (VariantDef.long_capture_chains), quiescence stops after
 * QS_MAX_DEPTH plies, and out of check, after its first QS_FULL_PLIES plies, searches
 * QS_CAPTURES captures, then only recaptures and promotions. */
#define QS_MAX_DEPTH 8
#define QS_FULL_PLIES 2
#define QS_CAPTURES 2
#define RFP_MAX_DEPTH 5
#define RFP_MARGIN 100 /* per ply of depth */
#define FUTILITY_MAX_DEPTH 2
#define FUTILITY_MARGIN 100 /* plus this per ply of depth */
#define LMP_MAX_DEPTH 3
/* Razoring: within RAZOR_MAX_DEPTH plies of the leaves, a static evaluation RAZOR_MARGIN per
 * ply of depth below alpha asks quiescence whether the node fails low. */
#define RAZOR_MAX_DEPTH 3
#define RAZOR_MARGIN 200
#define HISTORY_PRUNE_MAX_DEPTH 6
#define HISTORY_PRUNE_UNIT 2048
/* A capture that loses more than SEE_PRUNE_MARGIN per ply of depth in its exchange is not
 * searched within SEE_PRUNE_MAX_DEPTH plies of the leaves. */
#define SEE_PRUNE_MAX_DEPTH 5
#define SEE_PRUNE_MARGIN 100
/* A quiet move whose piece loses more than SEE_QUIET_MARGIN per ply of depth where it lands
 * is not searched within SEE_QUIET_MAX_DEPTH plies of the leaves, unless it gives check
 * (Ethereal's values; the exemption keeps mating sacrifices). */
#define SEE_QUIET_MAX_DEPTH 8
#define SEE_QUIET_MARGIN 64
/* Null move: the reply is searched NMP_BASE + depth / NMP_DEPTH_DIVISOR plies shallower, and a
 * ply more per NMP_EVAL_UNIT the static evaluation stands above beta (at most NMP_EVAL_MAX). */
#define NMP_BASE 3
#define NMP_DEPTH_DIVISOR 6
#define NMP_EVAL_UNIT 200
#define NMP_EVAL_MAX 3
/* Where zugzwang is common and a verified null move pays (VariantDef.null_move_verified),
 * the null move from this depth, and verified. */
#define NMP_VERIFY_DEPTH 6
/* Singular extensions: from SE_MIN_DEPTH plies, a table move whose entry is a lower bound at
 * most SE_TT_DEPTH_LAG plies shallower is searched a ply deeper when every other move, searched
 * half as deep, falls SE_MARGIN per ply of depth below the entry's score. */
#define SE_MIN_DEPTH 6
#define SE_TT_DEPTH_LAG 3
#define SE_MARGIN 2
/* Late-move reductions: LMR_BASE + log(depth) log(move number) / LMR_DIVISOR plies, one less
 * in the principal variation, in or into check, and for killers and counter moves, and one
 * less (more) per LMR_HISTORY_UNIT of good (bad) history (the move's own plus its two
 * continuation entries). */
#define LMR_BASE 0.75
#define LMR_DIVISOR 2.25
#define LMR_HISTORY_UNIT 16384
/* How often (in nodes, a power of two) a thread looks at the clock and the stop flags: often,
 * since a Megastar node can take microseconds. */
#define CHECK_EVERY 32
/* The main thread names each root move it starts once the search has run this long. */
#define CURRMOVE_AFTER 1.0

/* ---- Small helpers ----------------------------------------------------------------------- */

/* A finished game's score for the side to move, preferring quick wins and slow losses. */
static int result_score(GameResult r, int side, int ply)
{
    if (r.kind == RESULT_DRAW || r.kind == RESULT_NONE)
        return 0;
    bool win = (r.kind == RESULT_WHITE_WINS) == (side == WHITE);
    return win ? SCORE_MATE - ply : -(SCORE_MATE - ply);
}

static int drawn_score(const Position *pos, const char *reason, int ply)
{
    const VariantDef *d = pos->v->def;
    if (!d->decide_draw)
        return 0;
    return result_score(d->decide_draw(pos, reason), pos->side, ply);
}

/* Should this thread stop?  Every thread obeys `stop` and the main thread's end; the main
 * thread also keeps the node limit and the clock (not while pondering). */
static bool out_of_time(Worker *w)
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
static bool repeated(const Worker *w)
{
    uint64_t now = w->keys[w->nkeys - 1];
    int reach = w->pos.halfmove < w->nkeys - 1 ? w->pos.halfmove : w->nkeys - 1;
    for (int i = 2; i <= reach; i += 2)
        if (w->keys[w->nkeys - 1 - i] == now)
            return true;
    return false;
}

/* Neither a capture nor a promotion (a placement from the hand counts as quiet). */
static bool is_quiet(const Position *pos, Move m)
{
    return !pos_is_capture(pos, m) && !(MOVE_PIECE(m) && MOVE_KIND(m) != MK_PLACE);
}

/* Quiescence skips a capture that cannot lift the score near alpha even if the victim is won
 * for free (delta pruning), and one that loses material in the exchange it starts.  Promotions
 * are always searched. */
static bool qsearch_skips(const Worker *w, Move m, int stand_pat, int alpha)
{
    if (MOVE_PIECE(m) && MOVE_KIND(m) != MK_PLACE)
        return false;
    if (stand_pat + victim_value(w, m) + QS_DELTA_MARGIN <= alpha)
        return true;
    return capture_loses(w, m);
}

/* Late-move reductions by depth and move number: log(depth) * log(moves), as Ethereal's. */
static int lmr_table[64][64];

void init_reductions(void)
{
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++)
            lmr_table[d][m] = (int)(LMR_BASE + log(d) * log(m) / LMR_DIVISOR);
}

/* How much shallower a late quiet move is searched first. */
static int reduction(const Worker *w, Move m, int depth, int legal, int ply, bool pv_node, bool check, bool gives_check,
                     Move counter, int history)
{
    int r = lmr_table[depth < 63 ? depth : 63][legal < 63 ? legal : 63];
    r -= pv_node + (check || gives_check);
    r -= m == w->killers[ply][0] || m == w->killers[ply][1] || m == counter;
    r -= history / LMR_HISTORY_UNIT;
    return r < 0 ? 0 : r > depth - 2 ? depth - 2 : r;
}

/* After a move: the new position's key goes on the path (for repetitions), and its table
 * bucket is fetched ahead of the probe. */
static void push_key(Worker *w)
{
    uint64_t key = search_key(&w->pos);
    w->keys[w->nkeys++] = key;
    tt_prefetch(&w->shared->engine->tt, key);
}

/* The key of the position after a move, as far as the move alone tells it (not castling
 * rights, en passant, promotion, limping pawns or the variants' events): good enough to fetch
 * the child's table bucket before the move is made and tested (push_key fetches the exact
 * one after). */
static uint64_t key_after(const Position *pos, Move m)
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
static bool make_if_legal(Worker *w, Move m, Undo *u, bool check)
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
static int no_moves_score(const Position *pos, bool check, int ply)
{
    if (check)
        return -(SCORE_MATE - ply);
    return pos->v->def->stalemate ? result_score(pos->v->def->stalemate(pos), pos->side, ply) : 0;
}

/* Scores stored in the table are relative to the node, not the root. */
static int score_to_tt(int score, int ply)
{
    return score >= SCORE_MATE_BOUND ? score + ply : score <= -SCORE_MATE_BOUND ? score - ply : score;
}

static int score_from_tt(int score, int ply)
{
    return score >= SCORE_MATE_BOUND ? score - ply : score <= -SCORE_MATE_BOUND ? score + ply : score;
}

static int endgame_score(const EndgameVerdict *tb, int ply)
{
    return tb->wdl == 0 ? 0 : tb->wdl > 0 ? SCORE_MATE - (ply + tb->dtm) : -(SCORE_MATE - (ply + tb->dtm));
}

static bool excluded_at_root(const Worker *w, Move m)
{
    for (int i = 0; i < w->nexcluded; i++)
        if (w->excluded[i] == m)
            return true;
    return false;
}

/* Does a table entry this deep, with this bound, settle the node's score for the window? */
static bool tt_entry_decides(const TTEntry *e, int depth, int alpha, int beta, int ply)
{
    if (e->depth < depth)
        return false;
    int score = score_from_tt(e->score, ply);
    return e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && score >= beta) ||
           (e->bound == BOUND_UPPER && score <= alpha);
}

/* The static evaluation, refined by the table's score where its bound says the true score
 * lies beyond the evaluation (a search's result knows more than the evaluation). */
static int refined_eval(int eval, const TTEntry *e, int ply)
{
    if (!e || e->bound == BOUND_NONE)
        return eval;
    int score = score_from_tt(e->score, ply);
    if (abs(score) >= SCORE_MATE_BOUND)
        return eval;
    bool beyond = e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER ? score > eval : score < eval);
    return beyond ? score : eval;
}

/* ---- Quiescence -------------------------------------------------------------------------- */

/*
 * Quiescence: captures and promotions until the position is quiet, standing pat on the static
 * evaluation.  In check every evasion counts, but once one has been found to escape, at most
 * QS_QUIET_EVASIONS quiet ones are tried.  Where capture chains run long, out of check and
 * below its first QS_FULL_PLIES plies, the QS_CAPTURES best captures are searched, then only
 * recaptures and promotions, and the whole of it stops after QS_MAX_DEPTH plies.  These bounds
 * keep the capture trees of crowded boards (Megastar's, where dozens of pieces stand en prise
 * to hopping Slings) from growing without end; elsewhere the captures that lose material,
 * which quiescence skips, bound the tree.
 *
 * `check_known`: whether the side to move is in check, or CHECK_UNKNOWN (the main search
 * knows it for the nodes it hands over; below, each node finds out itself once the table has
 * not settled it, which most captures' replies are spared).
 */
#define CHECK_UNKNOWN (-1)
/* Quiescence asks for the table buckets of its first QS_PREFETCHES captures' children as soon
 * as it has them, before ordering them: a probe's cache miss is a large part of what a node
 * costs, and by the time a capture is made its bucket has arrived.  (All of them: Megastar's
 * long capture lists then fetched more than the search used, and it slowed.) */
#define QS_PREFETCHES 4

static int quiescence(Worker *w, int alpha, int beta, int ply, int qdepth, int check_known)
{
    Position *pos = &w->pos;
    if (ply > w->seldepth)
        w->seldepth = ply;
    if (out_of_time(w))
        return 0;
    bool bounded = pos->v->def->long_capture_chains;
    if (ply >= MAX_PLY || (bounded && qdepth >= QS_MAX_DEPTH))
        return static_eval(w);
    /* The table, outside the principal variation: an entry of this quiescence ply or a
     * shallower one (its search was wider) or of the main search settles the node. */
    TT *tt = &w->shared->engine->tt;
    uint64_t key = search_key(pos);
    TTEntry e;
    bool found = tt_probe(tt, key, &e);
    if (found && beta - alpha == 1 && tt_entry_decides(&e, -qdepth, alpha, beta, ply))
        return score_from_tt(e.score, ply);
    bool check = check_known == CHECK_UNKNOWN ? pos_in_check(pos) : check_known;
    Move moves[MAX_MOVES], best_move = MOVE_NONE;
    int n, legal = 0, quiet_evasions = 0, orig_alpha = alpha;
    int best = -SCORE_INF;
    if (check) {
        n = gen_pseudo(pos, moves);
    } else {
        best = refined_eval(static_eval(w) + eval_correction(w), found ? &e : NULL, ply);
        if (best >= beta) {
            tt_store(tt, key, MOVE_NONE, score_to_tt(best, ply), -qdepth, BOUND_LOWER);
            return best;
        }
        if (best > alpha)
            alpha = best;
        n = gen_captures(pos, moves);
        int k = 0;
        for (int i = 0; i < n; i++)
            if (!qsearch_skips(w, moves[i], best, alpha)) {
                if (k < QS_PREFETCHES)
                    tt_prefetch(tt, key_after(pos, moves[i]));
                moves[k++] = moves[i];
            }
        n = k;
    }
    Followups followups = followups_at(w, ply);
    MoveOrder order;
    order_moves(w, &order, moves, n, found ? e.move : MOVE_NONE, ply, &followups);
    Cell recapture = ply > 0 && w->path_move[ply - 1] ? MOVE_TO(w->path_move[ply - 1]) : NO_CELL;
    for (int i = 0; i < n; i++) {
        Move m = order_next(&order, i);
        bool quiet = is_quiet(pos, m);
        /* Quiet moves come last: enough of them once an escape is known. */
        if (quiet && best > -SCORE_MATE_BOUND && quiet_evasions >= QS_QUIET_EVASIONS)
            break;
        /* Where chains run long, deeper down, out of check: the best few captures, then only
         * recaptures and promotions. */
        if (bounded && !check && qdepth >= QS_FULL_PLIES && legal >= QS_CAPTURES && MOVE_TO(m) != recapture &&
            !MOVE_PIECE(m))
            continue;
        Undo u;
        if (!make_if_legal(w, m, &u, check))
            continue;
        legal++;
        quiet_evasions += quiet;
        w->path_move[ply] = m;
        w->followup_at[ply] = -1;
        int score = -quiescence(w, -beta, -alpha, ply + 1, qdepth + 1, CHECK_UNKNOWN);
        unmake(w, m, &u);
        if (w->stopped)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                best_move = m;
                if (score >= beta)
                    break;
            }
        }
    }
    if (check && legal == 0)
        best = no_moves_score(pos, true, ply);
    int bound = best >= beta ? BOUND_LOWER : best > orig_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(tt, key, best_move, score_to_tt(best, ply), -qdepth, bound);
    return best;
}

/* ---- The main search --------------------------------------------------------------------- */

static bool has_pieces(const Position *pos)
{
    int side = pos->side;
    return pos->pcount[side] > pos->count[MAKE_PIECE(side, pos->v->pawn_type)] + (pos->royal[side] != NO_CELL);
}

/* A late or hopeless quiet move at shallow depth is not searched: late move pruning skips
 * those after the first 3 + depth^2, history pruning those whose history is below
 * -HISTORY_PRUNE_UNIT per ply of depth, futility pruning those that would need a large swing
 * of the static evaluation to reach alpha. */
static bool prune_quiet(int static_eval, int alpha, int depth, int legal, int history)
{
    if (depth <= LMP_MAX_DEPTH && legal > 3 + depth * depth)
        return true;
    if (depth <= HISTORY_PRUNE_MAX_DEPTH && history < -HISTORY_PRUNE_UNIT * depth)
        return true;
    return depth <= FUTILITY_MAX_DEPTH && static_eval + FUTILITY_MARGIN * (depth + 1) <= alpha;
}

/* Does the move give check?  Asked of the position by making the move, once: `known` keeps
 * the answer (CHECK_UNKNOWN until asked). */
static bool gives_check_known(Position *pos, Move m, int *known)
{
    if (*known == CHECK_UNKNOWN)
        *known = pos_gives_check(pos, m);
    return *known;
}

/* A new best move at `ply`: its line is the move followed by the child's line. */
static void update_pv(Worker *w, Move m, int ply)
{
    w->pv[ply][ply] = m;
    memcpy(&w->pv[ply][ply + 1], &w->pv[ply + 1][ply + 1], sizeof(Move) * (size_t)(w->pv_len[ply + 1] - ply - 1));
    w->pv_len[ply] = w->pv_len[ply + 1];
}

/* How much shallower the null move's reply is searched: NMP_BASE + depth / NMP_DEPTH_DIVISOR
 * plies, more the further the evaluation stands above beta. */
static int null_reduction(int depth, int static_eval, int beta)
{
    int margin = (static_eval - beta) / NMP_EVAL_UNIT;
    return NMP_BASE + depth / NMP_DEPTH_DIVISOR + (margin < NMP_EVAL_MAX ? margin : NMP_EVAL_MAX);
}

/* The null move's search: the side to move passes, and the reply is searched `depth` plies
 * deep with a null window at beta. */
static int null_move_search(Worker *w, int beta, int depth, int ply)
{
    Position *pos = &w->pos;
    Undo u;
    pos_make_null(pos, &u);
    w->path_move[ply] = MOVE_NONE;
    w->followup_at[ply] = -1;
    push_key(w);
    int score = -negamax(w, -beta, -beta + 1, depth, ply + 1, false, false);
    w->nkeys--;
    pos_unmake_null(pos, &u);
    return score;
}

/* Tells the observer which root move the main thread searches, once a search runs long
 * enough for a GUI to show it (UCI `currmove`). */
static void report_current_move(Worker *w, Move m, int number, int depth)
{
    const Shared *sh = w->shared;
    if (w->id == 0 && sh->observer && sh->observer->current_move &&
        clock_seconds() - sh->start >= CURRMOVE_AFTER && move_is_legal(&w->pos, m))
        sh->observer->current_move(sh->observer->ctx, &w->pos, m, number, depth);
}

/* Step 6b. Is the table move singular, the only good move here?  The node is searched again,
 * half as deep, with the table move left out and a null window below the entry's score.  If
 * every other move falls below it, the table move earns a ply more (returns 1).  If even
 * without it the node beats a bound at or above beta, several moves beat beta, and the node
 * fails high at once (multi-cut: returns SINGULAR_CUT, the bound in *cut).  Else 0. */
#define SINGULAR_CUT (-1)
static int singular_extension(Worker *w, const TTEntry *e, int depth, int beta, int ply, bool check, int *cut)
{
    int tt_score = score_from_tt(e->score, ply);
    int singular_beta = tt_score - SE_MARGIN * depth;
    w->singular[ply] = e->move;
    int score = negamax(w, singular_beta - 1, singular_beta, (depth - 1) / 2, ply, check, false);
    w->singular[ply] = MOVE_NONE;
    if (w->stopped)
        return 0;
    if (score < singular_beta)
        return 1;
    *cut = singular_beta;
    return singular_beta >= beta ? SINGULAR_CUT : 0;
}

/* The main search of the node at `ply`; `check`: the side to move is in check (the caller
 * knows it already, from the move it made).  While w->singular[ply] is set, the node is
 * searched without that move (step 6b): no table cut or store, no null move. */
int negamax(Worker *w, int alpha, int beta, int depth, int ply, bool check, bool allow_null)
{
    Position *pos = &w->pos;
    const Shared *sh = w->shared;
    bool pv_node = beta - alpha > 1, root = ply == 0;
    Move singular = w->singular[ply];
    w->pv_len[ply] = ply;
    if (ply > w->seldepth)
        w->seldepth = ply;

    /* Step 1. The game may be over: draws by rule, and mate distance pruning (no mate found
     * from here can be shorter than one already known). */
    if (!root) {
        if (out_of_time(w))
            return 0;
        if (repeated(w))
            return drawn_score(pos, "repetition", ply);
        if (pos->v->def->insufficient_material && pos->v->def->insufficient_material(pos))
            return drawn_score(pos, "insufficient-material", ply);
        int mating = SCORE_MATE - ply;
        if (mating < beta && (beta = mating) <= alpha)
            return alpha;
    }

    /* Step 2. Endgame tables give the exact result: a win's score counts the plies to mate. */
    EndgameVerdict tb;
    if (!root && pos->v->def->probe_endgame && pos->v->def->probe_endgame(pos, false, &tb)) {
        counter_add(&w->tbhits, 1);
        return endgame_score(&tb, ply);
    }
    if (check)
        depth++;
    if (depth <= 0 || ply >= MAX_PLY)
        return quiescence(w, alpha, beta, ply, 0, check);

    /* Step 3. The transposition table: a deep enough entry with a fitting bound ends the node
     * outside the principal variation. */
    uint64_t key = search_key(pos);
    TTEntry e;
    bool found = tt_probe(&sh->engine->tt, key, &e);
    Move tt_move = found ? e.move : MOVE_NONE;
    if (found && !pv_node && !root && !singular && tt_entry_decides(&e, depth, alpha, beta, ply))
        return score_from_tt(e.score, ply);

    /* Step 4. The 50-move rule ends the game unless the side to move is mated. */
    if (!root && fifty_move_rule_reached(pos))
        return check && count_legal_moves(pos) == 0 ? no_moves_score(pos, true, ply) : drawn_score(pos, "fifty-move", ply);

    /* Shallow pruning trusts the static evaluation: not in check, not at the root or in the
     * principal variation, not during a setup phase, not near mate scores. */
    bool prunable = !pv_node && !check && !root && !pos->hand_total[pos->side] && abs(alpha) < SCORE_MATE_BOUND &&
                    abs(beta) < SCORE_MATE_BOUND;
    int raw_eval = prunable ? static_eval(w) : 0, corrected_eval = prunable ? raw_eval + eval_correction(w) : 0;
    int static_eval = prunable ? refined_eval(corrected_eval, found ? &e : NULL, ply) : 0;
    bool zugzwang = pos->v->def->zugzwang_prone;

    /* Step 5. Reverse futility: far enough above beta that a move is assumed to keep it there
     * (like the null move, not where zugzwang is common). */
    if (prunable && !zugzwang && depth <= RFP_MAX_DEPTH && static_eval - RFP_MARGIN * depth >= beta)
        return static_eval;

    /* Step 5b. Razoring: far enough below alpha that only a capture could help; when
     * quiescence, with a null window at alpha, finds none, the node fails low. */
    if (prunable && depth <= RAZOR_MAX_DEPTH && static_eval + RAZOR_MARGIN * depth < alpha) {
        int score = quiescence(w, alpha - 1, alpha, ply, 0, false);
        if (w->stopped)
            return 0;
        if (score < alpha)
            return score;
    }

    /* Step 6. Null move: if passing still beats beta, a real move will too (not in check, not
     * during a setup phase, not without pieces).  Where zugzwang is common, none, or (where
     * the variant says it pays) only from NMP_VERIFY_DEPTH plies and verified: a search as
     * shallow as the null move's reply, with the null move barred, must beat beta too. */
    bool null_allowed = !zugzwang || pos->v->def->null_move_verified;
    if (allow_null && !singular && prunable && null_allowed && depth >= (zugzwang ? NMP_VERIFY_DEPTH : 3) && has_pieces(pos) &&
        static_eval >= beta) {
        int reduced = depth - null_reduction(depth, static_eval, beta);
        int score = null_move_search(w, beta, reduced, ply);
        if (w->stopped)
            return 0;
        if (score >= beta && score < SCORE_MATE_BOUND && zugzwang)
            score = negamax(w, beta - 1, beta, reduced, ply, false, false);
        if (w->stopped)
            return 0;
        if (score >= beta && score < SCORE_MATE_BOUND)
            return score;
    }

    int extension = 0, cut = 0;
    if (!root && !singular && tt_move && depth >= SE_MIN_DEPTH && (e.bound & BOUND_LOWER) &&
        e.depth >= depth - SE_TT_DEPTH_LAG && abs(score_from_tt(e.score, ply)) < SCORE_MATE_BOUND &&
        ply < 2 * (w->completed_depth + 1)) {
        extension = singular_extension(w, &e, depth, beta, ply, check, &cut);
        if (w->stopped)
            return 0;
        if (extension == SINGULAR_CUT)
            return cut;
    }

    /* Step 7. The moves, best first (generated only now: the steps above often end the node). */
    Move moves[MAX_MOVES];
    int n = gen_pseudo(pos, moves), legal = 0;
    Followups followups = followups_at(w, ply);
    MoveOrder order;
    order_moves(w, &order, moves, n, tt_move, ply, &followups);
    Move counter = counter_move(w, ply);
    int best = -SCORE_INF, orig_alpha = alpha, nquiets = 0;
    Move best_move = MOVE_NONE, quiets[MAX_MOVES];
    for (int i = 0; i < n; i++) {
        Move m = order_next(&order, i);
        if ((root && excluded_at_root(w, m)) || m == singular)
            continue;
        bool quiet = is_quiet(pos, m);
        /* Read before the move is made, for late-move reductions and history pruning. */
        int history = quiet && MOVE_KIND(m) != MK_PLACE && (depth >= 3 || prunable) ? quiet_history(w, &followups, m) : 0;
        /* Step 8. Moves near the leaves not worth searching, skipped before they are made
         * (quiet moves that give check excepted: asked last, since it makes the move). */
        int checks = CHECK_UNKNOWN;
        if (prunable && legal && best > -SCORE_MATE_BOUND && !MOVE_PIECE(m) && MOVE_KIND(m) != MK_PLACE) {
            /* 8a. Late, hopeless or futile quiet moves (they count as tried, for the
             * reductions of the moves after them). */
            if (quiet && prune_quiet(static_eval, alpha, depth, legal + 1, history) &&
                !gives_check_known(pos, m, &checks)) {
                legal++;
                continue;
            }
            /* 8b. A move that loses too much in its exchange: a capture, or a quiet move whose
             * piece the opponent then takes for less. */
            if (quiet ? depth <= SEE_QUIET_MAX_DEPTH && exchange_below(w, m, -SEE_QUIET_MARGIN * depth) &&
                            !gives_check_known(pos, m, &checks)
                      : depth <= SEE_PRUNE_MAX_DEPTH && pos_is_capture(pos, m) &&
                            exchange_below(w, m, -SEE_PRUNE_MARGIN * depth))
                continue;
        }
        Undo u;
        if (root)
            report_current_move(w, m, legal + 1, depth);
        if (!make_if_legal(w, m, &u, check))
            continue;
        legal++;
        bool gives_check = checks == CHECK_UNKNOWN ? pos_in_check(pos) : checks;

        /* Step 9. Principal-variation search: the first move with the full window, the rest
         * with a null window, late quiet moves shallower first (late-move reductions). */
        if (quiet)
            quiets[nquiets++] = m;
        w->path_move[ply] = m;
        w->path_piece[ply] = pos->board[MOVE_TO(m)];
        w->followup_at[ply] = followup_key(w, pos->board[MOVE_TO(m)], MOVE_TO(m));
        int score, child_depth = depth - 1 + (m == tt_move ? extension : 0);
        if (legal == 1) {
            score = -negamax(w, -beta, -alpha, child_depth, ply + 1, gives_check, true);
        } else {
            int r = depth >= 3 && legal > 1 + 2 * pv_node && quiet
                        ? reduction(w, m, depth, legal, ply, pv_node, check, gives_check, counter, history)
                        : 0;
            score = -negamax(w, -alpha - 1, -alpha, child_depth - r, ply + 1, gives_check, true);
            if (score > alpha && (r || pv_node))
                score = -negamax(w, -beta, -alpha, child_depth, ply + 1, gives_check, true);
        }
        unmake(w, m, &u);
        if (w->stopped)
            return 0;
        if (score > best) {
            best = score;
            best_move = m;
            if (score > alpha) {
                alpha = score;
                update_pv(w, m, ply);
                if (score >= beta) {
                    if (quiet)
                        update_quiet_stats(w, &followups, m, depth, ply, quiets, nquiets);
                    break;
                }
            }
        }
    }

    /* Step 10. No legal move: mate or the variant's stalemate; else remember the result (at
     * the root only the first MultiPV line: the others left the best moves out). */
    if (legal == 0)
        return singular ? alpha : root && w->nexcluded ? -SCORE_INF : no_moves_score(pos, check, ply);
    int bound = best >= beta ? BOUND_LOWER : best > orig_alpha ? BOUND_EXACT : BOUND_UPPER;
    if (!(root && w->nexcluded) && !singular)
        tt_store(&sh->engine->tt, key, best_move, score_to_tt(best, ply), depth, bound);
    /* The correction history learns how far off the evaluation was, where the result says
     * more than the evaluation (not a bound on its far side) and a capture did not make it;
     * not from a search without the table move (step 6b), which is not the node's value. */
    if (prunable && !singular && (!best_move || is_quiet(pos, best_move)) && abs(best) < SCORE_MATE_BOUND &&
        !(bound == BOUND_LOWER && best <= corrected_eval) && !(bound == BOUND_UPPER && best >= corrected_eval))
        update_correction(w, raw_eval, best, depth);
    return best;
}
