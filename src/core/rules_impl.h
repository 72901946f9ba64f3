/*
 * The rules on cell sets of SET_W words: attack tests, the royal piece's lines (checks and
 * pins), move generation and mobility.  Written once, instantiated once per width: rules_w1.c
 * (SET_W 1: chess, Starvation, square-says, Starchess) and rules_w3.c (SET_W 3: Megastar),
 * each of which defines SET_W and RULES_OPS (the name of its RulesOps) and includes this file;
 * rules_w1_pext.c instantiates SET_W 1 once more with BMI2, for the CPUs that have it fast.
 *
 * Legal generation decides most moves by masks, without making them.  From the royal piece's
 * cell, the attack tables' reverse sets and lines give the checkers, the cells that answer
 * every check (the line to a slider or rose, a leaper's own cell), and the pinned pieces with
 * the line each must stay on; a royal move is legal when its target is not attacked with the
 * royal lifted off the board; a placement, unless it leaves a check unanswered or puts the
 * royal on an attacked cell.  What no mask decides is made and tested: en passant, castling,
 * placements where there are hoppers, a royal double step (en passant may answer it), moves
 * on a hopper's line to the royal (a hop needs exactly one screen, so a piece arriving or
 * leaving can open it) and every move while a hopper gives check; and for the removal event,
 * a removed piece empties its from and to cells, which can expose the royal only when one of
 * them is one of the (at most two) pieces between the royal and an enemy slider.  rules_stats
 * counts how often.
 *
 * In parts, included below in order: rules_impl_attacks.h (look-ups, attack tests, the royal
 * piece's lines), rules_impl_pieces.h (the generator's state, each kind of piece's moves) and
 * rules_impl_generate.h (placements, castling, generation, mobility); they are not headers of
 * their own, only pieces of this one.
 */
#include <assert.h>
#include <string.h>

/* One-word boards built with BMI2 (rules_w1_pext.c, or a build for a CPU level that has it)
 * read a slider's attacks from the PEXT tables in one look-up. */
#if SET_W == 1 && defined(__BMI2__)
#define SLIDE_BY_PEXT 1
#include <immintrin.h>
#else
#define SLIDE_BY_PEXT 0
#endif

#include "movegen.h"
#include "rules.h"
#include "setw.h"

#define PINS_MAX MAX_PIECES
/* Up to this many cells a royal piece may step to are tested for attacks one by one; more
 * are looked up in every cell the opponent attacks (attacks_of). */
#define DANGER_QUESTIONS 1
/* Inlined whatever gcc judges: generate() grows past its inlining limits, and these called out
 * of line cost perft 3-4% more instructions (callgrind). */
#define ALWAYS_INLINE static inline __attribute__((always_inline))

#include "rules_impl_attacks.h"
#include "rules_impl_pieces.h"
#include "rules_impl_generate.h"

const RulesOps RULES_OPS = {attacked, attackers, mover_safe, legal_by_making, make_if_legal, pseudo, legal, piece_moves,
                            next_to_pawns, SLIDE_BY_PEXT};
