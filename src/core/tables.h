/*
 * The variant's data and the tables built from it.
 *
 * A variant file fills in a VariantDef: mostly data (geometry, movement patterns, pieces,
 * start position, promotion, castling) plus a few optional hooks for what a table cannot
 * say.  variant_build() (variant.h) turns it into a Variant: attack tables (for every pattern
 * and colour, the cells it reaches from each cell and, reversed, the cells from which it
 * captures on each cell, as cell sets; slider tables for lines; attack.c), which patterns each
 * piece has on each cell, promotion and placement zones, and castling tables.  The rules core
 * reads only these tables and hooks; it knows no game by name.
 */
#ifndef STARFISH_TABLES_H
#define STARFISH_TABLES_H

#include "cellset.h"
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

/*
 * What endgame tables prove about a variant's endings.  The tables are a layer above the
 * rules (src/tablebase): they install this at start-up (variant_install_tables in
 * variants/registry.h), and the variant's own hooks consult it through VariantDef.tables.
 */
typedef struct EndgameTables {
    /* The position is dead: no sequence of legal moves reaches checkmate. */
    bool (*dead)(const struct Position *pos);
    /* The material's longest forced win needs more than 100 plies without a zeroing move. */
    bool (*fifty_move_exception)(const struct Position *pos);
    /* The perfect-play verdict (the probe_endgame hook's contract below). */
    bool (*probe)(const struct Position *pos, bool wait, EndgameVerdict *out);
} EndgameTables;

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
    PAT_KINDS
} PatternKind;

#define MAX_VECS 24
#define MAX_PATTERNS 16

typedef struct Pattern {
    PatternKind kind;
    Vec vec[MAX_VECS];
    int nvec;
    Vec capture[4]; /* PAT_PAWN only */
    int ncapture;
    int max_len;    /* PAT_SLIDE / PAT_ROSE: 0 means unlimited */
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
/* RESULT_ABORTED: ended before both sides had moved, with no result (the server's abort). */
typedef enum { RESULT_NONE, RESULT_WHITE_WINS, RESULT_BLACK_WINS, RESULT_DRAW, RESULT_ABORTED } ResultKind;

typedef struct GameResult {
    ResultKind kind;
    const char *reason; /* "checkmate", "stalemate", "repetition", "fifty-move", ... */
} GameResult;

typedef struct VariantDef {
    const char *name;        /* the key: "chess", "starchess-ludii" */
    const char *title;       /* as players call it: "Chess", "Starchess (Ludii rules)" */
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
    /* Starvation's event after every move: the moved piece is removed from the board unless
     * it is a pawn, it captured a pawn, or it moved from or to a cell next to a pawn (of
     * either side, one step away in any direction of the board); in castling only the royal
     * piece is subject.  A move that removes the mover's royal piece is illegal. */
    bool removal_unless_near_pawn;
    /* Game records mark a move whose moved piece was removed with this suffix (or 0). */
    char removal_mark;

    /* Hooks, all optional. */
    /* Patterns of a piece of `type` and colour on cell c (default: the piece's own). */
    uint32_t (*patterns_at)(const struct VariantDef *def, const Geometry *g, int type, int colour, Cell c);
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
    /* The engine: zugzwang is common here, so null-move pruning would be unsound: none, or
     * with null_move_verified, only deep and verified by a search without it. */
    bool zugzwang_prone;
    bool null_move_verified;
    /* The engine: capture chains run long here (Megastar's Slings hop over crowds of pieces en
     * prise), so quiescence searches only the best few captures below its first plies and
     * stops after a few plies; elsewhere it searches every capture that does not lose
     * material, as deep as the captures go. */
    bool long_capture_chains;
    /* The engine: without a net of its own, the variant is evaluated with this variant's net
     * (the same board, pieces and hand; rules that differ a little), or NULL. */
    const char *net_from;
    /* A letter shown on each cell of the board (square-says's marks), or NULL. */
    char (*cell_mark)(const Geometry *g, Cell c);
    /* Installed from above at start-up (NULL: no tables); read by the hooks above. */
    const EndgameTables *tables;
} VariantDef;

/*
 * Attack tables, built at start-up from the geometry and the movement patterns (attack.c).
 * Sets of cells are stored as `words` 64-bit words each (1 for boards of up to 64 cells, 3 for
 * Megastar), so a table of sets is an array of words, entry i at words * i.
 *
 * A slider table serves every pattern that moves along the same directions on the same
 * board (the rook's lines in chess, Starvation and square-says alike).  Per direction and
 * cell it holds the ray (max_len cells at most) and the whole line beyond the cell; since
 * every board numbers its cells in an order in which each direction's cells grow or shrink
 * steadily, the first piece on a ray is its lowest or highest cell ("classical" bitboard
 * attacks).  On one-word boards with BMI2 there is also a table of every ray set's attacks,
 * indexed by the occupied cells gathered with PEXT.
 */
typedef struct SliderTable {
    const Geometry *geo;
    Vec vec[MAX_VECS];
    int nvec, max_len, words;
    uint64_t *ray;  /* [direction][cell]: the cells along it, max_len at most */
    uint64_t *line; /* [direction][cell]: every cell along it */
    bool grows[MAX_VECS]; /* cell numbers grow along the direction */
    uint64_t *reach;      /* [cell]: every direction's ray (the attacks on an empty board) */
    uint64_t *mask;       /* [cell]: PEXT tables (one-word boards): the cells that can block */
    uint32_t *offset;     /* [cell]: where the cell's attacks start in `attacks` */
    uint64_t *attacks;
} SliderTable;

#define MAX_ROSE_PATHS (2 * MAX_VECS)
#define MAX_ROSE_LEN 8

/* A rose pattern's crooked paths from each cell; a path walked backwards is a rose path
 * turning the other way, so the same paths, read from the attacked cell, find attackers. */
typedef struct RoseTable {
    int npaths;   /* per cell: 2 * nvec, some of them empty */
    uint8_t *len; /* [cell][path] */
    Cell *cells;  /* [cell][path][MAX_ROSE_LEN] */
    uint64_t *reach; /* [cell]: every cell of every path */
    uint64_t *path;  /* [cell][path]: the cells of one path */
} RoseTable;

/* What one pattern does for one colour. */
typedef struct PatternTable {
    uint64_t *to;   /* PAT_STEP: the leap targets from each cell; PAT_PAWN: the capture targets */
    uint64_t *from; /* the reverse: the cells from which the pattern captures on each cell */
    const SliderTable *slide; /* PAT_SLIDE, PAT_HOP: the pattern's directions */
    const SliderTable *back;  /* the reverse directions, from the attacked cell */
    RoseTable *rose;
    Cell *push, *push2; /* PAT_PAWN: the single and double step targets or NO_CELL */
    /* PAT_PAWN on a one-word board where each of its steps is one fixed change of cell number
     * (the 8x8 board): the steps as shifts, so that all pawns move at once.  Where only the
     * push is (the hexagram, whose columns differ in length), the pushes and double steps are
     * counted that way (perft's last ply) and the captures pawn by pawn. */
    struct {
        bool usable;        /* every step */
        bool push_usable;   /* the push */
        int push;           /* the change of cell number of a push */
        CellSet push_from;  /* cells with a push */
        CellSet push2_via;  /* the cells double steps pass */
        int capture[4], ncapture;
        CellSet capture_from[4];
    } shift;
} PatternTable;

/* A pattern's targets from each cell on an empty board: the leaps of a step, the captures of a
 * pawn (not its pushes), the whole rays of a slider or hopper (hops have no max_len), every
 * path of a rose. */
static inline const uint64_t *pattern_reach(const PatternTable *t)
{
    return t->to ? t->to : t->slide ? t->slide->reach : t->rose->reach;
}

/* Width-specific rules code (rules_impl.h, one instantiation per set width). */
struct RulesOps;

typedef struct Variant {
    const VariantDef *def;
    const Geometry *geo;
    int words; /* 64-bit words per cell set on this board */
    const struct RulesOps *ops;
    int ntypes;
    bool has_royal;
    int pawn_type;  /* the type that promotes, or 0 */
    int royal_type; /* the royal type, or 0 */
    /* Letters: piece code -> character (upper White, lower Black), and back. */
    char letter[MAX_CODES];
    uint8_t code_of_letter[128];
    /* Which patterns (bit mask) a piece code has on a cell. */
    uint16_t pattern_mask[MAX_CODES][MAX_CELLS];
    uint16_t kind_patterns[PAT_KINDS]; /* the variant's patterns of each kind */
    /* Types whose moves are generated piece by piece, not pattern by pattern: those whose
     * patterns may reach one cell twice, and pawns with patterns other than pawn moves. */
    uint16_t types_apart;
    PatternTable pat[MAX_PATTERNS][2];
    uint64_t *leaps;    /* [code][cell]: the targets of all the code's PAT_STEP patterns there */
    uint64_t *adjacent; /* [cell]: the cells one step away in any direction */
    struct {            /* one-word boards where each direction is a fixed change of cell number */
        bool usable;
        int by[MAX_DIRS];
        CellSet from[MAX_DIRS]; /* cells with a neighbour in that direction */
    } adjacent_shift;
    CellSet all;        /* every cell of the board */
    bool is_pawn[MAX_CODES], is_royal[MAX_CODES];
    /* Zones, per colour. */
    bool promotion_zone[2][MAX_CELLS];
    CellSet promotion_set[2]; /* the same cells, empty when there are no promotion pieces */
    bool placement_zone[2][MAX_CELLS];
    CellSet placement_set[2]; /* the same cells */
    bool start_cell[2][MAX_CELLS]; /* double steps start here (by default: pawns' start cells) */
    Cell passed[2][MAX_CELLS];     /* the cell a double step from a start cell passes */
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
        CellSet empty;   /* cells that must be empty */
        Cell safe[MAX_CELLS / 8]; /* cells the king passes or lands on: none may be attacked */
        int nsafe;
        bool proven; /* with those cells safe, legal without making and testing */
    } castle[4];
    uint8_t castle_rights[2];       /* per colour: the bits of its castlings */
    uint8_t castle_keep[MAX_CELLS]; /* castling rights kept when a move touches the cell */
} Variant;

#endif
