/*
 * The rules code of one cell-set width (rules_impl.h, instantiated by rules_w1.c for boards
 * of up to 64 cells and by rules_w3.c for Megastar), reached through Variant.ops.  The public
 * interface is movegen.h; this is the seam between it and the instantiations.
 */
#ifndef STARFISH_RULES_H
#define STARFISH_RULES_H

#include "movegen.h"

typedef struct RulesOps {
    /* Is x attacked by side `by`, counting only attackers using the given pattern bits? */
    bool (*attacked)(const Position *pos, Cell x, int by, unsigned patterns);
    /* The pieces of side `by` attacking x when only the cells of *occ hold pieces. */
    CellSet (*attackers)(const Position *pos, Cell x, int by, const CellSet *occ);
    /* After a move: is the mover's royal piece on the board and safe? */
    bool (*mover_safe)(const Position *pos);
    /* Makes the move, asks mover_safe, unmakes it. */
    bool (*move_is_legal)(Position *pos, Move m);
    /* Makes a pseudo-legal move if it is legal (pos_make_if_legal). */
    bool (*make_if_legal)(Position *pos, Move m, Undo *u, bool in_check);
    /* Pseudo-legal moves; with captures_only, captures and promotions alone. */
    int (*pseudo)(const Position *pos, Move *out, bool captures_only);
    /* Legal moves; with out NULL, only counted (perft's last ply). */
    int (*legal)(Position *pos, Move *out);
    /* pos_piece_moves: the moves of a set of one side's pieces, counted. */
    PieceMoves (*piece_moves)(const Position *pos, const CellSet *pieces, const CellSet *zone,
                              const uint32_t threat_types[MAX_TYPES]);
    /* The cells next to a pawn of either side. */
    CellSet (*next_to_pawns)(const Position *pos);
    /* Slider attacks come from the PEXT tables (attack.c builds them for one-word boards). */
    bool pext;
} RulesOps;

/* rules_ops_w1_pext: the one-word rules compiled with BMI2, run only where rules_ops_for
 * finds the CPU has it. */
extern const RulesOps rules_ops_w1, rules_ops_w1_pext, rules_ops_w3;

/* The rules for sets of `words` words on this CPU: on one-word boards the PEXT instantiation
 * where the CPU has BMI2 and runs PEXT fast (not AMD's Zen 1 and 2, family 17h, where it is
 * microcode and slower than the first-blocker way); the environment's STARFISH_PEXT=0 turns
 * it off.  Chosen once, at the first call. */
const RulesOps *rules_ops_for(int words);
/* How this program finds a slider's attacks on one-word boards, for `starfish version`. */
const char *rules_slider_method(void);


#endif
