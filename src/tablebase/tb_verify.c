/*
 * Verification of stored values against the rules core: an entry is checked by generating
 * its legal moves with gen_legal and looking every successor up (in this table or in a
 * smaller one).  A stored value is consistent when
 *   - the entry is invalid exactly when the index names no position or the side not to move
 *     is in check;
 *   - no legal move: checkmate is a loss in 0, stalemate a draw;
 *   - a win in d: some move reaches a loss in d - 1 and no move a shorter loss;
 *   - a loss in d: every move reaches a win, the longest in d - 1;
 *   - a draw: no move reaches a loss, some move reaches a draw;
 *   - DTZ: a win's is the least over its winning moves of 1 (a capture, a pawn move or
 *     mate) or 1 + the successor's DTZ; a loss's the greatest over all its moves;
 *   - a dead draw has no move to a live position, a live draw has one.
 * Local consistency everywhere (with distances that strictly decrease along best play) is
 * exactly what the minimax values satisfy, so checking every entry proves a table.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../util/rng.h"
#include "tb_derived.h"
#include "tb_internal.h"

bool tb_verify_entry(const TbTable *t, int side, uint64_t idx, char *err, size_t errlen)
{
    const TbLayout *L = &t->L;
    int v = tb_table_value(t, side, idx);
    int z = tb_table_dtz(t, side, idx);
    TbPos p;
    Position pos;
    bool valid = tb_entry_position(L, side, idx, &p, &pos) && !pos_attacked(&pos, pos.royal[side ^ 1], side);
    if (!valid) {
        if (v != TBV_INVALID) {
            snprintf(err, errlen, "%s side %d entry %llu: no position, but stored as valid", L->name, side,
                     (unsigned long long)idx);
            return false;
        }
        return true;
    }
    char fen[FEN_MAX];
    pos_fen(&pos, fen, sizeof fen);
    if (v == TBV_INVALID) {
        snprintf(err, errlen, "%s: %s stored as invalid", L->name, fen);
        return false;
    }
    Move moves[MAX_MOVES];
    int n = gen_legal(&pos, moves);
    int want, want_dtz = 0;
    bool live = false;
    if (n == 0) {
        want = pos_in_check(&pos) ? 0 : TBV_DRAW;
    } else {
        int best_loss = -1, longest_win = -1, win_z = 1 << 30, loss_z = 0;
        bool draw = false;
        for (int i = 0; i < n; i++) {
            bool zeroing = pos_is_capture(&pos, moves[i]) || pos.v->is_pawn[pos.board[MOVE_FROM(moves[i])]];
            Undo u;
            pos_make(&pos, moves[i], &u);
            bool ok;
            int cz = 0;
            int cv = tb_probe_value(&pos, &cz, &ok);
            pos_unmake(&pos, moves[i], &u);
            if (!ok) {
                snprintf(err, errlen, "%s: %s: a successor cannot be probed: %s", L->name, fen, tb_last_error());
                return false;
            }
            live |= cv != TBV_DEAD;
            int mz = zeroing ? 1 : 1 + cz;
            if (cv >= 0 && cv % 2 == 0) {
                if (best_loss < 0 || cv < best_loss)
                    best_loss = cv;
                if (mz < win_z)
                    win_z = mz;
            } else if (cv >= 0) {
                if (cv > longest_win)
                    longest_win = cv;
                if (mz > loss_z)
                    loss_z = mz;
            } else {
                draw = true;
            }
        }
        if (best_loss >= 0) {
            want = best_loss + 1;
            want_dtz = win_z;
        } else if (draw) {
            want = TBV_DRAW;
        } else {
            want = longest_win + 1;
            want_dtz = loss_z;
        }
    }
    if (want == TBV_DRAW) {
        if (v != TBV_DRAW && v != TBV_DEAD) {
            snprintf(err, errlen, "%s: %s stored %d, but its moves make it a draw", L->name, fen, v);
            return false;
        }
        if ((v == TBV_DEAD) == live) {
            snprintf(err, errlen, "%s: %s stored as a %s draw, but %s move leads to a live position", L->name, fen,
                     v == TBV_DEAD ? "dead" : "live", live ? "a" : "no");
            return false;
        }
        if (z != 0) {
            snprintf(err, errlen, "%s: %s is a draw with DTZ %d", L->name, fen, z);
            return false;
        }
        return true;
    }
    if (v != want) {
        snprintf(err, errlen, "%s: %s stored %d, its moves say %d", L->name, fen, v, want);
        return false;
    }
    if (z != want_dtz) {
        snprintf(err, errlen, "%s: %s stored DTZ %d, its moves say %d", L->name, fen, z, want_dtz);
        return false;
    }
    return true;
}

/* The compiled derived data (derived_data.bin) against a table's entry. */
bool tb_verify_derived_entry(const TbTable *t, int side, uint64_t idx, char *err, size_t errlen)
{
    int v = tb_table_value(t, side, idx);
    if (v == TBV_INVALID)
        return true;
    TbPos p;
    Position pos;
    tb_entry_position(&t->L, side, idx, &p, &pos);
    char fen[FEN_MAX];
    if (tb_derived_fifty_exception(&pos) != (t->max_dtz > 100)) {
        snprintf(err, errlen, "%s: the derived 50-move exception list disagrees with the table", t->L.name);
        return false;
    }
    Move moves[MAX_MOVES];
    if (gen_legal(&pos, moves) == 0)
        return true; /* stalemates and mates: decided before deadness is asked */
    if (tb_derived_dead(&pos) != (v == TBV_DEAD)) {
        pos_fen(&pos, fen, sizeof fen);
        snprintf(err, errlen, "%s: %s: the derived data says %s, the table %s", t->L.name, fen,
                 v == TBV_DEAD ? "live" : "dead", v == TBV_DEAD ? "dead" : "live");
        return false;
    }
    return true;
}

typedef struct {
    const TbTable *t;
    TbEntryCheck check;
    uint64_t count, seed;
    atomic_ullong next;
    atomic_int failures;
    pthread_mutex_t lock;
} CheckJob;

static void *check_worker(void *arg)
{
    CheckJob *j = arg;
    uint64_t total = 2 * j->t->L.per_side;
    for (;;) {
        uint64_t k = atomic_fetch_add(&j->next, 1);
        if (k >= j->count)
            break;
        uint64_t e = j->count >= total ? k : rng_mix(j->seed ^ k) % total;
        int side = e >= j->t->L.per_side;
        uint64_t idx = side ? e - j->t->L.per_side : e;
        char err[1024];
        if (!j->check(j->t, side, idx, err, sizeof err) && atomic_fetch_add(&j->failures, 1) < 10) {
            pthread_mutex_lock(&j->lock);
            fprintf(stderr, "verify: %s\n", err);
            pthread_mutex_unlock(&j->lock);
        }
    }
    return NULL;
}

int tb_check_table(const TbTable *t, TbEntryCheck check, uint64_t sample, uint64_t seed, int threads)
{
    CheckJob j;
    memset(&j, 0, sizeof j);
    j.t = t;
    j.check = check;
    uint64_t total = 2 * t->L.per_side;
    j.count = sample == 0 || sample >= total ? total : sample;
    j.seed = seed;
    pthread_mutex_init(&j.lock, NULL);
    tb_parallel(threads, check_worker, &j);
    pthread_mutex_destroy(&j.lock);
    return atomic_load(&j.failures);
}
