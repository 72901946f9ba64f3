/*
 * Move as square says (shared/rules/square-says.md).  Every expected value below is derived
 * by hand from the rules, with the derivation in a comment.  The square marks, for reference:
 *
 *   rank 8  R N B Q Q B N R
 *   rank 7  P P P P P P P P
 *   rank 6  K R N B B N R K
 *   rank 5  P P P P P P P P
 *   rank 4  P P P P P P P P
 *   rank 3  K R N B B N R K
 *   rank 2  P P P P P P P P
 *   rank 1  R N B Q Q B N R
 *           a b c d e f g h
 *
 * The marks are symmetric under the rank flip (rank r <-> rank 9-r) and a pawn's forward
 * direction flips with its colour, so the mirror image of a position with the colours swapped
 * has the mirrored moves: the move-list tests check each White case and its mirrored Black
 * case (ss_mirror_fen / ss_mirror_moves).
 */
#include <stdlib.h>

#include "helpers.h"
#include "square_says_test.h"
#include "test.h"

/* The mirror image: ranks flipped, colours swapped (board, side, castling, en passant). */
static void ss_mirror_fen(const char *in, char *out, size_t len)
{
    char board[128], side[4], castling[8], ep[4];
    int half = 0, full = 1;
    if (sscanf(in, "%127s %3s %7s %3s %d %d", board, side, castling, ep, &half, &full) < 4) {
        snprintf(out, len, "(bad fen)");
        return;
    }
    char *rows[8], *save = NULL;
    int n = 0;
    for (char *t = strtok_r(board, "/", &save); t && n < 8; t = strtok_r(NULL, "/", &save))
        rows[n++] = t;
    char flipped[128] = "";
    for (int i = n - 1; i >= 0; i--) {
        for (char *c = rows[i]; *c; c++)
            if (*c >= 'a' && *c <= 'z')
                *c = (char)(*c - 'a' + 'A');
            else if (*c >= 'A' && *c <= 'Z')
                *c = (char)(*c - 'A' + 'a');
        strcat(flipped, rows[i]);
        if (i)
            strcat(flipped, "/");
    }
    char rights[8] = "";
    const char *order = "KQkq", *from = "kqKQ";
    int k = 0;
    for (int i = 0; i < 4; i++)
        if (strchr(castling, from[i]))
            rights[k++] = order[i];
    rights[k] = 0;
    if (!k)
        strcpy(rights, "-");
    if (ep[0] != '-')
        ep[1] = (char)('9' - ep[1] + '0');
    snprintf(out, len, "%s %s %s %s %d %d", flipped, side[0] == 'w' ? "b" : "w", rights, ep, half, full);
}

static int ss_compare(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* Mirrors every rank digit of a sorted, space-separated coordinate move list, and re-sorts. */
static void ss_mirror_moves(const char *in, char *out, size_t len)
{
    static char moves[128][8];
    char copy[2048], *save = NULL;
    int n = 0;
    snprintf(copy, sizeof copy, "%s", in);
    for (char *t = strtok_r(copy, " ", &save); t && n < 128; t = strtok_r(NULL, " ", &save)) {
        snprintf(moves[n], sizeof moves[n], "%s", t);
        for (char *c = moves[n]; *c; c++)
            if (*c >= '1' && *c <= '8')
                *c = (char)('9' - *c + '0');
        n++;
    }
    qsort(moves, (size_t)n, sizeof moves[0], ss_compare);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        if (i)
            strncat(out, " ", len - strlen(out) - 1);
        strncat(out, moves[i], len - strlen(out) - 1);
    }
}

static void ss_mirror_cell(const char *in, char *out)
{
    out[0] = in[0];
    out[1] = (char)('9' - in[1] + '0');
    out[2] = 0;
}

/* The legal moves from `from` (NULL: all) in a White position and in its mirrored Black one. */
static void ss_check_both(const char *fen, const char *from, const char *expected)
{
    Position pos;
    char buf[2048], mfen[FEN_MAX], mexp[2048], mfrom[3];
    if (setup(&pos, SS, fen))
        CHECK_EQ_STR(legal_moves_text(&pos, from, buf, sizeof buf), expected);
    ss_mirror_fen(fen, mfen, sizeof mfen);
    ss_mirror_moves(expected, mexp, sizeof mexp);
    if (from)
        ss_mirror_cell(from, mfrom);
    if (setup(&pos, SS, mfen))
        CHECK_EQ_STR(legal_moves_text(&pos, from ? mfrom : NULL, buf, sizeof buf), mexp);
}

static const char *ss_moves(const char *variant, const char *fen, const char *from)
{
    static char buf[2048];
    Position pos;
    if (!setup(&pos, variant, fen))
        return "(setup failed)";
    return legal_moves_text(&pos, from, buf, sizeof buf);
}

/* ------------------------------------------------------------------------------------------ */
/* Move lists of a man on each kind of square. */

TEST(ss_mirror_helpers)
{
    char out[FEN_MAX];
    ss_mirror_fen("m3k2m/4m3/8/8/4Mm2/8/8/M3K2M b KQk e3 0 1", out, sizeof out);
    CHECK_EQ_STR(out, "m3k2m/8/8/4mM2/8/8/4M3/M3K2M w Kkq e6 0 1");
    ss_mirror_moves("a1a2 b3b8 h4h5", out, sizeof out);
    CHECK_EQ_STR(out, "a8a7 b6b1 h5h4");
}

TEST(ss_man_on_r_square)
{
    /* White royal a1, Black royal h8 (both R squares, not on a common line).  White man b3
     * (R): a rook.  Up b4 b5 and b6 (Black man, capture, stop); down b2 is White's own man;
     * left a3; right c3 d3 and e3 (Black man, capture).  The man on b2 (P) cannot push onto b3
     * and has nothing to capture on a3/c3: no moves. */
    const char *fen = "7k/8/1m6/8/8/1M2m3/1M6/K7 w - - 0 1";
    ss_check_both(fen, "b3", "b3a3 b3b4 b3b5 b3b6 b3c3 b3d3 b3e3");
    ss_check_both(fen, "b2", "");
}

TEST(ss_man_on_n_square)
{
    /* White man c3 (N): knight leaps a2 a4 b1 b5 d1 d5 e2 e4; e4 holds a White man, b5 a Black
     * man (taken). */
    ss_check_both("7k/8/8/1m6/4M3/2M5/8/K7 w - - 0 1", "c3", "c3a2 c3a4 c3b1 c3b5 c3d1 c3d5 c3e2");
}

TEST(ss_man_on_b_square)
{
    /* White man d3 (B): diagonals c2 b1 | e2 f1 | c4 b5 (Black man, taken) | e4 then f5 (own
     * man, stop). */
    ss_check_both("7k/8/8/1m3M2/8/3M4/8/K7 w - - 0 1", "d3", "d3b1 d3b5 d3c2 d3c4 d3e2 d3e4 d3f1");
}

TEST(ss_man_on_q_square)
{
    /* White man d1 (Q): rank 1 c1 b1 (a1 is White's royal) and e1 f1 g1 h1; d-file d2 d3 d4 d5
     * (Black man, taken); diagonals c2 b3 a4 and e2 f3 g4 h5.  17 moves. */
    ss_check_both("7k/8/8/3m4/8/8/8/K2M4 w - - 0 1", "d1",
                  "d1a4 d1b1 d1b3 d1c1 d1c2 d1d2 d1d3 d1d4 d1d5 d1e1 d1e2 d1f1 d1f3 d1g1 d1g4 d1h1 d1h5");
}

TEST(ss_man_on_k_square)
{
    /* White man a3 (K): king steps a2 a4 b2 b3 b4; a K mark gives king moves, not royalty. */
    ss_check_both("7k/8/8/8/8/M7/8/K7 w - - 0 1", "a3", "a3a2 a3a4 a3b2 a3b3 a3b4");
    /* A man on a K square attacked by an enemy is no check: White's man h3 (K) stands on
     * the h-file of Black's royal h8 (R). */
    Position pos;
    if (setup(&pos, SS, "7k/8/8/8/8/7M/8/K7 w - - 0 1")) {
        CHECK(pos_attacked(&pos, geo_parse_cell(pos.v->geo, "h3", NULL), BLACK));
        CHECK(!pos_in_check(&pos));
    }
}

TEST(ss_man_on_p_square)
{
    /* P squares: pawn moves in the piece's own direction.  White man c2: c3, double step c4
     * (c3, c4 empty), capture d3 (Black man); b3 is empty: no capture there. */
    ss_check_both("7k/8/8/8/8/3m4/2M5/K7 w - - 0 1", "c2", "c2c3 c2c4 c2d3");
    /* A White man on e4 (rank 4, P): one step e5 only, no double step; d5/f5 empty. */
    ss_check_both("7k/8/8/8/4M3/8/8/K7 w - - 0 1", "e4", "e4e5");
    /* A White man on rank 7 (P) steps to rank 8 only (no double step: rank 7 is Black's 2nd
     * rank, not White's); the same goes for a Black man on rank 2, moving down. */
    ss_check_both("7k/4M3/8/8/8/8/8/K7 w - - 0 1", "e7", "e7e8");
    /* Black man on d2 (P): Black's forward is down: d1 only (c1/e1 empty). */
    CHECK_EQ_STR(ss_moves(SS, "7k/8/8/8/8/8/3m4/K7 b - - 0 1", "d2"), "d2d1");
    /* A Black man on e7 (P), Black's 2nd rank: e6 and the double step e5. */
    CHECK_EQ_STR(ss_moves(SS, "7k/4m3/8/8/8/8/8/K7 b - - 0 1", "e7"), "e7e5 e7e6");
    /* Blocked: a piece on c3 stops both steps; a piece on c4 only the double step. */
    ss_check_both("7k/8/8/8/8/2m5/2M5/K7 w - - 0 1", "c2", "");
    ss_check_both("7k/8/8/8/2m5/8/2M5/K7 w - - 0 1", "c2", "c2c3");
}

TEST(ss_double_step_whether_or_not_moved)
{
    /* A White man on b3 (R) slides down to b2 (P), then double steps from there: "a double
     * step forward from a P square on its 2nd rank ... whether or not the piece has moved
     * before".  Moves: b3b2 (quiet, halfmove 1), a8b8 (2), then from b2: b3 and b4. */
    Game g = {0};
    char err[200], buf[256];
    if (!game_init(&g, variant_by_name(SS), "k7/8/8/8/8/1M6/8/7K w - - 0 1", err, sizeof err))
        return;
    CHECK(play_moves(&g, "b3b2 a8b8"));
    CHECK_EQ_STR(legal_moves_text(&g.pos, "b2", buf, sizeof buf), "b2b3 b2b4");
    CHECK(play_moves(&g, "b2b4"));
    /* A double step writes the passed square; it is a quiet move (halfmove 3). */
    CHECK_EQ_STR(fen_of(&g.pos), "1k6/8/8/8/1M6/8/8/7K b - b3 3 2");
    game_free(&g);
}

/* ------------------------------------------------------------------------------------------ */
/* Move lists of the royal piece on each kind of square.  Black's royal h8 (R square) covers the
 * h-file and rank 8, so those squares are refused to White's royal. */

TEST(ss_royal_on_r_square)
{
    /* Royal b3 (R): b1 b2 b4..b7 (b8 is on rank 8: covered by h8), a3 c3..g3 (h3: h-file). */
    ss_check_both("7k/8/8/8/8/1K6/8/8 w - - 0 1", "b3", "b3a3 b3b1 b3b2 b3b4 b3b5 b3b6 b3b7 b3c3 b3d3 b3e3 b3f3 b3g3");
}

TEST(ss_royal_on_n_square)
{
    /* Royal g1 (N): e2 f3 h3; h3 is on the h-file. */
    ss_check_both("7k/8/8/8/8/8/8/6K1 w - - 0 1", "g1", "g1e2 g1f3");
}

TEST(ss_royal_on_b_square)
{
    /* Royal c1 (B): b2 a3 | d2 e3 f4 g5 (h6 is on the h-file). */
    ss_check_both("7k/8/8/8/8/8/8/2K5 w - - 0 1", "c1", "c1a3 c1b2 c1d2 c1e3 c1f4 c1g5");
}

TEST(ss_royal_on_q_square)
{
    /* Royal e1 (Q), no castling rights: rank 1 a1..d1, f1 g1 (h1: h-file); e2..e7 (e8: rank
     * 8); d2 c3 b4 a5; f2 g3 (h4: h-file).  18 moves. */
    ss_check_both("7k/8/8/8/8/8/8/4K3 w - - 0 1", "e1",
                  "e1a1 e1a5 e1b1 e1b4 e1c1 e1c3 e1d1 e1d2 e1e2 e1e3 e1e4 e1e5 e1e6 e1e7 e1f1 e1f2 e1g1 e1g3");
}

TEST(ss_royal_on_k_square)
{
    /* Royal a3 (K): king steps a2 a4 b2 b3 b4, none on the h-file or rank 8. */
    ss_check_both("7k/8/8/8/8/K7/8/8 w - - 0 1", "a3", "a3a2 a3a4 a3b2 a3b3 a3b4");
}

TEST(ss_royal_on_p_square)
{
    /* Royal e2 (P): e3, double step e4 (passed e3: no Black piece on d4/f4 covers it), and the
     * capture f3 (Black man on f3, an N square: it covers e1 g1 d2 h2 d4 h4 e5 g5, not e2). */
    ss_check_both("7k/8/8/8/8/5m2/4K3/8 w - - 0 1", "e2", "e2e3 e2e4 e2f3");
    /* Black's royal on d7 (P): d6, double step d5, capture c6 (White man on an N square). */
    CHECK_EQ_STR(ss_moves(SS, "8/3k4/2M5/8/8/8/8/K7 b - - 0 1", "d7"), "d7c6 d7d5 d7d6");
}

/* ------------------------------------------------------------------------------------------ */
/* En passant. */

TEST(ss_en_passant_by_a_man)
{
    /* White e2-e4 passes e3; Black's man d4 (P) covers c3 and e3, so it may take e4 there. */
    Game g = {0};
    char err[200], buf[256];
    if (!game_init(&g, variant_by_name(SS), "4k3/8/8/8/3m4/8/4M3/4K3 w - - 0 1", err, sizeof err))
        return;
    CHECK(play_moves(&g, "e2e4"));
    /* A P-square move does not reset the halfmove counter: 0 -> 1. */
    CHECK_EQ_STR(fen_of(&g.pos), "4k3/8/8/8/3mM3/8/8/4K3 b - e3 1 1");
    CHECK_EQ_STR(legal_moves_text(&g.pos, "d4", buf, sizeof buf), "d4d3 d4e3");
    char san[MOVE_TEXT_MAX];
    Move m = parse_move(&g.pos, "d4e3", err, sizeof err);
    CHECK(m != MOVE_NONE);
    move_to_san(&g.pos, m, san);
    CHECK_EQ_STR(san, "d4xe3");
    game_play(&g, m);
    /* The man on e4 is gone, the capturer stands on e3; a capture resets the counter. */
    CHECK_EQ_STR(fen_of(&g.pos), "4k3/8/8/8/8/4m3/8/4K3 w - - 0 2");
    game_free(&g);
}

TEST(ss_en_passant_only_on_the_next_move)
{
    /* As above, but Black plays e8d8 first; after White's e1d1 the chance has gone. */
    Game g = {0};
    char err[200], buf[256];
    if (!game_init(&g, variant_by_name(SS), "4k3/8/8/8/3m4/8/4M3/4K3 w - - 0 1", err, sizeof err))
        return;
    CHECK(play_moves(&g, "e2e4 e8d8 e1d1"));
    CHECK_EQ_STR(legal_moves_text(&g.pos, "d4", buf, sizeof buf), "d4d3");
    game_free(&g);
}

TEST(ss_en_passant_by_the_royal)
{
    /* Black's royal d4 (P) covers e3: after e2-e4 it takes en passant.  d3 is not attacked
     * (White's e4 covers d5/f5, a1 the a-file and rank 1): both moves legal. */
    Game g = {0};
    char err[200], buf[256];
    if (!game_init(&g, variant_by_name(SS), "8/8/8/8/3k4/8/4M3/K7 w - - 0 1", err, sizeof err))
        return;
    CHECK(play_moves(&g, "e2e4"));
    CHECK_EQ_STR(legal_moves_text(&g.pos, "d4", buf, sizeof buf), "d4d3 d4e3");
    CHECK(play_moves(&g, "d4e3"));
    CHECK_EQ_STR(fen_of(&g.pos), "8/8/8/8/8/4k3/8/K7 w - - 0 2");
    game_free(&g);
}

TEST(ss_no_en_passant_from_a_non_p_square)
{
    /* After e2-e4 (passed e3), Black's man g3 (R) can reach e3 by its rook move, and Black's
     * man c1 (B) by its bishop move through d2; neither stands on a P square, so neither takes
     * en passant: both are quiet moves and e4 stays on the board. */
    Game g = {0};
    char err[200], buf[256];
    if (!game_init(&g, variant_by_name(SS), "k7/8/8/8/8/6m1/4M3/2m1K3 w - - 0 1", err, sizeof err))
        return;
    CHECK(play_moves(&g, "e2e4"));
    /* g3: rank 3 f3 e3 d3 c3 b3 a3, h3; g-file g4..g8, g2 g1. */
    CHECK_EQ_STR(legal_moves_text(&g.pos, "g3", buf, sizeof buf),
                 "g3a3 g3b3 g3c3 g3d3 g3e3 g3f3 g3g1 g3g2 g3g4 g3g5 g3g6 g3g7 g3g8 g3h3");
    CHECK(play_moves(&g, "g3e3"));
    CHECK_EQ_STR(fen_of(&g.pos), "k7/8/8/8/4M3/4m3/8/2m1K3 w - - 2 2");
    game_free(&g);
    if (!game_init(&g, variant_by_name(SS), "k7/8/8/8/8/6m1/4M3/2m1K3 w - - 0 1", err, sizeof err))
        return;
    CHECK(play_moves(&g, "e2e4 c1e3"));
    CHECK_EQ_STR(fen_of(&g.pos), "k7/8/8/8/4M3/4m1m1/8/4K3 w - - 2 2");
    game_free(&g);
}

TEST(ss_royal_double_step_and_en_passant)
{
    /* White's royal e2 (P); Black's royal a8 covers the a-file and rank 8.
     * (a) Black man d4 (P) covers c3 and e3: e2e3 walks into its capture, and e2e4 would let it
     *     take the royal en passant on e3: illegal although e4 itself is not attacked.  No
     *     move at all: White is stalemated. */
    CHECK_EQ_STR(ss_moves(SS, "k7/8/8/8/3m4/8/4K3/8 w - - 0 1", "e2"), "");
    Position pos;
    if (setup(&pos, SS, "k7/8/8/8/3m4/8/4K3/8 w - - 0 1"))
        CHECK(!pos_attacked(&pos, geo_parse_cell(pos.v->geo, "e4", NULL), BLACK));
    /* (b) Black man c4 covers b3 and d3 only: both steps are legal. */
    ss_check_both("k7/8/8/8/2m5/8/4K3/8 w - - 0 1", "e2", "e2e3 e2e4");
    /* (c) Black man g3 (R) attacks e3 along rank 3, as a rook, not as a pawn: e2e3 is refused,
     *     but the double step passes e3 safely (only a pawn-moving piece could take en passant). */
    ss_check_both("k7/8/8/8/8/6m1/4K3/8 w - - 0 1", "e2", "e2e4");
    /* (d) Black's royal itself on f4 (P) covers e3 and g3: the double step is refused too. */
    CHECK_EQ_STR(ss_moves(SS, "8/8/8/8/5k2/8/4K3/8 w - - 0 1", "e2"), "");
    /* (e) The same for Black: royal d7, White man e5 (P) covers d6 and f6. */
    CHECK_EQ_STR(ss_moves(SS, "8/3k4/8/4M3/8/8/8/K7 b - - 0 1", "d7"), "");
    CHECK_EQ_STR(ss_moves(SS, "8/3k4/8/5M2/8/8/8/K7 b - - 0 1", "d7"), "d7d5 d7d6");
}

/* ------------------------------------------------------------------------------------------ */
/* Check. */

TEST(ss_check_by_a_pawn_capture)
{
    Position pos;
    char buf[512];
    /* White's royal e3 (B) and Black's man d4 (P): Black's pawn capture covers c3 and e3, so
     * White is in check, though d4's mark gives it no other attack.  The royal leaves along its
     * diagonals (d2 c1, f2 g1, f4 g5 h6) or takes d4; none of those is covered. */
    if (setup(&pos, SS, "k7/8/8/8/3m4/4K3/8/8 w - - 0 1")) {
        CHECK(pos_in_check(&pos));
        CHECK_EQ_STR(legal_moves_text(&pos, NULL, buf, sizeof buf), "e3c1 e3d2 e3d4 e3f2 e3f4 e3g1 e3g5 e3h6");
    }
    /* A Black man on e4 (straight ahead) does not cover e3: no check. */
    if (setup(&pos, SS, "k7/8/8/8/4m3/4K3/8/8 w - - 0 1"))
        CHECK(!pos_in_check(&pos));
    /* Black's man d2 (P, Black moves down) covers c1 and e1: White's royal e1 is in check. */
    if (setup(&pos, SS, "k7/8/8/8/8/8/3m4/4K3 w - - 0 1"))
        CHECK(pos_in_check(&pos));
    /* White's man d2 covers c3 and e3 (upward), not c1/e1: Black's royal e1 is safe from it. */
    if (setup(&pos, SS, "K7/8/8/8/8/8/3M4/4k3 b - - 0 1"))
        CHECK(!pos_in_check(&pos));
    /* A man on a K square covers its 8 neighbours: Black man h3 (K) checks g2. */
    if (setup(&pos, SS, "k7/8/8/8/8/7m/6K1/8 w - - 0 1"))
        CHECK(pos_in_check(&pos));
    /* FEN validation knows the same attacks: Black, not to move, in check by White's d5 (P,
     * covers c6 e6) on e6. */
    CHECK_EQ_STR(fen_error(SS, "8/8/4k3/3M4/8/8/8/K7 w - - 0 1"), "Black, not to move, is in check");
}

/* ------------------------------------------------------------------------------------------ */
/* Castling. */

TEST(ss_castling_moves)
{
    /* White's royal e1 (Q): rank 1 b1 c1 d1, f1 g1; diagonals d2 c3 b4 (a5 is on the a-file of
     * Black's a8 rook-mover), f2 g3 (h4: h8's file).  Castling: both ways, written e1h1 and
     * e1a1 (b1 c1 d1 / f1 g1 empty; e1 d1 c1 / e1 f1 g1 not attacked).  e1g1 is also there, as
     * the royal's ordinary queen move. */
    ss_check_both(CASTLE_FEN, "e1", "e1a1 e1b1 e1b4 e1c1 e1c3 e1d1 e1d2 e1f1 e1f2 e1g1 e1g3 e1h1");
}

TEST(ss_castling_and_ordinary_e1g1_differ)
{
    Game g = {0};
    char err[200], buf[256];
    /* Castling: royal g1, corner man f1; White's rights gone; a quiet move (halfmove 1). */
    if (!game_init(&g, variant_by_name(SS), CASTLE_FEN, err, sizeof err))
        return;
    CHECK(play_moves(&g, "e1h1"));
    CHECK_EQ_STR(fen_of(&g.pos), "m3k2m/4m3/8/8/8/8/4M3/M4MK1 b kq - 1 1");
    /* Black castles the same way, then the pieces move as their new squares say: royal g1 (N)
     * leaps to f3 h3 (e2 is White's own; h8 has left the h-file); the man f1 (B) goes g2 h3
     * (e2 is White's). */
    CHECK(play_moves(&g, "e8h8"));
    CHECK_EQ_STR(fen_of(&g.pos), "m4mk1/4m3/8/8/8/8/4M3/M4MK1 w - - 2 2");
    CHECK_EQ_STR(legal_moves_text(&g.pos, "g1", buf, sizeof buf), "g1f3 g1h3");
    CHECK_EQ_STR(legal_moves_text(&g.pos, "f1", buf, sizeof buf), "f1g2 f1h3");
    /* Black's royal g8 (N): f6 h6 (e7 own); man f8 (B): g7 h6 (e7 own). */
    CHECK(play_moves(&g, "g1f3"));
    CHECK_EQ_STR(legal_moves_text(&g.pos, "g8", buf, sizeof buf), "g8f6 g8h6");
    CHECK_EQ_STR(legal_moves_text(&g.pos, "f8", buf, sizeof buf), "f8g7 f8h6");
    game_free(&g);
    /* The ordinary move e1g1: the royal alone goes to g1, h1 stays; rights gone as well. */
    if (!game_init(&g, variant_by_name(SS), CASTLE_FEN, err, sizeof err))
        return;
    CHECK(play_moves(&g, "e1g1"));
    CHECK_EQ_STR(fen_of(&g.pos), "m3k2m/4m3/8/8/8/8/4M3/M5KM b kq - 1 1");
    game_free(&g);
    /* Queen-side: royal c1, corner man d1. */
    if (!game_init(&g, variant_by_name(SS), CASTLE_FEN, err, sizeof err))
        return;
    CHECK(play_moves(&g, "e1a1"));
    CHECK_EQ_STR(fen_of(&g.pos), "m3k2m/4m3/8/8/8/8/4M3/2KM3M b kq - 1 1");
    /* Black's e8 now: d8 d7 (the d-file of the man d1, a Q square), a4 (d1's diagonal) and h5
     * (h1's file) are covered, so no O-O-O (it passes d8); c8 b8 f8 g8 c6 b5 f7 g6 and O-O. */
    CHECK_EQ_STR(legal_moves_text(&g.pos, "e8", buf, sizeof buf), "e8b5 e8b8 e8c6 e8c8 e8f7 e8f8 e8g6 e8g8 e8h8");
    CHECK(play_moves(&g, "e8h8"));
    CHECK_EQ_STR(fen_of(&g.pos), "m4mk1/4m3/8/8/8/8/4M3/2KM3M w - - 2 2");
    game_free(&g);
}

TEST(ss_castling_illegal_in_out_through_check)
{
    /* Out of check: Black's man d2 (P) covers c1 and e1.  e1 escapes to d1 b1 (c1 covered) f1
     * g1, takes d2, or goes f2 g3 (h4 covered); nothing else answers a pawn-capture check. */
    ss_check_both("m3k2m/4m3/8/8/8/8/3mM3/M3K2M w KQkq - 0 1", NULL, "e1b1 e1d1 e1d2 e1f1 e1f2 e1g1 e1g3");
    /* Through check: Black's man g2 covers f1 and h1.  No O-O (e1h1) and no e1f1; but e1g1,
     * an ordinary slide past f1 onto the safe g1, is legal. */
    ss_check_both("m3k2m/4m3/8/8/8/8/4M1m1/M3K2M w KQkq - 0 1", "e1",
                  "e1a1 e1b1 e1b4 e1c1 e1c3 e1d1 e1d2 e1f2 e1g1 e1g3");
    /* Into check: Black's man h2 covers g1: neither O-O nor e1g1. */
    ss_check_both("m3k2m/4m3/8/8/8/8/4M2m/M3K2M w KQkq - 0 1", "e1",
                  "e1a1 e1b1 e1b4 e1c1 e1c3 e1d1 e1d2 e1f1 e1f2 e1g3");
    /* Queen-side through check: Black's man c2 covers b1 and d1: no O-O-O, no e1b1 e1d1. */
    ss_check_both("m3k2m/4m3/8/8/8/8/2m1M3/M3K2M w KQkq - 0 1", "e1",
                  "e1b4 e1c1 e1c3 e1d2 e1f1 e1f2 e1g1 e1g3 e1h1");
    /* b1 attacked is no bar (the royal neither passes nor lands there): Black's man a2 covers
     * b1 only.  O-O-O stays, e1b1 goes. */
    ss_check_both("m3k2m/4m3/8/8/8/8/m3M3/M3K2M w KQkq - 0 1", "e1",
                  "e1a1 e1b4 e1c1 e1c3 e1d1 e1d2 e1f1 e1f2 e1g1 e1g3 e1h1");
    /* Squares between not empty: a White man on b1 blocks O-O-O (and e1b1). */
    ss_check_both("m3k2m/4m3/8/8/8/8/4M3/MM2K2M w KQkq - 0 1", "e1",
                  "e1b4 e1c1 e1c3 e1d1 e1d2 e1f1 e1f2 e1g1 e1g3 e1h1");
}

TEST(ss_castling_after_moves_illegal)
{
    Game g = {0};
    char err[200], buf[256];
    /* The corner men a1 and a8 go to d1/d8 (Q squares) and back along their ranks: the
     * position is the same but the Q and q rights are gone. */
    if (!game_init(&g, variant_by_name(SS), CASTLE_FEN, err, sizeof err))
        return;
    CHECK(play_moves(&g, "a1d1 a8d8 d1a1 d8a8"));
    CHECK_EQ_STR(fen_of(&g.pos), "m3k2m/4m3/8/8/8/8/4M3/M3K2M w Kk - 4 3");
    CHECK_EQ_STR(legal_moves_text(&g.pos, "e1", buf, sizeof buf),
                 "e1b1 e1b4 e1c1 e1c3 e1d1 e1d2 e1f1 e1f2 e1g1 e1g3 e1h1");
    game_free(&g);
    /* White's royal goes e1d1 and back (Black's a8d8 gives check along the d-file, d1e1
     * answers it, d8a8): White has no castling left, Black keeps k. */
    if (!game_init(&g, variant_by_name(SS), CASTLE_FEN, err, sizeof err))
        return;
    CHECK(play_moves(&g, "e1d1 a8d8 d1e1 d8a8"));
    CHECK_EQ_STR(fen_of(&g.pos), "m3k2m/4m3/8/8/8/8/4M3/M3K2M w k - 4 3");
    CHECK_EQ_STR(legal_moves_text(&g.pos, "e1", buf, sizeof buf), "e1b1 e1b4 e1c1 e1c3 e1d1 e1d2 e1f1 e1f2 e1g1 e1g3");
    game_free(&g);
}

TEST(ss_castling_reversed)
{
    /* square-says-reversed: Black's royal d8 (Q), men d7 and e2 close the d- and e-files.
     * d8: rank 8 c8 b8, e8 f8 g8; diagonals c7 b6 (a5: a1's a-file), e7 f6 g5 (h4: h1's file,
     * and e1's diagonal).  Castling d8h8 (e8 f8 g8 empty, d8 e8 f8 safe) and d8a8 (b8 c8
     * empty, d8 c8 b8 safe). */
    const char *fen = "m2k3m/3m4/8/8/8/8/3MM3/M3K2M b KQkq - 0 1";
    CHECK_EQ_STR(ss_moves(SSR, fen, "d8"), "d8a8 d8b6 d8b8 d8c7 d8c8 d8e7 d8e8 d8f6 d8f8 d8g5 d8g8 d8h8");
    Game g = {0};
    char err[200], buf[256];
    if (!game_init(&g, variant_by_name(SSR), fen, err, sizeof err))
        return;
    char san[MOVE_TEXT_MAX];
    move_to_san(&g.pos, parse_move(&g.pos, "d8h8", err, sizeof err), san);
    CHECK_EQ_STR(san, "O-O");
    move_to_san(&g.pos, parse_move(&g.pos, "d8a8", err, sizeof err), san);
    CHECK_EQ_STR(san, "O-O-O");
    /* O-O: royal d8 -> f8, corner h8 -> e8. */
    CHECK(play_moves(&g, "O-O"));
    CHECK_EQ_STR(fen_of(&g.pos), "m3mk2/3m4/8/8/8/8/3MM3/M3K2M w KQ - 1 2");
    CHECK(play_moves(&g, "e1h1"));
    /* Royal f8 (B): e7 d6 c5 b4 a3, g7 h6; a3 is on the a-file of White's a1 (R), the rest
     * is not covered (White: g1 N, f1 B, d2 e2 P). */
    CHECK_EQ_STR(legal_moves_text(&g.pos, "f8", buf, sizeof buf), "f8b4 f8c5 f8d6 f8e7 f8g7 f8h6");
    game_free(&g);
    /* O-O-O: royal d8 -> b8, corner a8 -> c8. */
    if (!game_init(&g, variant_by_name(SSR), fen, err, sizeof err))
        return;
    CHECK(play_moves(&g, "d8a8"));
    CHECK_EQ_STR(fen_of(&g.pos), "1km4m/3m4/8/8/8/8/3MM3/M3K2M w KQ - 1 2");
    game_free(&g);
    /* O-O through e8 covered by White's e1 (no e2 man): refused; O-O-O stays. */
    CHECK_EQ_STR(ss_moves(SSR, "m2k3m/3m4/8/8/8/8/3M4/M3K2M b KQkq - 0 1", "d8"),
                 "d8a8 d8b6 d8b8 d8c7 d8c8 d8f6 d8f8 d8g5 d8g8");
    /* The reversed start: the royal on d8 has no move, but the FEN rights are read. */
    Position pos;
    if (setup(&pos, SSR, NULL))
        CHECK_EQ_STR(fen_of(&pos), "mmmkmmmm/mmmmmmmm/8/8/8/8/MMMMMMMM/MMMMKMMM w KQkq - 0 1");
}

/* ------------------------------------------------------------------------------------------ */
/* No promotion. */

TEST(ss_no_promotion)
{
    /* White man e7 (P) steps to e8 and stays a man: one move, no promotion letter.  On e8 (Q)
     * it moves as a queen: it gives check along rank 8 to a8. */
    Game g = {0};
    char err[200], buf[256];
    if (!game_init(&g, variant_by_name(SS), "k7/4M3/8/8/8/8/8/7K w - - 0 1", err, sizeof err))
        return;
    CHECK_EQ_STR(legal_moves_text(&g.pos, "e7", buf, sizeof buf), "e7e8");
    char san[MOVE_TEXT_MAX];
    move_to_san(&g.pos, parse_move(&g.pos, "e7e8", err, sizeof err), san);
    CHECK_EQ_STR(san, "e7-e8+");
    CHECK(parse_move(&g.pos, "e7e8q", err, sizeof err) == MOVE_NONE);
    CHECK(play_moves(&g, "e7e8"));
    CHECK_EQ_STR(fen_of(&g.pos), "k3M3/8/8/8/8/8/8/7K b - - 1 1");
    CHECK(pos_in_check(&g.pos));
    game_free(&g);
}
