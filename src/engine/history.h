/*
 * What the search learns of quiet moves, to try the good ones first and search the bad ones
 * less: each move's history (by side, from and to), two continuation histories (how it fared
 * after the move one and two plies before it), killers (per ply, this search's last two quiet
 * moves that cut off) and counter moves (the quiet move that last refuted a move, by its piece
 * and target).  History scores rise for a quiet move that cuts off and fall for the quiet
 * moves tried before it; they, the counter moves and the continuation histories are kept from
 * search to search and forgotten at a new game.  The tables live in each thread's Worker.
 */
#ifndef STARFISH_HISTORY_H
#define STARFISH_HISTORY_H

#include <string.h>

#include "worker.h"

/* The index of a (piece code, cell) pair in the continuation-history table, or -1 without a
 * table or a piece. */
static inline int followup_key(const Worker *w, uint8_t code, Cell cell)
{
    int base = w->followup_base[code];
    return base < 0 ? -1 : base + cell;
}

/* The continuation-history rows of the moves one and two plies before `ply` (NULL: none). */
typedef struct Followups {
    int16_t *row[2];
} Followups;

static inline Followups followups_at(const Worker *w, int ply)
{
    Followups f = {{NULL, NULL}};
    for (int back = 1; back <= 2; back++)
        if (ply >= back && w->followup_at[ply - back] >= 0)
            f.row[back - 1] = w->followup + (size_t)w->followup_at[ply - back] * (size_t)w->followup_keys;
    return f;
}

/* A quiet board move's history: its own, plus how it fared after the two moves before it. */
static inline int quiet_history(const Worker *w, const Followups *f, Move m)
{
    const Position *pos = &w->pos;
    int h = w->history[pos->side][MOVE_FROM(m)][MOVE_TO(m)];
    int key = followup_key(w, pos->board[MOVE_FROM(m)], MOVE_TO(m));
    for (int i = 0; i < 2 && key >= 0; i++)
        if (f->row[i])
            h += f->row[i][key];
    return h;
}

/* The quiet move that last refuted the move that led here, or MOVE_NONE. */
static inline Move counter_move(const Worker *w, int ply)
{
    Move prev = ply > 0 ? w->path_move[ply - 1] : MOVE_NONE;
    return prev ? w->counter[w->path_piece[ply - 1]][MOVE_TO(prev)] : MOVE_NONE;
}

/* Correction history: the static evaluation is corrected by what searches of positions with
 * the same pawns (the same cells) and with the same material found it to be off, on average
 * over the two tables, each entry a running mean of (search result - static evaluation). */
#define CORRECTION_GRAIN 16

/* The cells of the pawns, or the pieces' counts: hashed into a correction table's index. */
static inline uint64_t correction_mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

static inline int pawn_correction_index(const Position *pos)
{
    const CellSet *pawns = &pos->by_type[pos->v->pawn_type];
    uint64_t h = 0;
    for (int i = 0; i < SET_WORDS_MAX; i++)
        h = correction_mix(h ^ (pawns->w[i] & pos->by_side[0].w[i]) ^ correction_mix(pawns->w[i] & pos->by_side[1].w[i]));
    return (int)(h & (CORRECTION_ENTRIES - 1));
}

static inline int material_correction_index(const Position *pos)
{
    uint64_t words[MAX_CODES / 8];
    memcpy(words, pos->count, sizeof words);
    uint64_t h = 0;
    for (size_t i = 0; i < MAX_CODES / 8; i++)
        h = correction_mix(h ^ words[i]);
    return (int)(h & (CORRECTION_ENTRIES - 1));
}

/* A position's entries in the two correction tables (its side, pawns and material), found
 * once a node: the node reads them for its evaluation and may update them after its moves. */
typedef struct CorrectionSlots {
    int16_t *pawn, *material;
} CorrectionSlots;

static inline CorrectionSlots correction_slots(Worker *w)
{
    const Position *pos = &w->pos;
    return (CorrectionSlots){&w->pawn_correction[pos->side][pawn_correction_index(pos)],
                             &w->material_correction[pos->side][material_correction_index(pos)]};
}

/* What to add to the static evaluation of the slots' position (centipawns). */
static inline int eval_correction(CorrectionSlots slots)
{
    return (*slots.pawn + *slots.material) / (2 * CORRECTION_GRAIN);
}

/* A search `depth` plies deep found the node's score `best` where the uncorrected static
 * evaluation said `raw`: both of its entries move toward the difference. */
void update_correction(CorrectionSlots slots, int raw, int best, int depth);

/* Forgets everything learnt (a new game). */
void history_forget(Worker *w);
/* Makes the continuation-history table fit the variant searched, cleared when it changes (in
 * the memory it had if the new table fits there); the path holds no move yet. */
void history_prepare(Worker *w, const Variant *v);
/* Gives back the continuation-history table's memory. */
void history_free(Worker *w);
/* A quiet move cut off at `ply` (`depth` plies from the leaves): it becomes a killer and the
 * counter move of the move before it, its history rises, and the quiet moves tried before it
 * (`tried`, which may hold it too) fall. */
void update_quiet_stats(Worker *w, const Followups *f, Move m, int depth, int ply, const Move *tried, int ntried);

#endif
