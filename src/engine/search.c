#include "search.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/movegen.h"
#include "../core/notation.h"
#include "eval.h"

#define MAX_HISTORY_KEYS 8192

/* Pruning margins, centipawns. */
#define QS_DELTA_MARGIN 200
#define RFP_MAX_DEPTH 5
#define RFP_MARGIN 100 /* per ply of depth */
#define FUTILITY_MAX_DEPTH 2
#define FUTILITY_MARGIN 100 /* plus this per ply of depth */
#define LMP_MAX_DEPTH 3
#define ASPIRATION_DELTA 25

typedef struct Search {
    Engine *engine;
    Position pos;
    const EvalTables *eval;
    SearchLimits limits;
    /* Keys of the game's earlier positions, then of the search path; keys[nkeys-1] is now. */
    uint64_t keys[MAX_HISTORY_KEYS + MAX_PLY + 2];
    int nkeys;
    uint64_t nodes;
    int seldepth;
    double start, soft_limit, hard_limit; /* seconds; 0 = none */
    bool stopped;
    Move killers[MAX_PLY + 1][2];
    int history[2][MAX_CELLS][MAX_CELLS];
    Move pv[MAX_PLY + 1][MAX_PLY + 1];
    int pv_len[MAX_PLY + 1];
} Search;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool engine_init(Engine *e, size_t hash_mb)
{
    memset(e, 0, sizeof *e);
    e->skill = 20;
    e->seed = (uint64_t)time(NULL) | 1;
    atomic_init(&e->stop, false);
    return tt_resize(&e->tt, hash_mb);
}

void engine_free(Engine *e)
{
    tt_free(&e->tt);
}

void engine_new_game(Engine *e)
{
    tt_clear(&e->tt);
}

/* The key the search uses: the position key plus any en-passant cell. */
static uint64_t search_key(const Position *pos)
{
    return pos->key ^ (pos->ep != NO_CELL ? zobrist_ep[pos->ep] : 0);
}

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

static bool out_of_time(Search *s)
{
    if (s->stopped)
        return true;
    if ((s->nodes & 127) == 0) { /* often: a Megastar node can take microseconds */
        if (atomic_load(&s->engine->stop) || (s->limits.nodes && s->nodes >= s->limits.nodes) ||
            (s->hard_limit > 0 && now_seconds() - s->start >= s->hard_limit))
            s->stopped = true;
    }
    return s->stopped;
}

/* Has the current position occurred before, since the last irreversible move? */
static bool repeated(const Search *s)
{
    uint64_t now = s->keys[s->nkeys - 1];
    int reach = s->pos.halfmove < s->nkeys - 1 ? s->pos.halfmove : s->nkeys - 1;
    for (int i = 2; i <= reach; i += 2)
        if (s->keys[s->nkeys - 1 - i] == now)
            return true;
    return false;
}

static int piece_value(const Search *s, uint8_t code)
{
    return code ? s->eval->value[code] : 0;
}

/* Neither a capture nor a promotion (a placement from the hand counts as quiet). */
static bool is_quiet(const Position *pos, Move m)
{
    return !pos_is_capture(pos, m) && !(MOVE_PIECE(m) && MOVE_KIND(m) != MK_PLACE);
}

static int victim_value(const Search *s, Move m)
{
    const Position *pos = &s->pos;
    return piece_value(s, MOVE_KIND(m) == MK_EP ? pos->board[pos->ep_victim] : pos->board[MOVE_TO(m)]);
}

/* Quiescence skips a capture that cannot lift the score near alpha even if the victim is won
 * for free (delta pruning), and one by a piece worth more than its victim onto a defended cell
 * (a cheap stand-in for exchange evaluation).  Promotions are always searched. */
static bool qsearch_skips(const Search *s, Move m, int stand_pat, int alpha)
{
    const Position *pos = &s->pos;
    if (MOVE_PIECE(m) && MOVE_KIND(m) != MK_PLACE)
        return false;
    int victim = victim_value(s, m);
    if (stand_pat + victim + QS_DELTA_MARGIN <= alpha)
        return true;
    return piece_value(s, pos->board[MOVE_FROM(m)]) > victim && pos_attacked(pos, MOVE_TO(m), !pos->side);
}

/* Orders moves best-first by a score: table move, captures (most valuable victim, least
 * valuable attacker), promotions, killers, then history. */
static void order_moves(Search *s, Move *moves, int n, Move tt_move, int ply)
{
    int score[MAX_MOVES];
    const Position *pos = &s->pos;
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        int sc;
        if (m == tt_move)
            sc = 1 << 30;
        else if (pos_is_capture(pos, m)) {
            sc = (1 << 24) + victim_value(s, m) * 16 - piece_value(s, pos->board[MOVE_FROM(m)]) / 16;
        } else if (MOVE_PIECE(m) && MOVE_KIND(m) != MK_PLACE)
            sc = (1 << 23) + MOVE_PIECE(m);
        else if (m == s->killers[ply][0])
            sc = (1 << 22);
        else if (m == s->killers[ply][1])
            sc = (1 << 22) - 1;
        else if (MOVE_KIND(m) == MK_PLACE)
            sc = s->eval->mg[MAKE_PIECE(pos->side, MOVE_PIECE(m))][MOVE_TO(m)];
        else
            sc = s->history[pos->side][MOVE_FROM(m)][MOVE_TO(m)];
        score[i] = sc;
    }
    for (int i = 1; i < n; i++) { /* insertion sort: lists are short */
        Move m = moves[i];
        int sc = score[i], j = i - 1;
        for (; j >= 0 && score[j] < sc; j--) {
            moves[j + 1] = moves[j];
            score[j + 1] = score[j];
        }
        moves[j + 1] = m;
        score[j + 1] = sc;
    }
}

static void make(Search *s, Move m, Undo *u)
{
    pos_make(&s->pos, m, u);
    s->keys[s->nkeys++] = search_key(&s->pos);
    s->nodes++;
}

/* Makes a pseudo-legal move if it is legal: the search tests legality only for the moves it
 * actually reaches, after making them. */
static bool make_if_legal(Search *s, Move m, Undo *u)
{
    pos_make(&s->pos, m, u);
    if (!pos_mover_safe(&s->pos)) {
        pos_unmake(&s->pos, m, u);
        return false;
    }
    s->keys[s->nkeys++] = search_key(&s->pos);
    s->nodes++;
    return true;
}

/* The score when the side to move has no legal move. */
static int no_moves_score(const Position *pos, bool check, int ply)
{
    if (check)
        return -(SCORE_MATE - ply);
    return pos->v->def->stalemate ? result_score(pos->v->def->stalemate(pos), pos->side, ply) : 0;
}

static void unmake(Search *s, Move m, const Undo *u)
{
    s->nkeys--;
    pos_unmake(&s->pos, m, u);
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

static int quiescence(Search *s, int alpha, int beta, int ply)
{
    Position *pos = &s->pos;
    if (ply > s->seldepth)
        s->seldepth = ply;
    if (out_of_time(s))
        return 0;
    bool check = pos_in_check(pos);
    if (ply >= MAX_PLY)
        return evaluate(pos, s->eval);
    Move moves[MAX_MOVES];
    int n = gen_pseudo(pos, moves), legal = 0;
    int best = -SCORE_INF;
    if (!check) {
        best = evaluate(pos, s->eval);
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
        int k = 0; /* captures and promotions only */
        for (int i = 0; i < n; i++)
            if (!is_quiet(pos, moves[i]) && !qsearch_skips(s, moves[i], best, alpha))
                moves[k++] = moves[i];
        n = k;
    }
    order_moves(s, moves, n, MOVE_NONE, ply);
    for (int i = 0; i < n; i++) {
        Undo u;
        if (!make_if_legal(s, moves[i], &u))
            continue;
        legal++;
        int score = -quiescence(s, -beta, -alpha, ply + 1);
        unmake(s, moves[i], &u);
        if (s->stopped)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (score >= beta)
                    break;
            }
        }
    }
    if (check && legal == 0)
        return no_moves_score(pos, true, ply);
    return best;
}

static bool has_pieces(const Position *pos)
{
    for (int i = 0; i < pos->pcount[pos->side]; i++) {
        uint8_t code = pos->board[pos->plist[pos->side][i]];
        if (!pos->v->is_pawn[code] && !pos->v->is_royal[code])
            return true;
    }
    return false;
}

static void update_quiet_stats(Search *s, Move m, int depth, int ply)
{
    if (s->killers[ply][0] != m) {
        s->killers[ply][1] = s->killers[ply][0];
        s->killers[ply][0] = m;
    }
    if (MOVE_KIND(m) != MK_PLACE) {
        int *h = &s->history[s->pos.side][MOVE_FROM(m)][MOVE_TO(m)];
        *h += depth * depth;
        if (*h > (1 << 20))
            for (int a = 0; a < MAX_CELLS; a++)
                for (int b = 0; b < MAX_CELLS; b++)
                    s->history[s->pos.side][a][b] /= 2;
    }
}

/* A late or hopeless quiet move at shallow depth is not searched: late move pruning skips
 * those after the first 3 + depth^2, futility pruning those that would need a large swing of
 * the static evaluation to reach alpha. */
static bool prune_quiet(int static_eval, int alpha, int depth, int legal)
{
    if (depth <= LMP_MAX_DEPTH && legal > 3 + depth * depth)
        return true;
    return depth <= FUTILITY_MAX_DEPTH && static_eval + FUTILITY_MARGIN * (depth + 1) <= alpha;
}

static int negamax(Search *s, int alpha, int beta, int depth, int ply, bool allow_null)
{
    Position *pos = &s->pos;
    bool pv_node = beta - alpha > 1;
    s->pv_len[ply] = ply;
    if (ply > 0) {
        if (out_of_time(s))
            return 0;
        if (repeated(s))
            return drawn_score(pos, "repetition", ply);
        if (pos->v->def->insufficient_material && pos->v->def->insufficient_material(pos))
            return drawn_score(pos, "insufficient-material", ply);
        /* Mate distance pruning. */
        int mating = SCORE_MATE - ply;
        if (mating < beta && (beta = mating) <= alpha)
            return alpha;
    }
    /* Endgame tables give the exact result: a win's score counts the plies to mate. */
    EndgameVerdict tb;
    if (ply > 0 && pos->v->def->probe_endgame && pos->v->def->probe_endgame(pos, false, &tb))
        return endgame_score(&tb, ply);
    bool check = pos_in_check(pos);
    if (check)
        depth++;
    if (depth <= 0 || ply >= MAX_PLY)
        return quiescence(s, alpha, beta, ply);

    uint64_t key = search_key(pos);
    bool found;
    TTEntry *e = tt_probe(&s->engine->tt, key, &found);
    Move tt_move = found ? e->move : MOVE_NONE;
    if (found && !pv_node && ply > 0 && e->depth >= depth) {
        int score = score_from_tt(e->score, ply);
        if (e->bound == BOUND_EXACT || (e->bound == BOUND_LOWER && score >= beta) ||
            (e->bound == BOUND_UPPER && score <= alpha))
            return score;
    }

    Move moves[MAX_MOVES];
    int n = gen_pseudo(pos, moves), legal = 0;
    /* The 50-move rule ends the game unless the side to move is mated. */
    if (ply > 0 && fifty_move_rule_reached(pos)) {
        for (int i = 0; i < n && !legal; i++)
            legal += move_is_legal(pos, moves[i]);
        return legal || !check ? drawn_score(pos, "fifty-move", ply) : no_moves_score(pos, true, ply);
    }

    /* Shallow pruning trusts the static evaluation: not in check, not at the root or in the
     * principal variation, not during a setup phase, not near mate scores. */
    bool prunable = !pv_node && !check && ply > 0 && !pos->hand_total[pos->side] && abs(alpha) < SCORE_MATE_BOUND &&
                    abs(beta) < SCORE_MATE_BOUND;
    int static_eval = prunable ? evaluate(pos, s->eval) : 0;
    bool zugzwang = pos->v->def->zugzwang_prone;

    /* Reverse futility: far enough above beta that a move is assumed to keep it there (like the
     * null move, not where zugzwang is common). */
    if (prunable && !zugzwang && depth <= RFP_MAX_DEPTH && static_eval - RFP_MARGIN * depth >= beta)
        return static_eval;

    /* Null move: if passing still beats beta, a real move will too (not where zugzwang is
     * common, not in check, not during a setup phase, not without pieces). */
    if (allow_null && prunable && depth >= 3 && !zugzwang && has_pieces(pos) && static_eval >= beta) {
        Undo u;
        pos_make_null(pos, &u);
        s->keys[s->nkeys++] = search_key(pos);
        int score = -negamax(s, -beta, -beta + 1, depth - 3, ply + 1, false);
        s->nkeys--;
        pos_unmake_null(pos, &u);
        if (s->stopped)
            return 0;
        if (score >= beta && score < SCORE_MATE_BOUND)
            return score;
    }

    order_moves(s, moves, n, tt_move, ply);
    int best = -SCORE_INF, orig_alpha = alpha;
    Move best_move = MOVE_NONE;
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        bool quiet = is_quiet(pos, m);
        Undo u;
        if (!make_if_legal(s, m, &u))
            continue;
        legal++;
        bool gives_check = pos_in_check(pos);
        if (prunable && quiet && !gives_check && legal > 1 && best > -SCORE_MATE_BOUND &&
            prune_quiet(static_eval, alpha, depth, legal)) {
            unmake(s, m, &u);
            continue;
        }
        int score;
        if (legal == 1) {
            score = -negamax(s, -beta, -alpha, depth - 1, ply + 1, true);
        } else {
            /* Late quiet moves are searched shallower first. */
            int r = (depth >= 3 && legal > 3 && quiet && !check && !gives_check) ? 1 + (depth > 6 && legal > 10) : 0;
            score = -negamax(s, -alpha - 1, -alpha, depth - 1 - r, ply + 1, true);
            if (score > alpha && (r || pv_node))
                score = -negamax(s, -beta, -alpha, depth - 1, ply + 1, true);
        }
        unmake(s, m, &u);
        if (s->stopped)
            return 0;
        if (score > best) {
            best = score;
            best_move = m;
            if (score > alpha) {
                alpha = score;
                s->pv[ply][ply] = m;
                memcpy(&s->pv[ply][ply + 1], &s->pv[ply + 1][ply + 1],
                       sizeof(Move) * (size_t)(s->pv_len[ply + 1] - ply - 1));
                s->pv_len[ply] = s->pv_len[ply + 1];
                if (score >= beta) {
                    if (quiet)
                        update_quiet_stats(s, m, depth, ply);
                    break;
                }
            }
        }
    }
    if (legal == 0)
        return no_moves_score(pos, check, ply);
    int bound = best >= beta ? BOUND_LOWER : best > orig_alpha ? BOUND_EXACT : BOUND_UPPER;
    tt_store(&s->engine->tt, key, best_move, score_to_tt(best, ply), depth, bound);
    return best;
}

/*
 * Time for this move: a share of the clock above a reserve, plus most of the increment, never
 * more than half of what is usable.  The reserve (up to 0.3 s, a third of the clock) and the
 * allowance for process and pipe latency keep the clock from sinking so low that a stall of
 * the machine flags it: with an increment the clock settles well above the reserve.
 */
static void plan_time(Search *s)
{
    const SearchLimits *l = &s->limits;
    s->soft_limit = s->hard_limit = 0;
    if (l->movetime > 0) {
        s->soft_limit = s->hard_limit = l->movetime / 1000.0;
        return;
    }
    int left = l->time[s->pos.side], inc = l->inc[s->pos.side];
    if (l->infinite || left <= 0)
        return;
    double latency = 0.05, t = left / 1000.0, i = inc / 1000.0;
    double reserve = t / 3 < 0.3 ? t / 3 : 0.3;
    double usable = t - reserve - 2 * latency;
    if (usable < 0)
        usable = 0;
    int togo = l->movestogo > 0 ? l->movestogo : 30;
    double budget = usable / togo + 0.6 * i;
    if (budget > usable / 2 + 0.6 * i)
        budget = usable / 2 + 0.6 * i;
    if (budget > t / 2)
        budget = t / 2;
    if (budget < 0.002)
        budget = 0.002;
    s->soft_limit = budget * 0.6;
    s->hard_limit = budget;
}

static void print_info(Search *s, int depth, int score, FILE *out)
{
    double secs = now_seconds() - s->start;
    char text[MOVE_TEXT_MAX];
    fprintf(out, "info depth %d seldepth %d score ", depth, s->seldepth);
    if (score >= SCORE_MATE_BOUND)
        fprintf(out, "mate %d", (SCORE_MATE - score + 1) / 2);
    else if (score <= -SCORE_MATE_BOUND)
        fprintf(out, "mate -%d", (SCORE_MATE + score) / 2);
    else
        fprintf(out, "cp %d", score);
    fprintf(out, " nodes %llu nps %.0f time %.0f pv", (unsigned long long)s->nodes, secs > 0 ? s->nodes / secs : 0.0,
            secs * 1000);
    Undo undo[MAX_PLY];
    int k = 0;
    for (; k < s->pv_len[0]; k++) {
        move_to_text(&s->pos, s->pv[0][k], text);
        fprintf(out, " %s", text);
        pos_make(&s->pos, s->pv[0][k], &undo[k]);
    }
    while (k-- > 0)
        pos_unmake(&s->pos, s->pv[0][k], &undo[k]);
    fprintf(out, "\n");
    fflush(out);
}

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* Weaker play: every root move scored at a shallow depth, then a noisy choice. */
static Move weakened_choice(Search *s, Move *moves, int n, int depth)
{
    int spread = (20 - s->engine->skill) * 25, best_noisy = -SCORE_INF * 2;
    Move choice = moves[0];
    for (int i = 0; i < n; i++) {
        Undo u;
        make(s, moves[i], &u);
        int score = -negamax(s, -SCORE_INF, SCORE_INF, depth - 1, 1, true);
        unmake(s, moves[i], &u);
        if (s->stopped && i > 0)
            break;
        int noisy = score + (int)(next_random(&s->engine->seed) % (uint64_t)(spread + 1));
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
        for (int i = 0; i < pos->pcount[side]; i++)
            m += t->value[pos->board[pos->plist[side][i]]];
        for (int type = 1; type <= pos->v->ntypes; type++)
            m += pos->hand[side][type] * t->value[MAKE_PIECE(side, type)];
        sum += side == pos->side ? m : -m;
    }
    return sum;
}

/* The greedy baseline: mate if it can, else the move leaving the most material, ties at
 * random. */
static Move greedy_choice(Engine *e, Position *pos, const Move *moves, int n)
{
    const EvalTables *t = eval_tables(pos->v);
    int best = -SCORE_INF;
    Move choice = moves[0];
    for (int i = 0; i < n; i++) {
        Undo u;
        Move replies[MAX_MOVES];
        pos_make(pos, moves[i], &u);
        int score = -material(pos, t) * 64 + (int)(next_random(&e->seed) % 64);
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
static bool seen_before(const Search *s, uint64_t key)
{
    for (int i = 0; i < s->nkeys; i++)
        if (s->keys[i] == key)
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
static Move endgame_root_move(Search *s, const Move *moves, int n, int *score)
{
    Position *pos = &s->pos;
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
        bool repeats = seen_before(s, search_key(pos));
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

/* One iteration at the root: a narrow window around the last score, widened on the side that
 * fails until the score falls inside (a full window for shallow depths and mate scores). */
static int root_search(Search *s, int depth, int last)
{
    int delta = ASPIRATION_DELTA;
    bool narrow = depth >= 4 && abs(last) < SCORE_MATE_BOUND;
    int alpha = narrow ? last - delta : -SCORE_INF, beta = narrow ? last + delta : SCORE_INF;
    for (;;) {
        int score = negamax(s, alpha, beta, depth, 0, false);
        if (s->stopped || (score > alpha && score < beta))
            return score;
        delta *= 2;
        if (score <= alpha)
            alpha = score - delta > -SCORE_INF ? score - delta : -SCORE_INF;
        else
            beta = score + delta < SCORE_INF ? score + delta : SCORE_INF;
    }
}

SearchResult search_run(Engine *e, Game *game, const SearchLimits *limits, FILE *out)
{
    SearchResult r = {0};
    Search *s = calloc(1, sizeof *s);
    if (!s)
        return r;
    s->engine = e;
    s->pos = game->pos;
    s->eval = eval_tables(game->v);
    s->limits = *limits;
    s->start = now_seconds();
    e->tt.generation++;
    int first = game->n + 1 > MAX_HISTORY_KEYS ? game->n + 1 - MAX_HISTORY_KEYS : 0;
    for (int i = first; i < game->n; i++)
        s->keys[s->nkeys++] = game->undos[i].key ^ (game->undos[i].ep != NO_CELL ? zobrist_ep[game->undos[i].ep] : 0);
    s->keys[s->nkeys++] = search_key(&s->pos);
    plan_time(s);

    Move moves[MAX_MOVES];
    int n = gen_legal(&s->pos, moves);
    if (e->greedy && n > 0) {
        r.best = greedy_choice(e, &s->pos, moves, n);
        r.depth = 1;
        free(s);
        return r;
    }
    int max_depth = limits->depth > 0 && limits->depth < MAX_PLY ? limits->depth : MAX_PLY - 1;
    if (e->skill < 20 && max_depth > 1 + e->skill / 3)
        max_depth = 1 + e->skill / 3;
    r.best = n ? moves[0] : MOVE_NONE;
    int tb_score = 0;
    Move tb_move = e->skill == 20 ? endgame_root_move(s, moves, n, &tb_score) : MOVE_NONE;
    if (tb_move != MOVE_NONE) {
        r.best = s->pv[0][0] = tb_move;
        s->pv_len[0] = 1;
        r.score = tb_score;
        r.depth = 1;
        if (out)
            print_info(s, 1, tb_score, out);
        max_depth = 0;
    }
    for (int depth = 1; depth <= max_depth && n > 0; depth++) {
        s->seldepth = 0;
        int score = root_search(s, depth, r.score);
        if (s->stopped && depth > 1)
            break;
        if (s->pv_len[0] > 0) {
            r.best = s->pv[0][0];
            r.ponder = s->pv_len[0] > 1 ? s->pv[0][1] : MOVE_NONE;
        }
        r.score = score;
        r.depth = depth;
        if (out)
            print_info(s, depth, score, out);
        if (s->stopped)
            break;
        /* One legal move, or a forced mate found: no need to look further under a clock. */
        bool timed = s->soft_limit > 0 || limits->infinite;
        if (timed && !limits->infinite && (n == 1 || abs(score) >= SCORE_MATE_BOUND))
            break;
        if (s->soft_limit > 0 && now_seconds() - s->start >= s->soft_limit)
            break;
    }
    if (e->skill < 20 && n > 1 && !s->stopped) {
        r.best = weakened_choice(s, moves, n, r.depth > 0 ? r.depth : 1);
        r.ponder = MOVE_NONE;
    }
    /* `go infinite` answers only after `stop`. */
    while (limits->infinite && !atomic_load(&e->stop)) {
        struct timespec pause = {0, 2000000};
        nanosleep(&pause, NULL);
    }
    r.nodes = s->nodes;
    r.seconds = now_seconds() - s->start;
    free(s);
    return r;
}
