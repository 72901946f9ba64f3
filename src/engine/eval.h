/*
 * Evaluation, for every variant from its own data: material from the piece values,
 * piece-square terms generated from the geometry (how many cells a piece reaches from a cell
 * on an empty board, so centralisation and square-says's marks come out by themselves), pawn
 * advancement toward the promotion zone, royal shelter in the middlegame and activity in the
 * endgame (from the royal's reach, and from its remoteness: the moves it needs, on average, to
 * reach every cell, so that a king tucked into a corner is told from one on the centre file),
 * a tempo bonus, and the variant's own term (eval_bonus).  Optional terms, computed only when
 * their weight is not zero: mobility (pseudo-legal moves of the pieces), attacks on
 * the cells around the enemy royal, pawns sheltering the royal, and pieces standing next to a
 * pawn (Starvation's lifeline), passed pawns (no enemy pawn can stop them: pawn_stoppers
 * in eval.c, from the variant's pawn moves, so hex boards and limping pawns need no case),
 * enemy pieces a pawn attacks (the pawn's capture cells, from the same moves), and enemy
 * pieces a piece worth a quarter less attacks (from the cells mobility reaches).
 *
 * Every weight is a field of EvalParams.  The defaults are the hand-made formula (piece values
 * from the variant's PieceDefs); src/engine/weights.c holds values fitted per variant by
 * `starfish tune` (tune.c), which eval_tables() uses when the variant has them.  With the
 * environment variable STARFISH_EVAL=default set, every variant uses the defaults (for
 * matches of tuned against default weights).
 */
#ifndef STARFISH_EVAL_H
#define STARFISH_EVAL_H

#include "../core/position.h"

/*
 * The scalar weights: X(field, default, tuning step, min, max, description).  Units:
 * centipawns unless said otherwise; "reach" is a cell's empty-board reach relative to the
 * piece's average over the board ((reach - avg) / avg); "remoteness" likewise for the royal's
 * mean distance in moves from a cell to every cell.
 */
#define EVAL_SCALARS(X)                                                                           \
    X(centre_mg, 125, 10, -500, 1000, "per mille of a piece's value per unit of reach, middlegame") \
    X(centre_eg, 83, 10, -500, 1000, "per mille of a piece's value per unit of reach, endgame")   \
    X(pawn_advance_mg, 4, 2, -50, 100, "per push a pawn has made toward its zone, middlegame")     \
    X(pawn_advance_eg, 10, 2, -50, 150, "per push a pawn has made toward its zone, endgame")       \
    X(pawn_near_promotion, 40, 8, -100, 400, "a pawn one push from its zone, endgame")           \
    X(royal_shelter_mg, 12, 4, -400, 400, "penalty per unit of the royal's reach, middlegame")   \
    X(royal_activity_eg, 25, 4, -400, 400, "bonus per unit of the royal's reach, endgame")       \
    X(royal_remote_mg, 0, 8, -400, 800, "bonus per unit of the royal's remoteness, middlegame")    \
    X(royal_remote_eg, 0, 8, -800, 400, "bonus per unit of the royal's remoteness, endgame")       \
    X(tempo, 10, 2, -50, 80, "for the side to move")                                             \
    X(bonus_weight, 100, 10, 0, 400, "percent of the variant's own term (eval_bonus)")           \
    X(mobility_mg, 0, 8, -200, 400, "1/16 cp per pseudo-legal move of a piece, middlegame")      \
    X(mobility_eg, 0, 8, -200, 400, "1/16 cp per pseudo-legal move of a piece, endgame")         \
    X(royal_zone_mg, 0, 8, -200, 800, "1/16 cp per move into the cells around the enemy royal, middlegame") \
    X(royal_zone_sq_mg, 0, 2, -50, 200, "1/16 cp per square of the moves into the cells around the enemy royal, middlegame") \
    X(pawn_shield_mg, 0, 4, -100, 200, "per own pawn next to the royal, middlegame")             \
    X(pawn_contact_mg, 0, 4, -100, 200, "per piece next to a pawn of either side, middlegame")   \
    X(pawn_contact_eg, 0, 4, -100, 200, "per piece next to a pawn of either side, endgame")     \
    X(passed_mg, 0, 8, -100, 400, "a passed pawn one push from its zone (less by the square of its distance), middlegame") \
    X(passed_eg, 0, 8, -100, 600, "a passed pawn one push from its zone (less by the square of its distance), endgame") \
    X(pawn_threat_mg, 0, 4, -100, 300, "per enemy piece (neither pawn nor royal) a pawn attacks, middlegame") \
    X(pawn_threat_eg, 0, 4, -100, 300, "per enemy piece (neither pawn nor royal) a pawn attacks, endgame") \
    X(piece_threat_mg, 0, 4, -100, 300, "per enemy piece a piece worth a quarter less attacks, middlegame") \
    X(piece_threat_eg, 0, 4, -100, 300, "per enemy piece a piece worth a quarter less attacks, endgame")

typedef struct EvalParams {
    /* Piece values by type (1..ntypes; [0] and the royal type unused), middlegame/endgame. */
    int piece_mg[MAX_TYPES], piece_eg[MAX_TYPES];
#define EVAL_FIELD(name, def, step, lo, hi, doc) int name;
    EVAL_SCALARS(EVAL_FIELD)
#undef EVAL_FIELD
} EvalParams;

/* Tuned weights per variant (weights.c, written by `starfish tune`); ends with name NULL. */
typedef struct EvalWeights {
    const char *variant;
    EvalParams params;
} EvalWeights;
extern const EvalWeights eval_weights[];

typedef struct EvalTables {
    uint64_t id; /* different for every build (the evaluation's caches tell tables apart by it) */
    const Variant *v;
    EvalParams p;
    int16_t mg[MAX_CODES][MAX_CELLS]; /* from the piece owner's view, material included */
    int16_t eg[MAX_CODES][MAX_CELLS];
    /* The same for White (Black's negated), with each piece's share of the game phase: the
     * sums make/unmake keep when the search attaches the table (pos_attach_scores). */
    ScoreTable scores;
    int value[MAX_CODES]; /* the PieceDef values (not tuned): game phase, move ordering */
    int hand_mg[MAX_CODES], hand_eg[MAX_CODES]; /* a piece in hand */
    int phase_total; /* non-pawn, non-royal material of the start position, both sides */
    bool walk;       /* mobility, royal-zone or piece-threat weights: walk each piece's moves */
    bool piece_threats; /* piece-threat weights: count the enemy pieces the moves threaten */
    /* Per piece type (neither pawn nor royal: the pieces walked), the types (neither pawn nor
     * royal) worth more than a quarter above it: bit t for type t. */
    uint32_t bigger[MAX_TYPES];
    bool contact;    /* pawn-contact weights */
    bool shield;     /* pawn-shield weights */
    bool passers;    /* passed-pawn weights (and a pawn type) */
    bool threats;    /* pawn-threat weights (and a pawn type) */
    /* Per pawn colour and cell: where an enemy pawn stops that pawn from running to its zone
     * (pawn_stoppers), and the bonus when none stands there, middlegame and endgame. */
    CellSet stoppers[2][MAX_CELLS];
    int16_t passer_mg[2][MAX_CELLS], passer_eg[2][MAX_CELLS];
    /* Per pawn colour and cell: the cells a pawn there takes on. */
    CellSet pawn_takes[2][MAX_CELLS];
    /* The royal's zone: its cell and the cells next to it, per royal cell. */
    CellSet zone[MAX_CELLS];
} EvalTables;

/* The weights a variant plays with: tuned ones from weights.c, else the defaults. */
const EvalTables *eval_tables(const Variant *v);
/* The hand-made defaults for a variant (piece values from its PieceDefs). */
void eval_default_params(const Variant *v, EvalParams *p);
/* The tuned weights of a variant in weights.c, or NULL. */
const EvalParams *eval_tuned_params(const Variant *v);
/* Builds tables for any weights (the tuner's trials). */
void eval_build(EvalTables *t, const Variant *v, const EvalParams *p);
/* The position's score in centipawns for the side to move. */
int evaluate(const Position *pos, const EvalTables *t);

#endif
