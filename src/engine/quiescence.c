/*
 * Quiescence: below the main search's leaves, captures and promotions until the position is
 * quiet, so that the static evaluation is read only where no exchange is pending.
 */
#include "../core/movegen.h"
#include "history.h"
#include "movepick.h"
#include "node.h"

/* Delta pruning's margin, centipawns. */
#define QS_DELTA_MARGIN 200
/* Quiet check evasions quiescence tries once an escape is known. */
#define QS_QUIET_EVASIONS 2
/* Where capture chains run long (VariantDef.long_capture_chains), quiescence stops after
 * QS_MAX_DEPTH plies, and out of check, after its first QS_FULL_PLIES plies, searches
 * QS_CAPTURES captures, then only recaptures and promotions. */
#define QS_MAX_DEPTH 8
#define QS_FULL_PLIES 2
#define QS_CAPTURES 2

/* Quiescence skips a capture that cannot lift the score near alpha even if the victim is won
 * for free (delta pruning), and one that loses material in the exchange it starts.  Promotions
 * are always searched. */
static bool qsearch_skips(const Worker *w, Move m, int stand_pat, int alpha)
{
    if (move_promotes(m))
        return false;
    if (stand_pat + victim_value(w, m) + QS_DELTA_MARGIN <= alpha)
        return true;
    return capture_loses(w, m);
}

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
/* Quiescence asks for the table buckets of its first QS_PREFETCHES captures' children as soon
 * as it has them, before ordering them: a probe's cache miss is a large part of what a node
 * costs, and by the time a capture is made its bucket has arrived.  (All of them: Megastar's
 * long capture lists then fetched more than the search used, and it slowed.) */
#define QS_PREFETCHES 4

int quiescence(Worker *w, int alpha, int beta, int ply, int qdepth, int check_known)
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
        best = refined_eval(static_eval(w) + eval_correction(correction_slots(w)), found ? &e : NULL, ply);
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
    MoveOrder order;
    Move tt_move = found ? e.move : MOVE_NONE;
    if (check) {
        Followups followups = followups_at(w, ply);
        order_moves(w, &order, moves, n, tt_move, ply, &followups);
    } else {
        order_noisy(w, &order, moves, n, tt_move);
    }
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
