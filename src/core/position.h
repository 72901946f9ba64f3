/*
 * The position: a mailbox of piece codes and, beside it, sets of cells (each side's pieces,
 * each type's, and each side's pieces by the patterns they move by where they stand), the side
 * to move, castling rights, the en-passant cell, pieces in hand, limping pawns, counters, a
 * Zobrist key and (when a score table is attached) score sums, all kept up to date by
 * make/unmake.  Moves and attacks are in movegen.h.
 */
#ifndef STARFISH_POSITION_H
#define STARFISH_POSITION_H

#include "tables.h"

#define MAX_PIECES 64

/*
 * Numbers a position adds up over its pieces, per piece code and cell: the engine's material
 * and piece-square scores (middlegame, endgame) and game phase.  With a table attached
 * (pos_attach_scores), make and unmake keep pos->scores up to date.
 */
typedef struct PieceScore {
    int16_t mg, eg, phase, unused;
} PieceScore;
typedef PieceScore ScoreTable[MAX_CODES][MAX_CELLS];
typedef struct ScoreSum {
    int32_t mg, eg, phase;
} ScoreSum;

typedef struct Position {
    const Variant *v;
    uint8_t board[MAX_CELLS]; /* the piece code on each cell, 0 when empty */
    CellSet by_side[2];
    CellSet by_type[MAX_TYPES]; /* both sides' pieces of each type */
    /* Each side's pieces that move by pattern i on the cell they stand on (square-says's men
     * change patterns with their cells): attack tests read these. */
    CellSet by_pattern[2][MAX_PATTERNS];
    uint8_t count[MAX_CODES]; /* pieces of each code on the board */
    uint8_t pcount[2];        /* pieces of each side on the board */
    Cell royal[2];            /* NO_CELL when the side has no royal piece on the board */
    uint8_t hand[2][MAX_TYPES];
    uint8_t hand_total[2];
    bool limping[MAX_CELLS];
    int side;
    uint8_t castling; /* bit i: castling i of the variant is still allowed */
    Cell ep;          /* the passed cell after a double step, or NO_CELL */
    Cell ep_victim;   /* the cell of the piece that double stepped */
    int halfmove, fullmove;
    uint64_t key; /* Zobrist key of everything but the en-passant cell */
    const ScoreTable *score_table; /* NULL: no score sums kept */
    ScoreSum scores;               /* over the board's pieces (White's minus Black's mg, eg) */
} Position;

/* What unmake needs to restore. */
typedef struct Undo {
    uint64_t key;
    ScoreSum scores;
    uint8_t captured;  /* piece code captured, 0 if none */
    Cell captured_cell;
    uint8_t removed;   /* piece code removed by the variant's event from the move's target */
    uint8_t castling;
    Cell ep, ep_victim;
    int halfmove;
    bool limp_from, limp_to;
} Undo;

/* Zobrist keys, shared by every variant. */
extern uint64_t zobrist_piece[MAX_CODES][MAX_CELLS];
extern uint64_t zobrist_ep[MAX_CELLS];
extern uint64_t zobrist_limp[MAX_CELLS];
extern uint64_t zobrist_castling[16];
extern uint64_t zobrist_hand[MAX_CODES][MAX_PIECES];
extern uint64_t zobrist_side;
void zobrist_init(void);

void pos_clear(Position *pos, const Variant *v);
void pos_put(Position *pos, uint8_t code, Cell c);
void pos_take(Position *pos, Cell c);
/* Recomputes the key from scratch (after setting up a position). */
uint64_t pos_compute_key(const Position *pos);
/* Keeps score sums from table t from now on (NULL: none). */
void pos_attach_scores(Position *pos, const ScoreTable *t);
/* The sums of table t over the position's pieces, computed from scratch. */
ScoreSum pos_score_sum(const Position *pos, const ScoreTable *t);

void pos_make(Position *pos, Move m, Undo *u);
void pos_unmake(Position *pos, Move m, const Undo *u);
/* The cells whose pieces move m (pseudo-legal in pos, not yet made) may change, at most 4 and
 * each once: its from and to cells, the en-passant victim's, castling's king and rook cells.
 * The variants' events (Starvation's removal) strike on these cells too. */
int pos_move_cells(const Position *pos, Move m, Cell out[4]);
/* Passes the move to the other side (the search's null move). */
void pos_make_null(Position *pos, Undo *u);
void pos_unmake_null(Position *pos, const Undo *u);
/* Consistency check, for debugging: the sets, counts, royal cells, key and score sums agree
 * with the mailbox.  make and unmake assert it in builds without NDEBUG. */
bool pos_is_ok(const Position *pos);

/* The piece type that a move moves (the placed piece for a placement). */
int pos_moved_type(const Position *pos, Move m);
static inline bool pos_is_capture(const Position *pos, Move m)
{
    MoveKind k = MOVE_KIND(m);
    return k == MK_EP || (k != MK_PLACE && k != MK_CASTLE && pos->board[MOVE_TO(m)] != 0);
}
/* Does the move promote?  (A placement's piece field is the placed type, no promotion.) */
static inline bool move_promotes(Move m)
{
    return MOVE_PIECE(m) && MOVE_KIND(m) != MK_PLACE;
}
/* A capture or a promotion: what gen_captures lists, and what quiescence searches. */
static inline bool pos_is_noisy(const Position *pos, Move m)
{
    return pos_is_capture(pos, m) || move_promotes(m);
}
/* Does the variant's removal event take the moved piece off the board after move m? */
bool pos_move_removes(const Position *pos, Move m);
/* Does a pawn of either side stand on a cell next to c (one step in any direction)? */
bool pos_next_to_pawn(const Position *pos, Cell c);
/* Nothing but one royal piece a side, on the board and in hand (king against king). */
bool pos_only_royals(const Position *pos);

#endif
