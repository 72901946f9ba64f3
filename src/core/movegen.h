/*
 * Moves and attacks: the rules core's answers to "what may be played here?" and "is this cell
 * attacked?", on the variant's attack tables (rules_impl.h does the work, at the width of the
 * variant's cell sets).
 */
#ifndef STARFISH_MOVEGEN_H
#define STARFISH_MOVEGEN_H

#include "position.h"

/* Moves that follow the pieces' movement, ignoring whether the mover's royal stays safe. */
int gen_pseudo(const Position *pos, Move *out);
/* The pseudo-legal captures (en passant included) and promotions alone, in the order
 * gen_pseudo lists them (for quiescence and staged move picking); none during a setup phase. */
int gen_captures(const Position *pos, Move *out);
/* Legal moves (the rules core's one answer to "what may be played here?"). */
int gen_legal(Position *pos, Move *out);
/* The number of legal moves, counted without listing them (perft's last ply). */
int count_legal_moves(Position *pos);
/* Is a pseudo-legal move legal? */
bool move_is_legal(Position *pos, Move m);
/* Makes a pseudo-legal move (pos_make) if it is legal and returns true; else returns false
 * with the position unchanged.  in_check must say whether the side to move is in check now
 * (pos_in_check; a search knows it already): with it, check and pin masks decide most moves
 * without an attack test after making them, and an illegal royal move is never made. */
bool pos_make_if_legal(Position *pos, Move m, Undo *u, bool in_check);

/* How legal generation decided (per thread): the moves it returned, and the candidates it
 * made and tested because no mask decided them (`starfish bench perft` prints the share). */
typedef struct RulesStats {
    uint64_t legal, tested;
} RulesStats;
extern _Thread_local RulesStats rules_stats;

/* Is cell x attacked by a piece of side `by` (an orthodox capture, ignoring removal)? */
bool pos_attacked(const Position *pos, Cell x, int by);
/* The same, counting only attackers using the given pattern bits. */
bool pos_attacked_by(const Position *pos, Cell x, int by, unsigned patterns);
/* The pieces of side `by` attacking x (orthodox captures) when only the cells of *occ hold
 * pieces: pieces the caller has taken off the board (as exchange evaluation does with its
 * capturers) are left out of *occ, which uncovers the pieces behind them (on lines, behind a
 * hopper's screen, along rose paths).  The cell x itself may stay in *occ. */
CellSet pos_attackers(const Position *pos, Cell x, int by, const CellSet *occ);
bool pos_in_check(const Position *pos);
/* Would a pseudo-legal move put the opponent in check?  Made and unmade to see: for the few
 * moves a search asks about before making them. */
bool pos_gives_check(Position *pos, Move m);
/* After pos_make: did the move leave the mover's royal piece safe (and on the board)? */
bool pos_mover_safe(const Position *pos);
/* True when the side to move has a legal en-passant capture (repetition keys need it). */
bool pos_has_legal_ep(Position *pos);
/* The key that repetition compares: pos->key plus the en-passant cell when it matters. */
uint64_t pos_repetition_key(Position *pos);
/* What pos_piece_moves counts of a side's pieces' moves. */
typedef struct PieceMoves {
    int moves;      /* pattern by pattern: a cell two of a piece's patterns reach counts twice */
    int zone_hits;  /* those of them into the zone */
    int threatened; /* per type t, the enemy pieces of the types in threat_types[t] that some
                       piece of type t moves onto or captures, each counted once per type t */
} PieceMoves;
/*
 * The moves of the pieces in `pieces` (all of one side) as they stand: their pushes and
 * captures, castling, double steps and en passant left out; how many land in `zone` (when not
 * NULL); and, when threat_types is not NULL, the enemy pieces they threaten (bit u of
 * threat_types[t]: a piece of type t threatens the enemy pieces of type u).  The evaluation's
 * mobility, from the same attack sets as move generation, in one pass over the pieces.
 */
PieceMoves pos_piece_moves(const Position *pos, const CellSet *pieces, const CellSet *zone,
                           const uint32_t threat_types[MAX_TYPES]);
/* The cells next to a pawn of either side (one step away in any direction). */
CellSet pos_cells_next_to_pawns(const Position *pos);

#endif
