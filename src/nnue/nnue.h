/*
 * The learned evaluation (NNUE): a network per variant whose first layer, the feature
 * transformer, is kept as two accumulators (one per side's view) that follow the search's
 * moves by adding and removing the rows of the pieces a move changes, so that a node costs a
 * few rows and the small layers above them instead of the whole board.  The trainer and the
 * file's layout are in docs/nnue.md (tools/nnue_train.py writes the nets).
 *
 * Features, from view p (0 White, 1 Black): a piece of type t (1..types) on cell c is
 * b x 2 x types x cells + ((theirs * types + t - 1) * cells + (p ? mirror[c] : c)), theirs = the
 * piece is not p's, b = the bucket of p's king's cell (seen from p, through the mirror; 0
 * without king buckets or without a king on the board); where pieces wait in hand, feature
 * buckets x 2 x types x cells + (theirs * types + t - 1) carries their count.  A move that takes
 * a king into another bucket changes every feature of its view: that view is computed afresh.
 * Arithmetic as the trainer's quantisation: the accumulators in int16 (x 127 x 8), the layer of
 * 32 in int32 over int16 weights (x 1024), each activation clipped to [0, 127].
 *
 * Nets come from data/nets/ compiled into the program (one per variant; none yet for a variant
 * means the hand-written evaluation plays it) or from a file (nnue_load_file, UCI's EvalFile),
 * which replaces its variant's net for the rest of the process.
 */
#ifndef STARFISH_NNUE_H
#define STARFISH_NNUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/position.h"
#include "../util/options.h"

#define NNUE_MAX_HIDDEN 512
#define NNUE_L1 32
#define NNUE_MAX_BUCKETS 64
/* A move changes at most 4 cells (castling) and one count in hand: 9 rows a view. */
#define NNUE_MAX_CHANGES 10

typedef struct NnueNet {
    char variant[25];
    char name[64]; /* the file's name (a built-in net's is VARIANT.nnue) */
    size_t bytes;  /* the file's size */
    int cells, types, hand, features, hidden;
    int buckets;                /* king buckets (1: none) */
    uint8_t mirror[MAX_CELLS];
    uint8_t bucket[MAX_CELLS];  /* the bucket of a king on each cell, seen from its side */
    int16_t *ft_weight; /* [features][hidden] */
    int16_t *ft_bias;   /* [hidden] */
    int16_t *l1_pairs;  /* the layer's weights: [hidden][NNUE_L1][2], input 2i's and 2i+1's
                         * weights of each output side by side (the file's are [NNUE_L1][2 x hidden]) */
    int32_t l1_bias[NNUE_L1];
    int16_t l2_weight[NNUE_L1];
    int32_t l2_bias;
    const struct NnueNet *older; /* the net loaded before it: every loaded net is kept, a search
                                  * may still read one that was replaced */
} NnueNet;

/* A piece that came (+1) or went (-1); cell NO_CELL: one piece of the code in hand. */
typedef struct NnueChange {
    uint8_t code;
    Cell cell;
    int8_t sign;
} NnueChange;

/* The accumulators of one position on the search's path, and how it differs from the one
 * before it (filled in lazily: `computed` tells whether v holds this position's sums). */
typedef struct NnueFrame {
    _Alignas(64) int16_t v[2][NNUE_MAX_HIDDEN];
    bool computed;
    Cell king[2]; /* each side's king (pos->royal) in this position */
    int nchanges;
    NnueChange changes[NNUE_MAX_CHANGES];
} NnueFrame;

/* The frames of a search path: frames[0] is the root, frames[top] the position searched. */
typedef struct NnueStack {
    int top;
    NnueFrame frames[];
} NnueStack;

/* What a move will change, read before it is made (nnue_before) and finished after. */
typedef struct NnueMoveNote {
    int ncells;
    Cell cells[4];
    uint8_t before[4];
    uint8_t placed; /* the code a placement takes from the hand, else 0 */
} NnueMoveNote;

/* ---- Nets (nnue_net.c) ------------------------------------------------------------------- */

/* The net variant v is evaluated with: a file loaded for it, else the built-in one, else that
 * of the variant its data name (VariantDef.net_from), else NULL. */
const NnueNet *nnue_net_for(const Variant *v);
/* Reads a net from memory, checking everything the arithmetic relies on; NULL with the reason
 * in why. */
NnueNet *nnue_parse(const uint8_t *data, size_t size, const char *name, char *why, size_t why_len);
void nnue_free(NnueNet *net);
/* Loads a net file and makes it its variant's net from now on (the variant the file names,
 * which may not be the one being played); NULL (the old net kept) with the reason in why. */
const NnueNet *nnue_load_file(const char *path, char *why, size_t why_len);
/* Variant v plays with its built-in net again (or none). */
void nnue_use_builtin(const Variant *v);
/* For a command's options (OPT_CALL): loads the net file values[0] as nnue_load_file does. */
bool nnue_option_load(void *target, char **values, char *err, size_t err_len);
/* The two options of every command that searches (bench, gensfen, ...): --no-nnue sets the
 * bool *no_nnue, --evalfile loads a net. */
#define NNUE_COMMAND_OPTIONS(no_nnue)                                                                  \
    OPTION_FLAG("no-nnue", "the hand-written evaluation in every variant, nets or not (Use NNUE false)", \
                no_nnue),                                                                              \
    OPTION_CALL("evalfile", "FILE",                                                                    \
                "evaluate FILE's variant with this net instead of its built-in one (UCI's\n"           \
                "EvalFile); once per variant",                                                         \
                NULL, 0, nnue_option_load)

/* ---- Evaluation (nnue_eval.c) ------------------------------------------------------------ */

/* A stack for paths of up to max_ply moves; NULL when memory runs out. */
NnueStack *nnue_stack_new(int max_ply);
/* A new root: its accumulators are computed when first needed. */
static inline void nnue_stack_reset(NnueStack *s)
{
    s->top = 0;
    s->frames[0].computed = false;
}
void nnue_before(NnueMoveNote *note, const Position *pos, Move m);
/* After the move of `note` was made: a frame for the new position. */
void nnue_push(NnueStack *s, const NnueMoveNote *note, const Position *pos);
static inline void nnue_pop(NnueStack *s)
{
    s->top--;
}
/* The net's score in centipawns for the side to move of pos, the top frame's position. */
int nnue_evaluate(const NnueNet *net, NnueStack *s, const Position *pos);
/* The same, computed from scratch (no stack: a single position, as UCI's `eval` asks). */
int nnue_evaluate_position(const NnueNet *net, const Position *pos);
/* The accumulators of pos computed from scratch (the tests compare them with the updates). */
void nnue_refresh(const NnueNet *net, const Position *pos, NnueFrame *f);

#endif
