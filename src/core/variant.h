/*
 * Variant definitions and the tables built from them.
 *
 * A variant file fills in a VariantDef: mostly data (geometry, movement patterns, pieces,
 * start position, promotion, castling) plus a few optional hooks for what a table cannot
 * say.  variant_build() turns it into a Variant: per piece and cell "move programs" (the
 * cells each movement kind can reach, precomputed), reverse "attack programs" for check
 * detection, promotion and placement zones, and castling tables.  The rules core reads only
 * these tables and hooks; it knows no game by name.
 */
#ifndef STARFISH_VARIANT_H
#define STARFISH_VARIANT_H

#include "types.h"

struct Position;
struct Undo;

/* A perfect-play verdict from endgame tables, for the side to move. */
typedef struct EndgameVerdict {
    int wdl;   /* +1 win, 0 draw, -1 loss */
    int dtm;   /* plies to mate (0: checkmated now); 0 for a draw */
    int dtz;   /* plies to the next capture, pawn move or mate under best play; 0 for a draw */
    bool dead; /* a draw from which no sequence of legal moves reaches checkmate */
} EndgameVerdict;

/* The generic movement kinds every piece of every game is made of. */
typedef enum {
    PAT_STEP,  /* leaps to each vector's cell, cannot be blocked (king steps, knight leaps) */
    PAT_SLIDE, /* slides along each direction through empty cells, max_len cells at most */
    PAT_PAWN,  /* vec[0] forward (quiet; a double step from its side's start cells);
                  capture[] capture-only steps, which also take en passant */
    PAT_HOP,   /* along each direction: quiet moves to empty cells up to the first piece (the
                  screen); captures the first piece beyond the screen */
    PAT_ROSE,  /* crooked paths: the first step along any vec, each later step along the next
                  vec in their cyclic order, always turning the same way; max_len steps */
} PatternKind;

#define MAX_VECS 24

typedef struct Pattern {
    PatternKind kind;
    Vec vec[MAX_VECS];
    int nvec;
    Vec capture[4]; /* PAT_PAWN only */
    int ncapture;
    int max_len;    /* PAT_SLIDE / PAT_ROSE: 0 means unlimited */
    bool quiet_only, capture_only;
    /* Optional: may a single step or leap by v (already mirrored for Black) start at cell c? */
    bool (*allow)(const Geometry *g, Cell c, Vec v);
} Pattern;

typedef struct PieceDef {
    char letter; /* upper case */
    const char *name;
    uint32_t patterns; /* bit i: the variant's pattern i */
    bool royal;        /* must not be left capturable */
    bool pawn;         /* promotes, double steps, resets the 50-move counter */
    int value;         /* centipawns, for evaluation and material counts */
} PieceDef;

typedef struct CastleDef {
    int colour;
    const char *king_from, *king_to, *rook_from, *rook_to;
    char fen_letter; /* K Q k q */
    const char *san; /* "O-O" or "O-O-O" */
} CastleDef;

/* Results and reasons of a finished game. */
typedef enum { RESULT_NONE, RESULT_WHITE_WINS, RESULT_BLACK_WINS, RESULT_DRAW } ResultKind;

typedef struct GameResult {
    ResultKind kind;
    const char *reason; /* "checkmate", "stalemate", "repetition", "fifty-move", ... */
} GameResult;

typedef struct VariantDef {
    const char *name;
    const char *description;
    const Geometry *(*geometry)(void);
    const Pattern *patterns;
    int npatterns;
    const PieceDef *pieces; /* type t is pieces[t - 1] */
    int npieces;
    const char *start_fen;
    const char *promotion_letters;    /* e.g. "QRBN"; empty: no promotion */
    const char *promotion_cells[2];   /* space-separated cell names, per colour */
    const char *placement_cells[2];   /* where pieces in hand may be placed */
    /* Where a piece may double step; default: the cells its side's pawns start on. */
    const char *double_step_cells[2];
    const CastleDef *castling;
    int ncastling;
    /* Position-text fields beyond BOARD SIDE HALFMOVE FULLMOVE. */
    bool fen_castling, fen_ep, fen_hand;
    /* A double step gives no en-passant chance (official Starchess). */
    bool no_en_passant;
    /* A pawn that moves onto one of its side's start cells may no longer double step. */
    bool limping;
    /* Coordinate notation writes castling as the king moving onto its rook. */
    bool castle_king_takes_rook;
    /* Game records: SAN (Nf3) or long algebraic (Ng1-f3, the royal prefixed with K). */
    enum { SAN_SHORT, SAN_LONG } san_style;
    /* No draw by repetition (Ludii's Starchess). */
    bool no_repetition;
    /* Game records mark a move whose moved piece was removed with this suffix (or 0). */
    char removal_mark;

    /* Hooks, all optional. */
    /* Patterns of a piece of `type` and colour on cell c (default: the piece's own). */
    uint32_t (*patterns_at)(const struct VariantDef *def, const Geometry *g, int type, int colour, Cell c);
    /* Does the piece a move moves stay on the board after it?  Judged on the board before the
     * move (the mover on its from cell, a captured piece on its to cell), so that move
     * generation can ask without making the move. */
    bool (*moved_piece_survives)(const struct Position *before, Move m);
    /* The result when the side to move has no legal move and is not in check. */
    GameResult (*stalemate)(const struct Position *pos);
    /* Turns an orthodox drawn outcome (reason given) into this variant's result. */
    GameResult (*decide_draw)(const struct Position *pos, const char *reason);
    /* True when neither side can ever mate (a dead position). NULL: never. */
    bool (*insufficient_material)(const struct Position *pos);
    /* True when this material is exempt from the 50-move rule (a proven longer win). */
    bool (*fifty_move_exception)(const struct Position *pos);
    /* The engine: the perfect-play verdict from endgame tables; false when the position is
     * not covered.  Without `wait` only what is in memory already (a search under a clock
     * must not stop to read a file). */
    bool (*probe_endgame)(const struct Position *pos, bool wait, EndgameVerdict *out);
    /* The engine: an evaluation term of the variant's own, in centipawns for White. */
    int (*eval_bonus)(const struct Position *pos);
    /* The engine: zugzwang is common here, so null-move pruning would be unsound. */
    bool zugzwang_prone;
    /* A letter shown on each cell of the board (square-says's marks), or NULL. */
    char (*cell_mark)(const Geometry *g, Cell c);
} VariantDef;

/* Move-program entry kinds; an entry is [header, count, cells...], a header 0 ends a list. */
enum { E_END, E_LEAPS, E_RAY, E_PUSH, E_PAWN_CAPTURE, E_HOP, E_ROSE };
#define E_KIND_MASK 7
#define E_QUIET 8
#define E_CAPTURE 16

/*
 * Attack-program entries: one [A_LEAPS, count, (cell, mask low, mask high) x count] for all
 * single steps and leaps, then rays [A_RAY or A_HOP, mask low, mask high, count, cells...],
 * then A_END.  A mask holds the pattern bits a piece on the cell needs to capture on the
 * program's cell.
 */
enum { A_END, A_LEAPS, A_RAY, A_HOP };

typedef struct Variant {
    const VariantDef *def;
    const Geometry *geo;
    int ntypes;
    bool has_royal;
    int pawn_type;  /* the type that promotes, or 0 */
    int royal_type; /* the royal type, or 0 */
    /* Letters: piece code -> character (upper White, lower Black), and back. */
    char letter[MAX_CODES];
    uint8_t code_of_letter[128];
    /* Move programs: prog + prog_at[code][cell]; attack programs: atk + atk_at[side][cell]. */
    uint8_t *prog;
    uint32_t prog_at[MAX_CODES][MAX_CELLS];
    uint8_t *atk;
    uint32_t atk_at[2][MAX_CELLS];
    /* Which patterns (bit mask) a piece code has on a cell: the attack programs check it. */
    uint16_t pattern_mask[MAX_CODES][MAX_CELLS];
    /* side_mask[side][code][cell]: pattern_mask for that side's pieces, 0 otherwise (and for
     * an empty cell), so that attack tests need one lookup per cell. */
    uint16_t side_mask[2][MAX_CODES][MAX_CELLS];
    bool needs_dedup[MAX_CODES]; /* rose pieces: several paths may reach one cell */
    uint16_t pawn_capture_bits;  /* the pattern bits of pawn patterns (en-passant attacks) */
    bool is_pawn[MAX_CODES], is_royal[MAX_CODES];
    /* Zones, per colour. */
    bool promotion_zone[2][MAX_CELLS];
    bool placement_zone[2][MAX_CELLS];
    bool start_cell[2][MAX_CELLS]; /* double steps start here (by default: pawns' start cells) */
    Vec forward[2];                /* a pawn's forward step, per colour */
    bool pawn_can_stand[2][MAX_CELLS];
    uint8_t promotion_types[MAX_TYPES];
    int npromotion_types;
    /* Castling, precomputed. */
    int ncastling;
    struct {
        int colour;
        Cell king_from, king_to, rook_from, rook_to;
        uint8_t partner; /* the piece code that stands on rook_from at the start */
        Cell empty[MAX_CELLS / 8];
        int nempty;
        Cell safe[MAX_CELLS / 8];
        int nsafe;
    } castle[4];
    uint8_t castle_keep[MAX_CELLS]; /* castling rights kept when a move touches the cell */
    /* Legality can be judged from pins and screens (no hopping attackers). */
    bool simple_legality;
} Variant;

/* Builds (once) and returns the variant for a definition; NULL with a message on a defect. */
const Variant *variant_build(const VariantDef *def);
/* The piece type with that upper-case letter, or 0. */
int variant_type_of_letter(const Variant *v, char upper);

/* The registry of implemented variants (variants/registry.c). */
const Variant *variant_by_name(const char *name);
int variant_count(void);
const Variant *variant_at(int i);

#endif
