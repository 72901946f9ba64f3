/*
 * Evaluation and tuner tests: the evaluation is symmetric (a position and its colour-mirrored
 * twin score the same for the side to move) in every variant whose board has a mirror, with
 * the weights each variant plays with and with every optional term switched on; material
 * counts the pieces in hand during Starchess's setup; the tuner picks the quiet positions of
 * a game and lowers its error on a small synthetic set.
 */
#include <stdlib.h>

#include "../../src/engine/eval.h"
#include "../../src/engine/tune.h"
#include "helpers.h"
#include "test.h"

/* The mirror image of a cell: ranks flipped on the 8x8 board; on hex boards the column is
 * kept and y = 2r + q negated (the top-bottom mirror of the hexagram and of Megastar). */
static Cell mirror_cell(const Geometry *g, Cell c)
{
    if (g->mirror == MIRROR_SQUARE) {
        int rmin = g->r[0], rmax = g->r[0];
        for (Cell x = 0; x < g->ncells; x++) {
            rmin = g->r[x] < rmin ? g->r[x] : rmin;
            rmax = g->r[x] > rmax ? g->r[x] : rmax;
        }
        return geo_cell_at(g, g->q[c], rmin + rmax - g->r[c], g->level[c]);
    }
    return geo_cell_at(g, g->q[c], -g->q[c] - g->r[c], g->level[c]);
}

/* Does the mirror map the board onto itself, and each side's zones onto the other's? */
static bool has_mirror(const Variant *v)
{
    const Geometry *g = v->geo;
    for (Cell c = 0; c < g->ncells; c++) {
        Cell m = mirror_cell(g, c);
        if (m == NO_CELL || mirror_cell(g, m) != c)
            return false;
        for (int s = 0; s < 2; s++)
            if (v->promotion_zone[s][c] != v->promotion_zone[s ^ 1][m] ||
                v->placement_zone[s][c] != v->placement_zone[s ^ 1][m] ||
                v->pawn_can_stand[s][c] != v->pawn_can_stand[s ^ 1][m])
                return false;
    }
    return true;
}

/* The colour-mirrored twin: every piece mirrored with its colour swapped, hands swapped, the
 * other side to move (castling rights and en passant dropped: the evaluation reads neither). */
static void mirror_position(const Position *pos, Position *out)
{
    const Variant *v = pos->v;
    const Geometry *g = v->geo;
    pos_clear(out, v);
    for (Cell c = 0; c < g->ncells; c++) {
        uint8_t code = pos->board[c];
        Cell m = mirror_cell(g, c);
        if (code)
            pos_put(out, MAKE_PIECE(PIECE_COLOUR(code) ^ 1, PIECE_TYPE(code)), m);
        out->limping[m] = pos->limping[c];
    }
    for (int s = 0; s < 2; s++) {
        for (int t = 0; t < MAX_TYPES; t++)
            out->hand[s ^ 1][t] = pos->hand[s][t];
        out->hand_total[s ^ 1] = pos->hand_total[s];
    }
    out->side = pos->side ^ 1;
    out->halfmove = pos->halfmove;
    out->fullmove = pos->fullmove;
    out->key = pos_compute_key(out);
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Every optional term on, and middlegame and endgame values apart. */
static void all_terms(const Variant *v, EvalParams *p)
{
    eval_default_params(v, p);
    for (int t = 1; t < MAX_TYPES; t++)
        p->piece_eg[t] = p->piece_eg[t] * 11 / 10;
    p->mobility_mg = 24;
    p->mobility_eg = 40;
    p->royal_zone_mg = 50;
    p->royal_zone_sq_mg = 3;
    p->pawn_shield_mg = 7;
    p->pawn_contact_mg = 5;
    p->pawn_contact_eg = -3;
    p->passed_mg = 60;
    p->passed_eg = 90;
    p->pawn_threat_mg = 30;
    p->pawn_threat_eg = 20;
    p->piece_threat_mg = 25;
    p->piece_threat_eg = 15;
    p->royal_remote_mg = 200;
    p->royal_remote_eg = -100;
}

TEST(eval_symmetric_under_mirror)
{
    static EvalTables full;
    int mirrored = 0;
    for (int i = 0; i < variant_count(); i++) {
        const Variant *v = variant_at(i);
        if (!has_mirror(v))
            continue;
        mirrored++;
        EvalParams p;
        all_terms(v, &p);
        eval_build(&full, v, &p);
        const EvalTables *played = eval_tables(v);
        uint64_t seed = 0x2545f4914f6cdd1dull + (uint64_t)i;
        int checked = 0;
        for (int game = 0; game < 6; game++) {
            Position pos;
            if (!setup(&pos, v->def->name, NULL))
                return;
            for (int ply = 0; ply < 160; ply++) {
                Position twin;
                mirror_position(&pos, &twin);
                int a = evaluate(&pos, played), b = evaluate(&twin, played);
                int c = evaluate(&pos, &full), d = evaluate(&twin, &full);
                if (a != b || c != d) {
                    char fen[FEN_MAX], fen2[FEN_MAX];
                    pos_fen(&pos, fen, sizeof fen);
                    pos_fen(&twin, fen2, sizeof fen2);
                    test_fail(__FILE__, __LINE__, "%s: %s scores %d/%d, its mirror %s %d/%d", v->def->name, fen, a, c,
                              fen2, b, d);
                    break;
                }
                checked++;
                Move moves[MAX_MOVES];
                int n = gen_legal(&pos, moves);
                if (n == 0)
                    break;
                Undo u;
                pos_make(&pos, moves[rng_next(&seed) % (uint64_t)n], &u);
            }
        }
        CHECK(checked > 100);
    }
    /* Every board has its mirror: all seven variants are checked. */
    CHECK_EQ_INT(mirrored, variant_count());
}

/* In chess the cells where an enemy pawn stops a pawn, found from the pawn moves alone, are
 * the files beside and its own ahead of it (a pawn on e4: d5-f8), and a passed pawn's bonus
 * grows as it advances. */
TEST(eval_passed_pawn_stoppers_in_chess)
{
    static EvalTables t;
    const Variant *v = variant_by_name("chess");
    const Geometry *g = v->geo;
    EvalParams p;
    all_terms(v, &p);
    eval_build(&t, v, &p);
    CHECK(t.passers);
    int checked = 0;
    for (int colour = 0; colour < 2; colour++)
        for (Cell c = 0; c < g->ncells; c++) {
            if (g->r[c] == 0 || g->r[c] == 7)
                continue;
            for (Cell x = 0; x < g->ncells; x++) {
                int ahead = colour == WHITE ? g->r[x] - g->r[c] : g->r[c] - g->r[x];
                bool expected = abs(g->q[x] - g->q[c]) <= 1 && ahead > 0;
                if (cellset_has(&t.stoppers[colour][c], x) != expected) {
                    test_fail(__FILE__, __LINE__, "colour %d, pawn on cell %d: cell %d %s", colour, c, x,
                              expected ? "missing" : "not expected");
                    return;
                }
                checked++;
            }
        }
    CHECK_EQ_INT(checked, 2 * 48 * 64);
    Cell e4 = geo_cell_at(g, 4, 3, 0), e6 = geo_cell_at(g, 4, 5, 0), e7 = geo_cell_at(g, 4, 6, 0);
    CHECK(t.passer_eg[WHITE][e4] < t.passer_eg[WHITE][e6]);
    CHECK_EQ_INT(t.passer_eg[WHITE][e7], p.passed_eg);
    /* With only kings and pawns (the endgame weights alone), the bonus is the whole
     * difference a passed pawn makes, and a stopped pawn gets none. */
    static EvalTables off;
    p.passed_mg = p.passed_eg = 0;
    eval_build(&off, v, &p);
    Position free_pawn, stopped_pawn;
    if (!setup(&free_pawn, "chess", "4k3/8/4P3/8/8/8/8/4K3 w - - 0 1") ||
        !setup(&stopped_pawn, "chess", "4k3/3p4/4P3/8/8/8/8/4K3 w - - 0 1"))
        return;
    CHECK_EQ_INT(evaluate(&free_pawn, &t) - evaluate(&free_pawn, &off), t.passer_eg[WHITE][e6]);
    CHECK_EQ_INT(evaluate(&stopped_pawn, &t) - evaluate(&stopped_pawn, &off), 0);
}

/* A chess position and what the terms under test add to its evaluation, from White's side. */
typedef struct {
    const char *fen;
    int terms;
} TermCase;

/* Each case's evaluation under the weights p less its evaluation under the defaults. */
static void check_terms(const EvalParams *p, const TermCase *cases, size_t n)
{
    static EvalTables t, off;
    const Variant *v = variant_by_name("chess");
    EvalParams defaults;
    eval_default_params(v, &defaults);
    eval_build(&off, v, &defaults);
    eval_build(&t, v, p);
    for (size_t i = 0; i < n; i++) {
        Position pos;
        if (!setup(&pos, "chess", cases[i].fen))
            return;
        int sign = pos.side == WHITE ? 1 : -1, terms = sign * (evaluate(&pos, &t) - evaluate(&pos, &off));
        if (terms != cases[i].terms)
            test_fail(__FILE__, __LINE__, "%s: terms %d, expected %d", cases[i].fen, terms, cases[i].terms);
    }
}

/* Pawn threats in chess: each enemy piece a pawn attacks adds the weight once (with equal
 * middlegame and endgame weights, exactly); a pawn or the king a pawn attacks adds nothing. */
TEST(eval_pawn_threats_in_chess)
{
    EvalParams p;
    eval_default_params(variant_by_name("chess"), &p);
    p.pawn_threat_mg = p.pawn_threat_eg = 5;
    static const TermCase cases[] = {
        {"4k3/8/8/3n1n2/4P3/8/8/4K3 w - - 0 1", 10},  /* a fork: two knights */
        {"4k3/8/8/3n4/4P3/8/8/4K3 b - - 0 1", 5},     /* one knight, Black to move */
        {"4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", 0},     /* pawns attacking pawns */
        {"8/8/8/3k4/4P3/8/8/4K3 b - - 0 1", 0},       /* a pawn checking the king */
        {"4k3/8/8/8/4p3/3N1B2/8/4K3 w - - 0 1", -10}, /* Black's pawn forks */
    };
    check_terms(&p, cases, sizeof cases / sizeof cases[0]);
}

/* Piece threats in chess: an enemy piece worth a quarter more than a piece attacking it adds
 * the weight, once per attacking type; a knight against a bishop (320, 330) is no threat. */
TEST(eval_piece_threats_in_chess)
{
    EvalParams p;
    eval_default_params(variant_by_name("chess"), &p);
    p.piece_threat_mg = p.piece_threat_eg = 5;
    static const TermCase cases[] = {
        {"4k3/8/8/3r4/8/4N3/8/4K3 w - - 0 1", 5},    /* a knight attacks a rook */
        {"4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", 0},     /* a rook attacks a knight */
        {"4k3/8/8/4b3/8/8/8/R3K3 w - - 0 1", -5},    /* a bishop attacks a rook */
        {"4k3/8/8/3b4/8/4N3/8/4K3 w - - 0 1", 0},    /* a knight attacks a bishop */
        {"4k3/8/8/3q4/8/1B2N3/8/4K3 b - - 0 1", 10}, /* a knight and a bishop attack the queen */
    };
    check_terms(&p, cases, sizeof cases / sizeof cases[0]);
}

/* The royal's remoteness in chess: its mean distance in king moves to the other 63 cells,
 * relative to the board's average of that mean (3.75), times the weight (e1: 254 moves to
 * the 63 other cells, 4.032, and (4.032 - 3.75) / 3.75 = 0.075). */
TEST(eval_royal_remoteness_in_chess)
{
    static EvalTables t, off;
    const Variant *v = variant_by_name("chess");
    const Geometry *g = v->geo;
    EvalParams p;
    eval_default_params(v, &p);
    eval_build(&off, v, &p);
    p.royal_remote_mg = 1000;
    p.royal_remote_eg = -1000;
    eval_build(&t, v, &p);
    static const struct {
        int file, rank, thousandths;
    } cells[] = {{4, 0, 75}, {6, 0, 189}, {7, 0, 304}, {0, 0, 304}, {4, 1, -90}, {4, 3, -272}};
    for (int colour = 0; colour < 2; colour++) {
        int king = MAKE_PIECE(colour, v->royal_type);
        for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++) {
            Cell c = geo_cell_at(g, cells[i].file, colour == WHITE ? cells[i].rank : 7 - cells[i].rank, 0);
            int mg = t.mg[king][c] - off.mg[king][c], eg = t.eg[king][c] - off.eg[king][c];
            if (abs(mg - cells[i].thousandths) > 1 || abs(eg + cells[i].thousandths) > 1)
                test_fail(__FILE__, __LINE__, "colour %d, cell %s: %d / %d, expected %d", colour, g->cell_name[c], mg,
                          eg, cells[i].thousandths);
        }
    }
}

/* The evaluation keeps the pawn terms of the structures it met; tables rebuilt in place with
 * other weights (as the tuner does) get their own terms, not the old ones. */
TEST(eval_pawn_terms_follow_tables_rebuilt_in_place)
{
    static EvalTables t, fresh;
    const Variant *v = variant_by_name("chess");
    EvalParams p;
    all_terms(v, &p);
    Position pos;
    if (!setup(&pos, "chess", "4k3/8/4P3/8/8/8/8/4K3 w - - 0 1"))
        return;
    eval_build(&t, v, &p);
    int first = evaluate(&pos, &t);
    p.passed_mg *= 3;
    p.passed_eg *= 3;
    eval_build(&t, v, &p);
    eval_build(&fresh, v, &p);
    CHECK(evaluate(&pos, &t) != first);
    CHECK_EQ_INT(evaluate(&pos, &t), evaluate(&pos, &fresh));
}

TEST(eval_counts_pieces_in_hand_during_setup)
{
    static EvalTables defaults;
    const char *names[] = {"starchess", "starchess-ludii"};
    for (int k = 0; k < 2; k++) {
        const Variant *v = variant_by_name(names[k]);
        EvalParams p;
        eval_default_params(v, &p);
        eval_build(&defaults, v, &p);
        int queen = p.piece_mg[variant_type_of_letter(v, 'Q')];
        bool ludii = k == 1;
        Position start, no_queen, placed;
        if (!setup(&start, names[k], NULL) ||
            !setup(&no_queen, names[k],
                   ludii ? "1/2/1P3p1/1P2p1/1P1p1/1P2p1/1P3p1/2/1[KQRBNkrbn] w - 0 1"
                         : "1/2/1P3p1/1P2p1/1P1p1/1P2p1/1P3p1/2/1[KQRBNkrbn] w 0 1") ||
            !setup(&placed, names[k],
                   ludii ? "1/2/1P3p1/1P2p1/1P1p1/QP2p1/1P3p1/2/1[KRBNkqrbn] b - 1 1"
                         : "1/2/1P3p1/1P2p1/1P1p1/QP2p1/1P3p1/2/1[KRBNkqrbn] b 1 1"))
            return;
        /* The start is balanced: the side to move has the tempo alone. */
        CHECK_EQ_INT(evaluate(&start, &defaults), p.tempo);
        /* A queen missing from Black's hand is a queen's worth for White. */
        CHECK_EQ_INT(evaluate(&no_queen, &defaults) - evaluate(&start, &defaults), queen);
        /* Placing a piece keeps it: the material stays level (the cell's term is small). */
        int after = -evaluate(&placed, &defaults) + p.tempo;
        CHECK(after > -queen / 4 && after < queen / 4);
        /* The same with the weights the variant plays with. */
        const EvalTables *t = eval_tables(v);
        int type = variant_type_of_letter(v, 'Q');
        int lo = t->p.piece_mg[type] < t->p.piece_eg[type] ? t->p.piece_mg[type] : t->p.piece_eg[type];
        CHECK(evaluate(&no_queen, t) - evaluate(&start, t) >= lo);
    }
}

/* A game with the result 1-0; plies 2-4 are a capture, a recapture and the move after it. */
static const char sample_game[] = "[Event \"test\"]\n[Result \"1-0\"]\n[Variant \"chess\"]\n\n"
                                  "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 c6 5. Nf3 Bg4 1-0\n";

TEST(tune_picks_quiet_positions)
{
    TuneSet s;
    char err[200];
    tune_set_init(&s, variant_by_name("chess"));
    /* Plies 0, 1, 5..9: not before a capture (2, 3), not right after one (3, 4). */
    CHECK_EQ_INT(tune_add_game(&s, sample_game, 0, err, sizeof err), 7);
    CHECK_EQ_INT(tune_add_game(&s, sample_game, 2, err, sizeof err), 5);
    for (int i = 0; i < s.n; i++)
        CHECK(s.result[i] == 1.0f);
    /* An unfinished game gives nothing; a game of another variant is refused. */
    CHECK_EQ_INT(tune_add_game(&s, "[Result \"*\"]\n\n1. e4 *\n", 0, err, sizeof err), 0);
    CHECK_EQ_INT(tune_add_game(&s, "[Result \"1-0\"]\n[Variant \"starvation\"]\n\n1. e4 1-0\n", 0, err, sizeof err), -1);
    tune_set_free(&s);
}

TEST(tune_reads_labelled_positions)
{
    TuneSet s;
    char err[200];
    const Variant *v = variant_by_name("chess");
    tune_set_init(&s, v);
    char a[] = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 ; 0.55",
         b[] = "4k3/8/8/8/8/8/8/4K2Q w - - 0 1;1-0", c[] = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ; 1/2-1/2\r";
    CHECK_EQ_INT(tune_add_labelled(&s, a, err, sizeof err), 1);
    CHECK_EQ_INT(tune_add_labelled(&s, b, err, sizeof err), 1);
    CHECK_EQ_INT(tune_add_labelled(&s, c, err, sizeof err), 1);
    CHECK_EQ_INT(s.n, 3);
    CHECK(s.result[0] == 0.55f && s.result[1] == 1.0f && s.result[2] == 0.5f);
    CHECK_EQ_INT(s.pos[0].side, BLACK);
    /* A label out of range, a line without one, a bad position: refused with the reason. */
    char d[] = "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ; 1.5", e[] = "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
         f[] = "4k3/8/8/8/8/8/8/4K3 x - - 0 1 ; 0";
    CHECK_EQ_INT(tune_add_labelled(&s, d, err, sizeof err), -1);
    CHECK(strstr(err, "label '1.5'") != NULL);
    CHECK_EQ_INT(tune_add_labelled(&s, e, err, sizeof err), -1);
    CHECK(strstr(err, "no ';'") != NULL);
    CHECK_EQ_INT(tune_add_labelled(&s, f, err, sizeof err), -1);
    CHECK_EQ_INT(s.n, 3);
    tune_set_free(&s);
}

TEST(tune_lowers_the_error)
{
    /* White a knight up wins, Black a knight up wins, level positions are drawn; the start
     * weights undervalue the knight. */
    static const struct {
        const char *fen;
        double result;
    } data[] = {
        {"4k3/pppp4/8/8/8/8/PPPP4/3NK3 w - - 0 1", 1.0},  {"4k3/pppp4/8/8/8/8/PPPP4/3NK3 b - - 0 1", 1.0},
        {"4k3/1ppp4/8/8/8/8/PPP5/1N2K3 w - - 0 1", 1.0},  {"3nk3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", 0.0},
        {"3nk3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1", 0.0},  {"1n2k3/ppp5/8/8/8/8/1PPP4/4K3 b - - 0 1", 0.0},
        {"4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", 0.5},   {"4k3/ppp5/8/8/8/8/PPP5/4K3 b - - 0 1", 0.5},
        {"3nk3/ppp5/8/8/8/8/PPP5/3NK3 w - - 0 1", 0.5},   {"4k3/pppp4/8/8/8/8/PPPP4/2N1K3 b - - 0 1", 1.0},
    };
    const Variant *v = variant_by_name("chess");
    TuneSet s;
    tune_set_init(&s, v);
    for (size_t i = 0; i < sizeof data / sizeof data[0]; i++) {
        Position pos;
        if (!setup(&pos, "chess", data[i].fen))
            return;
        CHECK(tune_set_add(&s, &pos, data[i].result));
    }
    EvalParams p;
    eval_default_params(v, &p);
    int knight = variant_type_of_letter(v, 'N');
    p.piece_mg[knight] = p.piece_eg[knight] = 40;
    double k = tune_fit_k(&s, &p);
    CHECK(k > 0);
    double before = tune_mse(&s, &p, k);
    TuneOptions opts = {.passes = 5};
    double after = tune_optimise(&s, NULL, &p, k, &opts);
    CHECK(after < before);
    CHECK(after < 0.8 * before);
    CHECK(tune_mse(&s, &p, k) == after);
    CHECK(p.piece_mg[knight] > 40 || p.piece_eg[knight] > 40);
    tune_set_free(&s);
}
