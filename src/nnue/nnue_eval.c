/*
 * The network's arithmetic: the accumulators, kept along the search's path, and the small
 * layers above them (nnue.h).  The loops over a row are in nnue_simd.c.
 */
#include "nnue.h"

#include <stdlib.h>
#include <string.h>

#include "nnue_simd.h"

/* The quantisation (docs/nnue.md): activations in [0, QA]; the accumulators carry 3 bits more
 * than an activation; the layers' weights are scaled by QB. */
#define QA 127
#define FT_SHIFT 3
#define QB_SHIFT 10
/* The output times 400 / (QA x QB) is centipawns. */
#define OUTPUT_SCALE 400

/* Where view's features start: its king's bucket's block (block 0 without buckets or king). */
static inline int king_block(const NnueNet *net, int view, Cell king)
{
    if (king == NO_CELL)
        return 0;
    return net->bucket[view ? net->mirror[king] : king] * 2 * net->types * net->cells;
}

/* The feature of a piece (cell NO_CELL: one in hand) seen from `view`, whose block is `block`. */
static inline int feature(const NnueNet *net, int view, int block, uint8_t code, Cell cell)
{
    int theirs = (code >> 4) != view;
    int kind = theirs * net->types + PIECE_TYPE(code) - 1;
    if (cell == NO_CELL)
        return net->buckets * 2 * net->types * net->cells + kind;
    return block + kind * net->cells + (view ? net->mirror[cell] : cell);
}

static inline const int16_t *row(const NnueNet *net, int f)
{
    return net->ft_weight + (size_t)f * (size_t)net->hidden;
}

void nnue_refresh(const NnueNet *net, const Position *pos, NnueFrame *f)
{
    int cells = pos->v->geo->ncells;
    for (int view = 0; view < 2; view++) {
        int16_t *acc = f->v[view];
        int block = king_block(net, view, pos->royal[view]);
        f->king[view] = pos->royal[view];
        memcpy(acc, net->ft_bias, sizeof(int16_t) * (size_t)net->hidden);
        for (int c = 0; c < cells; c++)
            if (pos->board[c])
                nnue_add_row(acc, row(net, feature(net, view, block, pos->board[c], (Cell)c)), net->hidden);
        for (int side = 0; side < 2 && net->hand; side++)
            for (int t = 1; t <= net->types; t++)
                for (int k = 0; k < pos->hand[side][t]; k++)
                    nnue_add_row(acc, row(net, feature(net, view, block, MAKE_PIECE(side, t), NO_CELL)), net->hidden);
    }
    f->computed = true;
}

/* The frame's sums from its parent's (computed) and its changes; its kings in the parent's
 * buckets (ready() sees to that). */
static void update(const NnueNet *net, const NnueFrame *parent, NnueFrame *f)
{
    for (int view = 0; view < 2; view++) {
        int16_t *acc = f->v[view];
        int block = king_block(net, view, f->king[view]);
        memcpy(acc, parent->v[view], sizeof(int16_t) * (size_t)net->hidden);
        for (int i = 0; i < f->nchanges; i++) {
            const NnueChange *c = &f->changes[i];
            const int16_t *r = row(net, feature(net, view, block, c->code, c->cell));
            if (c->sign > 0)
                nnue_add_row(acc, r, net->hidden);
            else
                nnue_sub_row(acc, r, net->hidden);
        }
    }
    f->computed = true;
}

NnueStack *nnue_stack_new(int max_ply)
{
    size_t size = sizeof(NnueStack) + sizeof(NnueFrame) * (size_t)(max_ply + 1);
    NnueStack *s = aligned_alloc(64, (size + 63) / 64 * 64);
    if (s) {
        memset(s, 0, size);
        nnue_stack_reset(s);
    }
    return s;
}

void nnue_before(NnueMoveNote *note, const Position *pos, Move m)
{
    note->ncells = pos_move_cells(pos, m, note->cells);
    for (int i = 0; i < note->ncells; i++)
        note->before[i] = pos->board[note->cells[i]];
    note->placed = MOVE_KIND(m) == MK_PLACE ? MAKE_PIECE(pos->side, MOVE_PIECE(m)) : 0;
}

void nnue_push(NnueStack *s, const NnueMoveNote *note, const Position *pos)
{
    NnueFrame *f = &s->frames[++s->top];
    int n = 0;
    for (int i = 0; i < note->ncells; i++) {
        Cell c = note->cells[i];
        uint8_t was = note->before[i], now = pos->board[c];
        if (was == now)
            continue;
        if (was)
            f->changes[n++] = (NnueChange){was, c, -1};
        if (now)
            f->changes[n++] = (NnueChange){now, c, +1};
    }
    if (note->placed)
        f->changes[n++] = (NnueChange){note->placed, NO_CELL, -1};
    f->nchanges = n;
    f->king[0] = pos->royal[0];
    f->king[1] = pos->royal[1];
    f->computed = false;
}

/* Did a king change buckets from frame `before` to the next, `after`? */
static bool bucket_changed(const NnueNet *net, const NnueFrame *before, const NnueFrame *after)
{
    for (int view = 0; view < 2; view++)
        if (king_block(net, view, before->king[view]) != king_block(net, view, after->king[view]))
            return true;
    return false;
}

/* Makes the top frame's sums ready: from the nearest computed frame below it, move by move,
 * unless that is further than a refresh of the top costs or a king changed buckets on the way. */
static const NnueFrame *ready(const NnueNet *net, NnueStack *s, const Position *pos)
{
    int top = s->top, i = top, rows = 0;
    bool moved_bucket = false;
    while (i > 0 && !s->frames[i].computed) {
        rows += s->frames[i].nchanges;
        moved_bucket |= net->buckets > 1 && bucket_changed(net, &s->frames[i - 1], &s->frames[i]);
        i--;
    }
    if (!s->frames[i].computed || moved_bucket || rows > pos->pcount[0] + pos->pcount[1] + 2) {
        nnue_refresh(net, pos, &s->frames[top]);
        return &s->frames[top];
    }
    for (i++; i <= top; i++)
        update(net, &s->frames[i - 1], &s->frames[i]);
    return &s->frames[top];
}

static inline int clip(int x)
{
    return x < 0 ? 0 : x > QA ? QA : x;
}

/* An accumulator's activation: clip((a + 4) >> 3).  Clamped first to where the clip decides
 * anyway, the sum stays in 16 bits, and the loop runs in 16-bit lanes (8 a step, not 4). */
static inline int16_t activation(int16_t a)
{
    enum { LOW = -(1 << FT_SHIFT), HIGH = (QA + 1) << FT_SHIFT };
    int16_t v = a < LOW ? LOW : a > HIGH ? HIGH : a;
    return (int16_t)clip((int16_t)(v + (1 << FT_SHIFT >> 1)) >> FT_SHIFT);
}

/* The layers above the accumulators: `us` is the side to move's view. */
static int forward(const NnueNet *net, const int16_t *us, const int16_t *them)
{
    _Alignas(64) int16_t x[2 * NNUE_MAX_HIDDEN];
    int h = net->hidden;
    for (int i = 0; i < h; i++) {
        x[i] = activation(us[i]);
        x[h + i] = activation(them[i]);
    }
    int32_t sums[NNUE_L1];
    memcpy(sums, net->l1_bias, sizeof sums);
    nnue_layer(x, net->l1_pairs, h, sums);
    int out = net->l2_bias;
    for (int o = 0; o < NNUE_L1; o++)
        out += clip((sums[o] + (1 << QB_SHIFT >> 1)) >> QB_SHIFT) * net->l2_weight[o];
    return (int)((int64_t)out * OUTPUT_SCALE / (QA << QB_SHIFT));
}

int nnue_evaluate(const NnueNet *net, NnueStack *s, const Position *pos)
{
    const NnueFrame *f = ready(net, s, pos);
    return forward(net, f->v[pos->side], f->v[pos->side ^ 1]);
}

int nnue_evaluate_position(const NnueNet *net, const Position *pos)
{
    NnueFrame f;
    nnue_refresh(net, pos, &f);
    return forward(net, f.v[pos->side], f.v[pos->side ^ 1]);
}
