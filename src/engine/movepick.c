#include "movepick.h"

#include "../core/movegen.h"
#include "see.h"

/* A list's first ORDER_PICKS places are filled by picking the best move left, the rest by one
 * insertion sort: lists are short, and most nodes need only their first move or two. */
#define ORDER_PICKS 3
/* Quiescence fetches the table buckets of its first QS_PREFETCHES captures' children as soon as
 * it has them: a probe's cache miss is a large part of what a node costs, and by the time a
 * capture is made its bucket has arrived.  (All of them: Megastar's long capture lists then
 * fetched more than the search used, and it slowed.) */
#define QS_PREFETCHES 4
/* Captures before promotions, whatever the victim. */
#define CAPTURE_BASE (1 << 24)
#define PROMOTION_BASE (1 << 23)

bool exchange_below(const Worker *w, Move m, int threshold)
{
    const Position *pos = &w->pos;
    return piece_value(w, pos->board[MOVE_FROM(m)]) > victim_value(w, m) &&
           see(pos, m, w->shared->eval->value) < threshold;
}

bool capture_loses(const Worker *w, Move m)
{
    return exchange_below(w, m, 0);
}

void picker_init(MovePicker *mp, Worker *w, Move table, int ply, const Followups *f)
{
    mp->w = w;
    mp->followups = f;
    mp->noisy_only = false;
    mp->stage = PICK_TABLE;
    mp->table = table;
    mp->refutations[0] = w->killers[ply][0];
    mp->refutations[1] = w->killers[ply][1];
    mp->refutations[2] = counter_move(w, ply);
    mp->refutation = 0;
    mp->nbad = mp->next_bad = 0;
}

void picker_init_captures(MovePicker *mp, Worker *w, Move table, int ply, int futile)
{
    picker_init(mp, w, table, ply, NULL);
    mp->noisy_only = true;
    mp->futile = futile;
}

/* A capture or promotion quiescence searches: a promotion, or a capture of a victim worth more
 * than `futile`. */
static bool worth_a_look(const MovePicker *mp, Move m)
{
    return !mp->noisy_only || move_is_promotion(m) || victim_value(mp->w, m) > mp->futile;
}

/* Captures by most valuable victim, then least valuable attacker; then promotions. */
static int noisy_score(const Worker *w, Move m)
{
    const Position *pos = &w->pos;
    if (pos_is_capture(pos, m))
        return CAPTURE_BASE + victim_value(w, m) * 16 - piece_value(w, pos->board[MOVE_FROM(m)]) / 16;
    return PROMOTION_BASE + MOVE_PIECE(m);
}

/* Quiet board moves by their history sum, placements by the piece-square table. */
static int quiet_score(const MovePicker *mp, Move m)
{
    const Worker *w = mp->w;
    if (MOVE_KIND(m) == MK_PLACE)
        return w->shared->eval->mg[MAKE_PIECE(w->pos.side, MOVE_PIECE(m))][MOVE_TO(m)];
    return quiet_history(w, mp->followups, m);
}

/* Puts the entry at `from` in place `to` (to <= from), the ones between one place later. */
static void list_place(MovePicker *mp, int to, int from)
{
    Move m = mp->moves[from];
    int sc = mp->score[from];
    for (int k = from; k > to; k--) {
        mp->moves[k] = mp->moves[k - 1];
        mp->score[k] = mp->score[k - 1];
    }
    mp->moves[to] = m;
    mp->score[to] = sc;
}

/* The stage's next move by score (equal scores in list order), or MOVE_NONE at its end. */
static Move list_next(MovePicker *mp)
{
    int i = mp->next;
    if (i >= mp->n)
        return MOVE_NONE;
    if (i >= mp->placed && i - mp->first < ORDER_PICKS) {
        int best = i;
        for (int j = i + 1; j < mp->n; j++)
            if (mp->score[j] > mp->score[best])
                best = j;
        list_place(mp, i, best);
        mp->placed = i + 1;
    } else if (i >= mp->placed) {
        for (int j = i + 1; j < mp->n; j++) { /* insertion sort of the rest */
            int k = j;
            while (k > i && mp->score[k - 1] < mp->score[j])
                k--;
            list_place(mp, k, j);
        }
        mp->placed = mp->n;
    }
    mp->next = i + 1;
    return mp->moves[i];
}

/* The captures and promotions worth a look, scored, as the stage's list (after the captures
 * kept aside, none yet). */
static void generate_noisy(MovePicker *mp)
{
    const Position *pos = &mp->w->pos;
    int n = gen_captures(pos, mp->moves);
    mp->first = mp->next = mp->placed = mp->n = 0;
    for (int i = 0; i < n; i++) {
        Move m = mp->moves[i];
        if (!worth_a_look(mp, m))
            continue;
        if (mp->noisy_only && mp->n < QS_PREFETCHES)
            tt_prefetch(&mp->w->shared->engine->tt, key_after(pos, m));
        mp->moves[mp->n] = m;
        mp->score[mp->n++] = noisy_score(mp->w, m);
    }
}

static bool is_refutation(const MovePicker *mp, Move m)
{
    return m == mp->refutations[0] || m == mp->refutations[1] || m == mp->refutations[2];
}

/* The quiet moves not tried yet, scored, as the stage's list after the captures kept aside:
 * the pseudo-legal moves less the captures, promotions, table move and refutations. */
static void generate_quiets(MovePicker *mp)
{
    const Position *pos = &mp->w->pos;
    Move all[MAX_MOVES];
    int n = gen_pseudo(pos, all);
    mp->first = mp->next = mp->placed = mp->n = mp->nbad;
    for (int i = 0; i < n; i++) {
        Move m = all[i];
        if (move_is_noisy(pos, m) || m == mp->table || is_refutation(mp, m))
            continue;
        mp->moves[mp->n] = m;
        mp->score[mp->n++] = quiet_score(mp, m);
    }
}

/* A capture that loses material in its exchange: put off to stage 5, or, in quiescence, never
 * tried (but a promotion quiescence tries in its place, whatever it loses). */
static bool put_off(const MovePicker *mp, Move m)
{
    return pos_is_capture(&mp->w->pos, m) && !(mp->noisy_only && move_is_promotion(m)) && capture_loses(mp->w, m);
}

/* The next good capture or promotion; the captures put off are kept aside. */
static Move next_good_noisy(MovePicker *mp)
{
    for (Move m; (m = list_next(mp)) != MOVE_NONE;) {
        if (m == mp->table)
            continue;
        if (put_off(mp, m)) {
            mp->moves[mp->nbad++] = m; /* a place already given out: nbad < next */
            continue;
        }
        return m;
    }
    return MOVE_NONE;
}

/* The next killer or counter move that is a quiet pseudo-legal move here, not tried before. */
static Move next_refutation(MovePicker *mp)
{
    const Position *pos = &mp->w->pos;
    while (mp->refutation < 3) {
        int k = mp->refutation++;
        Move m = mp->refutations[k];
        bool repeated = m == mp->table || (k > 0 && m == mp->refutations[k - 1]) ||
                        (k > 1 && m == mp->refutations[0]);
        if (m != MOVE_NONE && !repeated && !move_is_noisy(pos, m) && pos_is_pseudo_legal(pos, m))
            return m;
    }
    return MOVE_NONE;
}

/* Is the table move one to try here?  Any move of this kind of node that is pseudo-legal;
 * in quiescence only a capture or promotion it would try. */
static bool table_move_fits(const MovePicker *mp)
{
    const Position *pos = &mp->w->pos;
    Move m = mp->table;
    if (m == MOVE_NONE || (mp->noisy_only && !(move_is_noisy(pos, m) && worth_a_look(mp, m))))
        return false;
    return pos_is_pseudo_legal(pos, m) && !(mp->noisy_only && put_off(mp, m));
}

Move picker_next(MovePicker *mp)
{
    Move m = MOVE_NONE;
    switch (mp->stage) {
    case PICK_TABLE:
        mp->stage = PICK_GEN_NOISY;
        if (table_move_fits(mp))
            return mp->table;
        /* fall through */
    case PICK_GEN_NOISY:
        generate_noisy(mp);
        mp->stage = PICK_GOOD_NOISY;
        /* fall through */
    case PICK_GOOD_NOISY:
        if ((m = next_good_noisy(mp)) != MOVE_NONE)
            return m;
        mp->stage = mp->noisy_only ? PICK_DONE : PICK_REFUTATIONS;
        return picker_next(mp);
    case PICK_REFUTATIONS:
        if ((m = next_refutation(mp)) != MOVE_NONE)
            return m;
        mp->stage = PICK_GEN_QUIETS;
        /* fall through */
    case PICK_GEN_QUIETS:
        generate_quiets(mp);
        mp->stage = PICK_QUIETS;
        /* fall through */
    case PICK_QUIETS:
        if ((m = list_next(mp)) != MOVE_NONE)
            return m;
        mp->stage = PICK_BAD_NOISY;
        /* fall through */
    case PICK_BAD_NOISY:
        if (mp->next_bad < mp->nbad)
            return mp->moves[mp->next_bad++];
        mp->stage = PICK_DONE;
        /* fall through */
    case PICK_DONE:
        break;
    }
    return MOVE_NONE;
}
