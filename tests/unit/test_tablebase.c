/*
 * Starchess endgame tablebases (src/tablebase): the tables of up to 3 men and KQvKR (with
 * what it needs) are built into a temporary folder once (tb_fixture.c), then checked
 *   - against facts derived by hand from rules/starchess.md (the cells below);
 *   - against the rules core: every sampled entry's value agrees with its successors'
 *     (gen_legal, pos_in_check: tb_verify_entry), symmetric images probe alike;
 *   - against an exhaustive mate search that knows nothing of the tables;
 *   - and the engine, given them, wins within the fifty-move rule.
 * Their files are tested in test_tablebase_files.c.
 *
 * Cells as (q, r); directions N (0,1) S (0,-1) NE (1,0) SE (1,-1) NW (-1,1) SW (-1,0):
 *    1 (-4,2)   2 (-3,1)   3 (-3,2)   4 (-2,-2)  5 (-2,-1)  6 (-2,0)   7 (-2,1)   8 (-2,2)
 *    9 (-2,3)  10 (-2,4)  11 (-1,-2) 12 (-1,-1) 13 (-1,0)  14 (-1,1)  15 (-1,2)  16 (-1,3)
 *   17 (0,-2)  18 (0,-1)  19 (0,0)   20 (0,1)   21 (0,2)   22 (1,-3)  23 (1,-2)  24 (1,-1)
 *   25 (1,0)   26 (1,1)   27 (1,2)   28 (2,-4)  29 (2,-3)  30 (2,-2)  31 (2,-1)  32 (2,0)
 *   33 (2,1)   34 (2,2)   35 (3,-2)  36 (3,-1)  37 (4,-2)
 *
 * The star tip 1 has two neighbours: 2 (SE) and 3 (NE); the one cell next to both (other than
 * 1) is 7, so a White king on 7 takes both flight cells of a Black king on 1.  Lines into 1:
 * the row r = 2 (3, 8, 15, 21, 27, 34) along which a queen or bishop checks from the NE, the
 * diagonal 2, 6, 12, 17, 22, 28; the knight cells 5, 9, 13, 14.  The tip 4 (-2,-2) has the
 * neighbours 5 (N) and 11 (NE); it is the bottom of the column 4..10.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/engine/search.h"
#include "../../src/tablebase/tb_internal.h"
#include "helpers.h"
#include "tb_fixture.h"
#include "test.h"

static bool probe_fen(const char *men, char side, TbResult *r, Position *pos)
{
    if (!setup(pos, "starchess", star(men, side)))
        return false;
    if (!tb_probe(pos, r)) {
        test_fail(__FILE__, __LINE__, "no table answer for %s: %s", star(men, side), tb_last_error());
        return false;
    }
    return true;
}

static bool is_mate(Position *pos)
{
    Move moves[MAX_MOVES];
    return gen_legal(pos, moves) == 0 && pos_in_check(pos);
}

/* Plays `move` (coordinate notation) and says whether it mates, by the rules core alone. */
static bool move_mates(Position *pos, const char *move)
{
    char err[200];
    Move m = parse_move(pos, move, err, sizeof err);
    if (m == MOVE_NONE) {
        test_fail(__FILE__, __LINE__, "move %s: %s", move, err);
        return false;
    }
    Undo u;
    pos_make(pos, m, &u);
    bool mate = is_mate(pos);
    pos_unmake(pos, m, &u);
    return mate;
}

/* The mover's best moves by the tables all mate when the position is a mate in one. */
static void check_mate_in_one(const char *men, const char *mating_move)
{
    Position pos;
    TbResult r;
    if (!probe_fen(men, 'w', &r, &pos))
        return;
    CHECK_EQ_INT(r.wdl, TB_WIN);
    CHECK_EQ_INT(r.dtm, 1);
    CHECK_EQ_INT(r.dtz, 1);
    CHECK(move_mates(&pos, mating_move));
    /* Every move the tables rate "loss in 0 for the opponent" is a mate, and there is one. */
    Move moves[MAX_MOVES];
    int n = gen_legal(&pos, moves), mates = 0;
    for (int i = 0; i < n; i++) {
        Undo u;
        pos_make(&pos, moves[i], &u);
        TbResult c;
        bool ok = tb_probe(&pos, &c);
        CHECK(ok);
        bool mate = is_mate(&pos);
        CHECK_EQ_INT(ok && c.wdl == TB_LOSS && c.dtm == 0, mate);
        mates += mate;
        pos_unmake(&pos, moves[i], &u);
    }
    CHECK(mates > 0);
}

TEST(tb_star_tip_has_two_neighbours)
{
    const TbGeo *G = tb_geo();
    /* Cells are 0-based inside: cell k is k - 1. */
    int tips[6] = {1, 4, 10, 28, 34, 37};
    for (int i = 0; i < 6; i++) {
        int n = 0;
        for (int c = 0; c < TB_NCELLS; c++)
            n += G->adjacent[tips[i] - 1][c];
        CHECK_EQ_INT(n, 2);
    }
    CHECK(G->adjacent[0][1] && G->adjacent[0][2]);  /* 1 touches 2 and 3 */
    CHECK(G->adjacent[6][1] && G->adjacent[6][2]);  /* 7 touches 2 and 3 */
    CHECK(!G->adjacent[6][0]);                      /* but not 1 */
    CHECK(G->adjacent[3][4] && G->adjacent[3][10]); /* 4 touches 5 and 11 */
}

TEST(tb_king_on_star_tip_checkmated_and_stalemated)
{
    if (!tb_test_tables())
        return;
    Position pos;
    TbResult r;
    /* Black king on the tip 1, White king on 7 takes 2 and 3; a queen on 8 checks through 3. */
    if (probe_fen("K7 Q8 k1", 'b', &r, &pos)) {
        CHECK(is_mate(&pos));
        CHECK_EQ_INT(r.wdl, TB_LOSS);
        CHECK_EQ_INT(r.dtm, 0);
        CHECK_EQ_INT(r.dtz, 0);
    }
    /* The same with the queen on 3, next to the king but guarded by the king on 7. */
    if (probe_fen("K7 Q3 k1", 'b', &r, &pos)) {
        CHECK(is_mate(&pos));
        CHECK_EQ_INT(r.dtm, 0);
    }
    /* A bishop on 15 checks along the row through 8 and 3: mate. */
    if (probe_fen("K7 B15 k1", 'b', &r, &pos)) {
        CHECK(is_mate(&pos));
        CHECK_EQ_INT(r.wdl, TB_LOSS);
    }
    /* A knight on 9 checks 1 (vector (2,1) from 1): mate. */
    if (probe_fen("K7 N9 k1", 'b', &r, &pos)) {
        CHECK(is_mate(&pos));
        CHECK_EQ_INT(r.wdl, TB_LOSS);
    }
    /* No check, both flight cells taken: stalemate, a draw, and dead. */
    if (probe_fen("K7 R5 k1", 'b', &r, &pos)) {
        CHECK(!is_mate(&pos));
        CHECK_EQ_INT(r.wdl, TB_DRAW);
        CHECK(r.dead);
    }
}

TEST(tb_mates_in_one_with_each_piece)
{
    if (!tb_test_tables())
        return;
    /* Queen: 10-8 down the column checks 1 through 3 (7 takes 2 and 3). */
    check_mate_in_one("K7 Q10 k1", "10-8");
    /* Bishop: 10-21 (SE twice) checks along the row 21, 15, 8, 3, 1. */
    check_mate_in_one("K7 B10 k1", "10-21");
    /* Knight: 19-9 is the leap (-2,3); from 9 the leap (-2,-1) hits 1. */
    check_mate_in_one("K7 N19 k1", "19-9");
    /* Pawn: 20-21 promotes; a queen or bishop on 21 checks along the row. */
    check_mate_in_one("K7 P20 k1", "20-21q");
    check_mate_in_one("K7 P20 k1", "20-21b");
    /* Rook: a rook never leaves its column, so it mates by discovery: with the king on 4,
     * the rook on 8 and the White king on 6 between them, 6-12 uncovers the check; 12
     * takes 11, the rook's column takes 5. */
    check_mate_in_one("K6 R8 k4", "6-12");
    Position pos;
    if (setup(&pos, "starchess", star("K7 P20 k1", 'w')))
        CHECK(!move_mates(&pos, "20-21r")); /* a rook on 21 checks only along its column */
}

static void count_kvk(const TbTable *t, int side, uint64_t idx, int v, Position *pos, void *ctx)
{
    (void)t, (void)side, (void)idx, (void)pos;
    int *c = ctx;
    c[0]++;
    c[1] += v == TBV_DEAD;
}

TEST(tb_king_against_king_all_dead_draws)
{
    const TbTable *t = tb_test_table("KvK");
    if (!t)
        return;
    int c[2] = {0, 0};
    tb_each_entry(t, count_kvk, c);
    /* 37 * 36 ordered pairs minus the 2 * 84 adjacent ones, per side, up to the four symmetries. */
    CHECK(c[0] > 0);
    CHECK_EQ_INT(c[1], c[0]);
    Position pos;
    TbResult r;
    if (probe_fen("K19 k1", 'w', &r, &pos)) {
        CHECK_EQ_INT(r.wdl, TB_DRAW);
        CHECK(r.dead);
    }
}

typedef struct {
    int white_to_move, white_wins, longest;
    int black_to_move, black_draws_not_capture_or_stalemate;
} KqkCount;

static void count_kqk(const TbTable *t, int side, uint64_t idx, int v, Position *pos, void *ctx)
{
    (void)t, (void)idx;
    KqkCount *c = ctx;
    if (side == WHITE) {
        c->white_to_move++;
        c->white_wins += v >= 0 && v % 2 == 1;
        if (v > c->longest)
            c->longest = v;
        return;
    }
    c->black_to_move++;
    if (v < 0) { /* a draw with Black to move: stalemate, or the king takes the queen */
        Move moves[MAX_MOVES];
        int n = gen_legal(pos, moves);
        bool takes = false;
        for (int i = 0; i < n; i++)
            takes |= pos_is_capture(pos, moves[i]);
        if (n && !takes)
            c->black_draws_not_capture_or_stalemate++;
    }
}

TEST(tb_queen_wins_against_king)
{
    const TbTable *t = tb_test_table("KQvK");
    if (!t)
        return;
    KqkCount c = {0};
    tb_each_entry(t, count_kqk, &c);
    /* With White to move every position is won (stalemate needs Black to move). */
    CHECK(c.white_to_move > 0);
    CHECK_EQ_INT(c.white_wins, c.white_to_move);
    CHECK(c.longest >= 3 && c.longest < 40);
    /* With Black to move, the only draws are stalemates and positions where the queen falls. */
    CHECK_EQ_INT(c.black_draws_not_capture_or_stalemate, 0);
}

typedef struct {
    int middle, middle_dead, long_cols, long_cols_dead_wtm, wins, wins_not_mate_in_one, short_cols, short_dead;
} KrkCount;

static void count_krk(const TbTable *t, int side, uint64_t idx, int v, Position *pos, void *ctx)
{
    (void)t, (void)idx;
    KrkCount *c = ctx;
    const Geometry *g = pos->v->geo;
    int q = 99;
    CELLSET_EACH(cell, &pos->by_side[WHITE])
        if (!pos->v->is_royal[pos->board[cell]])
            q = g->q[cell];
    if (v >= 0 && v % 2 == 1) {
        c->wins++;
        c->wins_not_mate_in_one += v != 1;
    }
    if (q >= -1 && q <= 1) {
        c->middle++;
        c->middle_dead += v == TBV_DEAD;
    } else if (q == 2 || q == -2) {
        c->long_cols++;
        c->long_cols_dead_wtm += side == WHITE && v == TBV_DEAD;
    } else {
        c->short_cols++;
        c->short_dead += v == TBV_DEAD;
    }
}

TEST(tb_rook_on_middle_columns_is_dead)
{
    const TbTable *t = tb_test_table("KRvK");
    if (!t)
        return;
    KrkCount c = {0};
    tb_each_entry(t, count_krk, &c);
    /* The rules: K+R v K is dead with the rook on one of the three middle columns. */
    CHECK(c.middle > 0);
    CHECK_EQ_INT(c.middle_dead, c.middle);
    /* The tables add: also on the short outer columns (1; 2-3; 35-36; 37), where the rook can
     * never check a king that could not step off its line... */
    CHECK(c.short_cols > 0);
    CHECK_EQ_INT(c.short_dead, c.short_cols);
    /* ...while on the long columns 4..10 and 28..34 (White to move) mate stays reachable. */
    CHECK(c.long_cols > 0);
    CHECK_EQ_INT(c.long_cols_dead_wtm, 0);
    /* And K+R cannot force mate: its only wins are mates in one. */
    CHECK(c.wins > 0);
    CHECK_EQ_INT(c.wins_not_mate_in_one, 0);
}

typedef struct {
    int wtm, wins, longest;
} KbkCount;

static void count_kbk(const TbTable *t, int side, uint64_t idx, int v, Position *pos, void *ctx)
{
    (void)t, (void)idx, (void)pos;
    KbkCount *c = ctx;
    if (side != WHITE)
        return;
    c->wtm++;
    if (v >= 0 && v % 2 == 1) {
        c->wins++;
        if (v > c->longest)
            c->longest = v;
    }
}

TEST(tb_bishop_forces_mate)
{
    const TbTable *t = tb_test_table("KBvK");
    if (!t)
        return;
    KbkCount c = {0};
    tb_each_entry(t, count_kbk, &c);
    /* The rules: king and bishop can force mate against a lone king on this board. */
    CHECK(c.wins * 1000 > c.wtm * 999);
    CHECK(c.longest > 9); /* not only short mates: a forced mate from afar */
    /* A position far from any edge, White to move: a win. */
    Position pos;
    TbResult r;
    if (probe_fen("K19 B18 k34", 'w', &r, &pos))
        CHECK_EQ_INT(r.wdl, TB_WIN);
}

TEST(tb_limping_pawn_is_part_of_the_position)
{
    if (!tb_test_tables())
        return;
    Position a, b;
    TbResult ra, rb;
    /* The same men; the pawn on its start cell 12 either may double step or is limping. */
    if (!probe_fen("K1 P12 k34", 'w', &ra, &a) || !probe_fen("K1 P12~ k34", 'w', &rb, &b))
        return;
    char err[300];
    CHECK(parse_move(&a, "12-14", err, sizeof err) != MOVE_NONE);
    CHECK(parse_move(&b, "12-14", err, sizeof err) == MOVE_NONE);
    /* Both entries agree with their own successors. */
    TbSig sig;
    TbPos p;
    const TbTable *t = tb_test_table("KPvK");
    if (!t)
        return;
    Position *both[2] = {&a, &b};
    uint64_t idx[2];
    for (int k = 0; k < 2; k++) {
        tb_encode(both[k], &sig, &p, NULL);
        tb_canon(&t->L, &p);
        idx[k] = tb_index(&t->L, &p);
        CHECK(tb_verify_entry(t, p.side, idx[k], err, sizeof err));
    }
    CHECK(idx[0] != idx[1]);
}

/* ---- random samples ---- */

static uint64_t rng = 0x1234567887654321ULL;

static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}


TEST(tb_values_agree_with_successors)
{
    for (size_t k = 0; k < tb_sample_count; k++) {
        const TbTable *t = tb_test_table(tb_sample_tables[k]);
        if (!t)
            return;
        int n = k == 6 ? 4000 : 1500, bad = 0;
        for (int i = 0; i < n && bad < 3; i++) {
            uint64_t e = next_rand() % (2 * t->L.per_side);
            int side = e >= t->L.per_side;
            char err[1024];
            if (!tb_verify_entry(t, side, side ? e - t->L.per_side : e, err, sizeof err)) {
                test_fail(__FILE__, __LINE__, "%s", err);
                bad++;
            }
        }
    }
}

/* The images of a position under the board's symmetries probe alike: the left-right
 * reflection (every table) and the top-bottom one with colours and the side swapped. */
static void mirror(const Position *src, Position *dst, int xf, bool swap)
{
    const TbGeo *G = tb_geo();
    pos_clear(dst, src->v);
    for (int s = 0; s < 2; s++)
        CELLSET_EACH(c, &src->by_side[s]) {
            uint8_t code = src->board[c];
            Cell to = G->xf[xf][c];
            pos_put(dst, swap ? MAKE_PIECE(PIECE_COLOUR(code) ^ 1, PIECE_TYPE(code)) : code, to);
            dst->limping[to] = src->limping[c];
        }
    dst->side = src->side ^ swap;
}

TEST(tb_symmetric_positions_probe_alike)
{
    for (size_t k = 0; k < tb_sample_count; k++) {
        const TbTable *t = tb_test_table(tb_sample_tables[k]);
        if (!t)
            return;
        for (int i = 0; i < 300; i++) {
            uint64_t e = next_rand() % (2 * t->L.per_side);
            int side = e >= t->L.per_side;
            uint64_t idx = side ? e - t->L.per_side : e;
            if (tb_table_value(t, side, idx) == TBV_INVALID)
                continue;
            TbPos p;
            Position pos, m;
            tb_entry_position(&t->L, side, idx, &p, &pos);
            TbResult r0, r1, r2;
            CHECK(tb_probe(&pos, &r0));
            mirror(&pos, &m, XF_LR, false);
            CHECK(tb_probe(&m, &r1));
            mirror(&pos, &m, XF_TB, true);
            CHECK(tb_probe(&m, &r2));
            CHECK(r0.wdl == r1.wdl && r0.dtm == r1.dtm && r0.dtz == r1.dtz && r0.dead == r1.dead);
            CHECK(r0.wdl == r2.wdl && r0.dtm == r2.dtm && r0.dtz == r2.dtz && r0.dead == r2.dead);
        }
    }
}

/* ---- an exhaustive mate search, with no tables ---- */

static bool defender_mated_within(Position *pos, int plies);

/* Can the side to move force mate within `plies` plies (odd)? */
static bool mates_within(Position *pos, int plies)
{
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    for (int i = 0; i < n; i++) {
        Undo u;
        pos_make(pos, moves[i], &u);
        bool ok = defender_mated_within(pos, plies - 1);
        pos_unmake(pos, moves[i], &u);
        if (ok)
            return true;
    }
    return false;
}

/* Is the side to move mated within `plies` plies (even) whatever it does? */
static bool defender_mated_within(Position *pos, int plies)
{
    Move moves[MAX_MOVES];
    int n = gen_legal(pos, moves);
    if (n == 0)
        return pos_in_check(pos);
    if (plies < 2)
        return false;
    for (int i = 0; i < n; i++) {
        Undo u;
        pos_make(pos, moves[i], &u);
        bool ok = mates_within(pos, plies - 1);
        pos_unmake(pos, moves[i], &u);
        if (!ok)
            return false;
    }
    return true;
}

TEST(tb_agrees_with_exhaustive_mate_search)
{
    if (!tb_test_tables())
        return;
    int checked_short = 0;
    for (size_t k = 1; k < tb_sample_count; k++) {
        const TbTable *t = tb_test_table(tb_sample_tables[k]);
        if (!t)
            return;
        int want = k == 6 ? 40 : 60;
        for (int tries = 0, done = 0; done < want && tries < 200000; tries++) {
            uint64_t e = next_rand() % (2 * t->L.per_side);
            int side = e >= t->L.per_side;
            uint64_t idx = side ? e - t->L.per_side : e;
            int v = tb_table_value(t, side, idx);
            if (v == TBV_INVALID)
                continue;
            /* Half of the sample: short distances, where the search can see the mate. */
            if (done % 2 == 0 && !(v >= 0 && v <= 3))
                continue;
            done++;
            TbPos p;
            Position pos;
            tb_entry_position(&t->L, side, idx, &p, &pos);
            char fen[FEN_MAX];
            pos_fen(&pos, fen, sizeof fen);
            /* Mate in 1 or 2 (plies 1, 3) for the side to move; mated in 0, 1 (plies 0, 2). */
            bool w1 = mates_within(&pos, 1), w3 = mates_within(&pos, 3);
            bool l0 = defender_mated_within(&pos, 0), l2 = defender_mated_within(&pos, 2);
            int search = w1 ? 1 : w3 ? 3 : l0 ? 0 : l2 ? 2 : -1;
            int table_says = v >= 0 && v <= 3 ? v : -1;
            if (search != table_says)
                test_fail(__FILE__, __LINE__, "%s: search says %d, table %d", fen, search, v);
            checked_short += table_says >= 0;
        }
    }
    CHECK(checked_short > 100);
}

/* A search never waits for a file: the first probe starts a background load and says so,
 * later ones answer once the table is in memory; a folder change meanwhile loses nothing. */
TEST(tb_probe_loaded_does_not_wait_for_files)
{
    if (!tb_test_tables())
        return;
    Position pos;
    TbResult r;
    if (!setup(&pos, "starchess", star("K7 Q9 k37", 'w')))
        return;
    tb_set_dir(tb_test_folder()); /* forget what is loaded */
    CHECK(!tb_probe_loaded(&pos, &r));
    CHECK_EQ_STR(tb_last_error(), "the table is being loaded");
    tb_set_dir(tb_test_folder()); /* the load under way is thrown away when it ends */
    bool answered = false;
    for (int i = 0; i < 500 && !answered; i++) {
        answered = tb_probe_loaded(&pos, &r);
        if (!answered)
            usleep(10000);
    }
    CHECK(answered);
    CHECK(answered && r.wdl == TB_WIN && r.dtm == 11);
    CHECK(tb_probe(&pos, &r) && r.dtm == 11);
}

/* ---- the engine at the root ---- */

/* A winning move's plies to the next zeroing move or mate, under DTZ-optimal play. */
static int plies_to_zero(Position *pos, Move m, int *child_value)
{
    bool zeroing = pos_is_capture(pos, m) || pos->v->is_pawn[pos->board[MOVE_FROM(m)]];
    Undo u;
    bool ok;
    int dz = 0;
    pos_make(pos, m, &u);
    *child_value = tb_probe_value(pos, &dz, &ok);
    pos_unmake(pos, m, &u);
    return zeroing || *child_value == 0 ? 1 : 1 + dz;
}

static Move engine_move(Engine *e, const Position *pos, int halfmove)
{
    Position at = *pos;
    at.halfmove = halfmove;
    char fen[FEN_MAX];
    pos_fen(&at, fen, sizeof fen);
    Game g;
    if (!start_game(&g, "starchess", fen))
        return MOVE_NONE;
    SearchLimits limits = {.depth = 2};
    SearchResult r = search_run(e, &g, &limits, NULL);
    game_free(&g);
    return r.best;
}

/*
 * In KQvKR the fastest mate often lets many plies pass before the rook is taken, while a
 * slower mate takes it sooner.  With the halfmove clock so high that only the sooner capture
 * beats the 50-move rule, the engine must play a winning move that zeroes in time; with the
 * clock at 0 it must play a fastest mate.
 */
TEST(tb_engine_wins_within_the_fifty_move_rule)
{
    const TbTable *t = tb_test_table("KQvKR");
    if (!t)
        return;
    Engine e;
    if (!engine_init(&e, 1))
        return;
    int found = 0;
    for (int tries = 0; tries < 200000 && found < 12; tries++) {
        uint64_t idx = next_rand() % t->L.per_side;
        int v = tb_table_value(t, WHITE, idx);
        if (v < 3 || v % 2 == 0)
            continue;
        TbPos p;
        Position pos;
        tb_entry_position(&t->L, WHITE, idx, &p, &pos);
        Move moves[MAX_MOVES];
        int n = gen_legal(&pos, moves), zmin = 1000, zfast = 1000;
        for (int i = 0; i < n; i++) {
            int child, z = plies_to_zero(&pos, moves[i], &child);
            if (child < 0 || child % 2)
                continue;
            zmin = z < zmin ? z : zmin;
            if (child == v - 1)
                zfast = z < zfast ? z : zfast;
        }
        if (zfast <= zmin) /* a fastest mate zeroes as soon as any: nothing to choose */
            continue;
        found++;
        char fen[FEN_MAX];
        pos_fen(&pos, fen, sizeof fen);
        int child, z = plies_to_zero(&pos, engine_move(&e, &pos, 100 - zmin), &child);
        if (child < 0 || child % 2 || z > zmin)
            test_fail(__FILE__, __LINE__, "%s at halfmove %d: the engine's move zeroes in %d plies (needed %d)", fen,
                      100 - zmin, z, zmin);
        plies_to_zero(&pos, engine_move(&e, &pos, 0), &child);
        if (child != v - 1)
            test_fail(__FILE__, __LINE__, "%s: the engine's move leaves a mate in %d plies, the fastest %d", fen, child,
                      v - 1);
    }
    CHECK(found >= 12);
    engine_free(&e);
}
