#include "history.h"

#include <stdlib.h>
#include <string.h>

/* History scores stay within +-HISTORY_MAX; one cutoff moves them by at most the bonus cap. */
#define HISTORY_MAX 16384
#define HISTORY_BONUS_MAX 1200

/* Forgets the continuation history by zeroing the rows searches wrote to: a search of a few
 * thousand nodes writes a few dozen of the table's rows (768 in chess, 3640 in Megastar), and
 * zeroing all of it (1.2 MB in chess, 26 MB in Megastar) cost more than such a search. */
static void clear_followups(Worker *w)
{
    size_t row = (size_t)w->followup_keys * sizeof *w->followup;
    for (int i = 0; i < (FOLLOWUP_KEYS_MAX + 63) / 64; i++)
        for (uint64_t bits = w->followup_written[i]; bits; bits &= bits - 1)
            memset(w->followup + (size_t)(i * 64 + __builtin_ctzll(bits)) * (size_t)w->followup_keys, 0, row);
    memset(w->followup_written, 0, sizeof w->followup_written);
}

static void clear_corrections(Worker *w)
{
    memset(w->pawn_correction, 0, sizeof w->pawn_correction);
    memset(w->material_correction, 0, sizeof w->material_correction);
}

void history_forget(Worker *w)
{
    clear_corrections(w);
    memset(w->history, 0, sizeof w->history);
    memset(w->counter, 0, sizeof w->counter);
    clear_followups(w);
}

void history_prepare(Worker *w, const Variant *v)
{
    for (int i = 0; i <= MAX_PLY; i++)
        w->followup_at[i] = -1;
    if (w->followup && w->followup_variant == v)
        return;
    clear_followups(w);
    clear_corrections(w);
    w->followup_keys = 2 * v->ntypes * v->geo->ncells;
    size_t entries = (size_t)w->followup_keys * (size_t)w->followup_keys;
    if (!w->followup || entries > w->followup_capacity) {
        free(w->followup);
        w->followup = calloc(entries, sizeof *w->followup);
        w->followup_capacity = w->followup ? entries : 0;
    }
    w->followup_variant = w->followup ? v : NULL;
    for (int code = 0; code < MAX_CODES; code++) {
        int type = PIECE_TYPE(code);
        bool keyed = w->followup && type >= 1 && type <= v->ntypes && code >> 4 <= 1;
        w->followup_base[code] = keyed ? ((code >> 4) * v->ntypes + type - 1) * v->geo->ncells : -1;
    }
}

void history_free(Worker *w)
{
    free(w->followup);
}

/* A correction entry's running mean: the new difference weighs up to CORRECTION_WEIGHT_MAX
 * of 256 (more for deeper searches), and an entry stays within CORRECTION_MAX centipawns. */
#define CORRECTION_WEIGHT_MAX 16
#define CORRECTION_MAX 96

static void correction_moved(int16_t *entry, int diff, int weight)
{
    int v = (*entry * (256 - weight) + diff * CORRECTION_GRAIN * weight) / 256;
    int limit = CORRECTION_MAX * CORRECTION_GRAIN;
    *entry = (int16_t)(v < -limit ? -limit : v > limit ? limit : v);
}

void update_correction(CorrectionSlots slots, int raw, int best, int depth)
{
    int weight = depth + 1 < CORRECTION_WEIGHT_MAX ? depth + 1 : CORRECTION_WEIGHT_MAX;
    correction_moved(slots.pawn, best - raw, weight);
    correction_moved(slots.material, best - raw, weight);
}

/* History scores move toward +-HISTORY_MAX by each update, more slowly the closer they are. */
static int history_moved(int h, int bonus)
{
    return h + bonus - h * abs(bonus) / HISTORY_MAX;
}

/* Moves a quiet board move's history, its own and its continuation entries, by the bonus. */
static void quiet_history_update(Worker *w, const Followups *f, Move m, int bonus)
{
    int *h = &w->history[w->pos.side][MOVE_FROM(m)][MOVE_TO(m)];
    *h = history_moved(*h, bonus);
    int key = followup_key(w, w->pos.board[MOVE_FROM(m)], MOVE_TO(m));
    for (int i = 0; i < 2 && key >= 0; i++)
        if (f->row[i])
            f->row[i][key] = (int16_t)history_moved(f->row[i][key], bonus);
}

/* Notes that a continuation-history row is about to be written (clear_followups zeroes it). */
static void mark_followup_written(Worker *w, int key)
{
    w->followup_written[key / 64] |= (uint64_t)1 << (key % 64);
}

void update_quiet_stats(Worker *w, const Followups *f, Move m, int depth, int ply, const Move *tried, int ntried)
{
    if (w->killers[ply][0] != m) {
        w->killers[ply][1] = w->killers[ply][0];
        w->killers[ply][0] = m;
    }
    if (ply > 0 && w->path_move[ply - 1])
        w->counter[w->path_piece[ply - 1]][MOVE_TO(w->path_move[ply - 1])] = m;
    int bonus = 16 * depth * depth + 32 * depth + 16;
    if (bonus > HISTORY_BONUS_MAX)
        bonus = HISTORY_BONUS_MAX;
    for (int back = 1; back <= 2; back++)
        if (f->row[back - 1])
            mark_followup_written(w, w->followup_at[ply - back]);
    if (MOVE_KIND(m) != MK_PLACE)
        quiet_history_update(w, f, m, bonus);
    for (int i = 0; i < ntried; i++)
        if (tried[i] != m && MOVE_KIND(tried[i]) != MK_PLACE)
            quiet_history_update(w, f, tried[i], -bonus);
}
