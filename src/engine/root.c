/*
 * The root of a search: iterative deepening with aspiration windows, every MultiPV line an
 * iteration, the main thread's report after each and its decision to stop under a clock; and
 * the root's own ways to choose a move: perfect play from the endgame tables, the noisy choice
 * of lower skill levels and the one-ply greedy baseline.
 */
#include "root.h"

#include <stdlib.h>
#include <string.h>

#include "../core/movegen.h"
#include "../util/clock.h"
#include "../util/rng.h"

#define ASPIRATION_DELTA 25
/* A mate in p plies ends a search under a clock only once an iteration this many plies
 * deeper than p has run: any shorter mate would have been found by then, reductions of late
 * moves included (a mate found at a shallow depth, through extensions, proves nothing about
 * shorter ones). */
#define MATE_PROOF_MARGIN 2

int score_mate_moves(int score)
{
    if (score >= SCORE_MATE_BOUND)
        return (SCORE_MATE - score + 1) / 2;
    if (score <= -SCORE_MATE_BOUND)
        return -(SCORE_MATE + score) / 2;
    return 0;
}

/* Weaker play: every root move scored at a shallow depth, then a noisy choice. */
Move weakened_choice(Worker *w, Move *moves, int n, int depth)
{
    Engine *e = w->shared->engine;
    int spread = (20 - e->skill) * 25, best_noisy = -SCORE_INF * 2;
    Move choice = moves[0];
    for (int i = 0; i < n; i++) {
        Undo u;
        make(w, moves[i], &u);
        int score = -negamax(w, -SCORE_INF, SCORE_INF, depth - 1, 1, pos_in_check(&w->pos), true);
        unmake(w, moves[i], &u);
        if (w->stopped && i > 0)
            break;
        int noisy = score + (int)rng_below(&e->seed, (uint64_t)spread + 1);
        if (noisy > best_noisy) {
            best_noisy = noisy;
            choice = moves[i];
        }
    }
    return choice;
}

/* Material for the side to move (pieces in hand included), nothing else. */
static int material(const Position *pos, const EvalTables *t)
{
    int sum = 0;
    for (int side = 0; side < 2; side++) {
        int m = 0;
        for (int type = 1; type <= pos->v->ntypes; type++)
            m += (pos->count[MAKE_PIECE(side, type)] + pos->hand[side][type]) * t->value[MAKE_PIECE(side, type)];
        sum += side == pos->side ? m : -m;
    }
    return sum;
}

/* The greedy baseline: mate if it can, else the move leaving the most material, ties at
 * random. */
Move greedy_choice(Engine *e, Position *pos, const Move *moves, int n)
{
    const EvalTables *t = eval_tables(pos->v);
    int best = -SCORE_INF;
    Move choice = moves[0];
    for (int i = 0; i < n; i++) {
        Undo u;
        Move replies[MAX_MOVES];
        pos_make(pos, moves[i], &u);
        int score = -material(pos, t) * 64 + (int)rng_below(&e->seed, 64);
        if (gen_legal(pos, replies) == 0 && pos_in_check(pos))
            score = SCORE_INF - 1;
        pos_unmake(pos, moves[i], &u);
        if (score > best) {
            best = score;
            choice = moves[i];
        }
    }
    return choice;
}

/* Was this position (its key) seen before in the game or the search line? */
static bool seen_before(const Worker *w, uint64_t key)
{
    for (int i = 0; i < w->nkeys; i++)
        if (w->keys[i] == key)
            return true;
    return false;
}

/*
 * Perfect play in a won position the endgame tables cover: the fastest mate the 50-move rule
 * cannot interrupt.  A move is safe when, from the current halfmove clock, the next capture,
 * pawn move or mate comes within the 100 plies: the mover's plies to it are 1 after a zeroing
 * move or mate, else 1 + the loser's DTZ.  Whatever the loser replies, a safe move exists
 * again (its DTZ shrinks as the clock grows), so the win is never lost to the clock; among safe
 * moves the shortest mate is taken, avoiding positions already seen.  Materials exempt from
 * the 50-move rule play the shortest mate.  With no safe move (a position set up with a high
 * clock) the soonest zeroing is tried, scored as the draw best defence gets.  Returns
 * MOVE_NONE (the search decides) elsewhere: draws and losses are scored exactly by the
 * search's own probes one ply down.
 */
static Move endgame_root_move(Worker *w, const Move *moves, int n, int *score)
{
    Position *pos = &w->pos;
    const VariantDef *d = pos->v->def;
    EndgameVerdict root, child;
    if (!d->probe_endgame || !d->probe_endgame(pos, true, &root) || root.wdl <= 0)
        return MOVE_NONE;
    bool clock_counts = !(d->fifty_move_exception && d->fifty_move_exception(pos));
    Move best = MOVE_NONE;
    long best_rank = 0;
    for (int i = 0; i < n; i++) {
        bool zeroing = pos_is_capture(pos, moves[i]) || pos->v->is_pawn[pos->board[MOVE_FROM(moves[i])]];
        Undo u;
        pos_make(pos, moves[i], &u);
        bool covered = d->probe_endgame(pos, true, &child);
        bool repeats = seen_before(w, search_key(pos));
        pos_unmake(pos, moves[i], &u);
        if (!covered)
            return MOVE_NONE; /* a table is missing: leave it to the search */
        if (child.wdl >= 0)
            continue;
        int to_zero = zeroing || child.dtm == 0 ? 1 : 1 + child.dtz;
        bool unsafe = clock_counts && pos->halfmove + to_zero > 100;
        /* Rank: safe first (else the soonest zeroing), then new positions, then the mate. */
        long rank = ((long)unsafe * to_zero * 2 + repeats) * 100000 + child.dtm;
        if (best == MOVE_NONE || rank < best_rank) {
            best = moves[i];
            best_rank = rank;
            *score = unsafe ? 0 : SCORE_MATE - (1 + child.dtm); /* unsafe: the clock draws */
        }
    }
    return best;
}

/* One root search at `depth`: a narrow window around the last score, widened on the side that
 * fails until the score falls inside (a full window for shallow depths and mate scores). */
static int aspiration_search(Worker *w, int depth, int last)
{
    int delta = ASPIRATION_DELTA;
    bool narrow = depth >= 4 && abs(last) < SCORE_MATE_BOUND;
    int alpha = narrow ? last - delta : -SCORE_INF, beta = narrow ? last + delta : SCORE_INF;
    for (;;) {
        int score = negamax(w, alpha, beta, depth, 0, pos_in_check(&w->pos), false);
        if (w->stopped || (score > alpha && score < beta))
            return score;
        delta *= 2;
        if (score <= alpha)
            alpha = score - delta > -SCORE_INF ? score - delta : -SCORE_INF;
        else
            beta = score + delta < SCORE_INF ? score + delta : SCORE_INF;
    }
}

static void set_line(SearchLine *line, int score, const Move *moves, int length)
{
    line->score = score;
    line->length = length;
    memcpy(line->moves, moves, sizeof(Move) * (size_t)length);
}

/* Hands the last completed iteration to the observer. */
static void report(Worker *w)
{
    const Shared *sh = w->shared;
    if (!sh->observer || !sh->observer->iteration)
        return;
    w->info.depth = w->completed_depth;
    w->info.nodes = total_nodes(sh);
    w->info.tbhits = total_tbhits(sh);
    w->info.seconds = clock_seconds() - sh->start;
    w->info.hashfull = tt_hashfull(&sh->engine->tt);
    sh->observer->iteration(sh->observer->ctx, &w->pos, &w->info);
}

bool endgame_root_play(Worker *w, const Move *moves, int n)
{
    int score = 0;
    Move best = endgame_root_move(w, moves, n, &score);
    if (best == MOVE_NONE)
        return false;
    w->completed_depth = 1;
    w->info.nlines = 1;
    set_line(&w->info.lines[0], score, &best, 1);
    report(w);
    return true;
}

/* Has the main thread's last iteration said enough to stop under a clock? */
static bool iteration_ends_search(const Worker *w, int nlegal)
{
    const Shared *sh = w->shared;
    int score = w->info.lines[0].score;
    if (sh->limits.mate > 0 && score >= SCORE_MATE_BOUND && score_mate_moves(score) <= sh->limits.mate)
        return true;
    if (sh->limits.infinite || atomic_load(&sh->engine->pondering) || sh->time.optimum <= 0)
        return false;
    /* One legal move, or a mate proven to be the shortest: no need to look further. */
    if (nlegal == 1 || (abs(score) >= SCORE_MATE_BOUND && w->completed_depth >= SCORE_MATE - abs(score) + MATE_PROOF_MARGIN))
        return true;
    return clock_seconds() - sh->start >= time_iteration_limit(&sh->time, &w->trend);
}

/* Orders MultiPV lines best first (a later line can score above an earlier one: each is a
 * search of its own, with its own window); stable, so equal scores keep their order. */
static void sort_lines(SearchLine *lines, int n)
{
    for (int i = 1; i < n; i++) {
        SearchLine line = lines[i];
        int j = i - 1;
        for (; j >= 0 && lines[j].score < line.score; j--)
            lines[j + 1] = lines[j];
        lines[j + 1] = line;
    }
}

/* Iterative deepening on one thread: every MultiPV line at depth 1, 2, ... (helpers one ply
 * deeper on odd threads, so that the threads do not walk in step). */
void iterate(Worker *w, int nlegal)
{
    Shared *sh = w->shared;
    int lines = w->id == 0 ? sh->engine->multipv : 1;
    if (lines > nlegal)
        lines = nlegal;
    for (int depth = 1; depth <= sh->max_depth; depth++) {
        int target = w->id % 2 && depth < sh->max_depth ? depth + 1 : depth;
        w->seldepth = 0;
        w->nexcluded = 0;
        SearchLine found[MAX_MULTIPV];
        for (int k = 0; k < lines; k++) {
            int last = w->completed_depth ? w->info.lines[k].score : 0;
            int score = aspiration_search(w, target, last);
            if (w->stopped)
                break;
            set_line(&found[k], score, w->pv[0], w->pv_len[0]);
            w->excluded[w->nexcluded++] = w->pv[0][0];
        }
        bool complete = w->nexcluded == lines;
        if (complete) {
            sort_lines(found, lines);
            const SearchLine *last = &w->info.lines[0];
            time_note_iteration(&w->trend, w->completed_depth == 0 || last->length == 0 || found[0].length == 0,
                                found[0].moves[0] == last->moves[0], found[0].score, last->score);
            memcpy(w->info.lines, found, sizeof found[0] * (size_t)lines);
            w->info.nlines = lines;
        } else if (w->completed_depth == 0 && w->pv_len[0] > 0) {
            /* Stopped in the first iteration: the best line among the moves searched. */
            set_line(&w->info.lines[0], 0, w->pv[0], w->pv_len[0]);
            w->info.nlines = 1;
        } else {
            break;
        }
        w->info.seldepth = w->seldepth;
        w->completed_depth = target;
        if (w->id == 0)
            report(w);
        if (!complete || (w->id == 0 && iteration_ends_search(w, nlegal)))
            break;
    }
    w->nexcluded = 0;
}
