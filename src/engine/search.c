/*
 * The node search: principal-variation alpha-beta in numbered steps (negamax) down to
 * quiescence (quiescence.c), which searches captures until the position is quiet.  Each step
 * says what it does and why; docs/engine.md prices them.  The moves come in the order
 * movepick.c gives, what the search learns of quiet moves goes to history.c, and what every
 * node does before and after its moves is node.c's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../core/movegen.h"
#include "../util/clock.h"
#include "history.h"
#include "movepick.h"
#include "node.h"

/* Pruning margins, centipawns. */
#define RFP_MAX_DEPTH 5
#define RFP_MARGIN 100 /* per ply of depth */
#define FUTILITY_MAX_DEPTH 8
#define FUTILITY_MARGIN 90 /* plus FUTILITY_MARGIN_PER_PLY per ply of depth */
#define FUTILITY_MARGIN_PER_PLY 60
#define LMP_MAX_DEPTH 8
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
/* The main thread names each root move it starts once the search has run this long. */
#define CURRMOVE_AFTER 1.0

/* ---- Small helpers ----------------------------------------------------------------------- */

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

/* A root move left out of this search (MultiPV's lines already found). */
static bool excluded_at_root(const Worker *w, Move m)
{
    for (int i = 0; i < w->nexcluded; i++)
        if (w->excluded[i] == m)
            return true;
    return false;
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
    return depth <= FUTILITY_MAX_DEPTH && static_eval + FUTILITY_MARGIN + FUTILITY_MARGIN_PER_PLY * depth <= alpha;
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
    CorrectionSlots slots = prunable ? correction_slots(w) : (CorrectionSlots){0};
    int raw_eval = prunable ? static_eval(w) : 0, corrected_eval = prunable ? raw_eval + eval_correction(slots) : 0;
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
        update_correction(slots, raw_eval, best, depth);
    return best;
}
