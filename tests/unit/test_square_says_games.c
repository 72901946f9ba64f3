/*
 * Move as square says (shared/rules/square-says.md), continued from test_square_says.c: how
 * a game ends (no draws: the side with more captures wins where orthodox chess would draw), the
 * position text and notation, make and unmake, and small perft counts.  Every expected value is
 * derived by hand from the rules, with the derivation in a comment.
 */
#include <stdlib.h>

#include "helpers.h"
#include "square_says_test.h"
#include "test.h"

/* ------------------------------------------------------------------------------------------ */
/* The ends of the game. */

TEST(ss_checkmate)
{
    /* White's royal a1 (R) is shut in by its men a2 and b1; Black's b3 (R) steps to b2 (P),
     * whose pawn capture covers a1: check.  Nothing of White's covers b2 (a2 covers b3, b1 (N)
     * covers a3 c3 d2) and a pawn-capture check cannot be blocked: mate, Black wins. */
    const char *fen = "7k/8/8/8/8/1m6/M7/KM6 b - - 0 1";
    CHECK_RESULT(status_after(SS, fen, "b3b2"), RESULT_BLACK_WINS, "checkmate");
    Position pos;
    char san[MOVE_TEXT_MAX], err[200];
    if (setup(&pos, SS, fen)) {
        move_to_san(&pos, parse_move(&pos, "b3b2", err, sizeof err), san);
        CHECK_EQ_STR(san, "b3-b2#");
    }
    /* Mate wins though the mating side has captured fewer (White took 14, Black 13); before
     * b3-b2 the game goes on. */
    CHECK_RESULT(status_after(SS, fen, ""), RESULT_NONE, "(none)");
}

TEST(ss_stalemate_won_by_fewer_captures)
{
    /* White's royal c2 (P) is blocked by Black's man on c3 (N: it covers a2 a4 b1 b5 d1 d5 e2
     * e4, not c2) and has nothing to take on b3/d3: stalemate.  White took 15 - 1 = 14, Black
     * took 15 - 0 = 15: White captured fewer and wins. */
    CHECK_RESULT(status_after(SS, "7k/8/8/8/8/2m5/2K5/8 w - - 0 1", ""), RESULT_WHITE_WINS, "stalemate");
    /* Black's royal c7 (P) is blocked by White's royal c6 (N: covers a5 a7 b4 b8 d4 d8 e5 e7).
     * White's men a2 b2 are left: White took 15, Black 13: Black captured fewer and wins. */
    CHECK_RESULT(status_after(SS, "8/2k5/2K5/8/8/8/MM6/8 b - - 0 1", ""), RESULT_BLACK_WINS, "stalemate");
    /* Equal (15 each, bare royals, but stalemate comes first): Black wins. */
    CHECK_RESULT(status_after(SS, "8/2k5/2K5/8/8/8/8/8 b - - 0 1", ""), RESULT_BLACK_WINS, "stalemate");
    CHECK_RESULT(status_after(SS, "8/8/8/8/8/2k5/2K5/8 w - - 0 1", ""), RESULT_BLACK_WINS, "stalemate");
    /* Reached by a move: Black's d5 steps to d4 and White's royal e2 has nothing (d4 covers c3
     * and e3; e2e4 could be taken en passant).  White took 14, Black 15: White wins. */
    CHECK_RESULT(status_after(SS, "k7/8/8/3m4/8/8/4K3/8 b - - 0 1", "d5d4"), RESULT_WHITE_WINS, "stalemate");
}

TEST(ss_repetition_won_by_more_captures)
{
    /* From the start the knights go out and back twice: the start position stands a third
     * time after 8 plies.  0 captures each: Black wins. */
    CHECK_RESULT(status_after(SS, NULL, "b1c3 b8c6 c3b1 c6b8 b1c3 b8c6 c3b1"), RESULT_NONE, "(none)");
    CHECK_RESULT(status_after(SS, NULL, "b1c3 b8c6 c3b1 c6b8 b1c3 b8c6 c3b1 c6b8"), RESULT_BLACK_WINS,
                    "repetition");
    /* White has 9 men, Black none: White took 15, Black 6; Black's royal shuffles e8-d8 (Q
     * squares; d2 and e2 close the files).  White captured more: White wins. */
    const char *fen = "4k3/8/8/8/8/8/3MM3/MMMMKMMM w - - 0 1";
    CHECK_RESULT(status_after(SS, fen, "b1c3 e8d8 c3b1 d8e8 b1c3 e8d8 c3b1 d8e8"), RESULT_WHITE_WINS,
                    "repetition");
    /* The same for Black (the mirror): Black took 15, White 6: Black wins. */
    CHECK_RESULT(status_after(SS, "mmmmkmmm/3mm3/8/8/8/8/8/4K3 b - - 0 1",
                                    "b8c6 e1d1 c6b8 d1e1 b8c6 e1d1 c6b8 d1e1"),
                    RESULT_BLACK_WINS, "repetition");
}

TEST(ss_fifty_moves_won_by_more_captures)
{
    const char *fen99 = "4k3/8/8/8/8/8/3MM3/MMMMKMMM w - - 99 80";
    /* The 100th quiet ply: White (15 taken against 6) wins. */
    CHECK_RESULT(status_after(SS, fen99, "b1c3"), RESULT_WHITE_WINS, "fifty-move");
    CHECK_RESULT(status_after(SS, "4k3/8/8/8/8/8/3MM3/MMMMKMMM w - - 98 80", "b1c3"), RESULT_NONE, "(none)");
    /* A P-square move (even a double step) does not reset the counter. */
    CHECK_RESULT(status_after(SS, fen99, "d2d4"), RESULT_WHITE_WINS, "fifty-move");
    Game g = {0};
    char err[200];
    if (game_init(&g, variant_by_name(SS), "4k3/8/8/8/8/8/3MM3/MMMMKMMM w - - 5 80", err, sizeof err)) {
        CHECK(play_moves(&g, "d2d3"));
        CHECK_EQ_STR(fen_of(&g.pos), "4k3/8/8/8/8/3M4/4M3/MMMMKMMM b - - 6 80");
        game_free(&g);
    }
    /* A capture does: halfmove 99, White's d1 (Q) takes d7 up the d-file (d2 moved away). */
    CHECK_RESULT(status_after(SS, "4k3/3m4/8/8/8/8/4M3/MMMMKMMM w - - 99 80", "d1d7"), RESULT_NONE,
                    "(none)");
    /* Black ahead: Black took 15, White 6. */
    CHECK_RESULT(status_after(SS, "mmmmkmmm/3mm3/8/8/8/8/8/4K3 b - - 99 80", "b8c6"), RESULT_BLACK_WINS,
                    "fifty-move");
    /* Equal captures: Black wins.  Both sides keep 1 man (14 taken each). */
    CHECK_RESULT(status_after(SS, "k7/7m/8/8/8/8/1M6/7K w - - 99 80", "b2b3"), RESULT_BLACK_WINS,
                    "fifty-move");
    /* Mate on the 100th quiet ply is mate (the checkmate position above, halfmove 99). */
    CHECK_RESULT(status_after(SS, "7k/8/8/8/8/1m6/M7/KM6 b - - 99 80", "b3b2"), RESULT_BLACK_WINS,
                    "checkmate");
}

TEST(ss_bare_royals)
{
    /* Royal against royal (a8 and h1, R squares on no common line): a dead position; both
     * have taken 15, so Black wins. */
    CHECK_RESULT(status_after(SS, "k7/8/8/8/8/8/8/7K w - - 0 1", ""), RESULT_BLACK_WINS, "dead-position");
    /* Reached by White's capture of the last man (a1, which checks h1 along rank 1 and is not
     * covered by Black's royal b8 (N)): still 15 each, Black wins. */
    CHECK_RESULT(status_after(SS, "1k6/8/8/8/8/8/8/m6K w - - 0 1", "h1a1"), RESULT_BLACK_WINS,
                    "dead-position");
    /* One man left: not dead. */
    CHECK_RESULT(status_after(SS, "k7/8/8/8/8/8/7M/7K w - - 0 1", ""), RESULT_NONE, "(none)");
}

/* ------------------------------------------------------------------------------------------ */
/* Position text and notation. */

TEST(ss_fen_round_trips)
{
    static const struct {
        const char *variant, *fen;
    } cases[] = {
        {SS, "mmmmkmmm/mmmmmmmm/8/8/8/8/MMMMMMMM/MMMMKMMM w KQkq - 0 1"},
        {SSR, "mmmkmmmm/mmmmmmmm/8/8/8/8/MMMMMMMM/MMMMKMMM w KQkq - 0 1"},
        {SS, "mmmmkmmm/mmmmmmmm/8/8/4M3/8/MMMM1MMM/MMMMKMMM b KQkq e3 0 1"},
        {SS, "mmmmkmmm/mmm1mmmm/8/3m4/4M3/8/MMMM1MMM/MMMMKMMM w KQkq d6 2 2"},
        {SS, "m3k2m/4m3/8/8/8/8/4M3/M3K2M w Kq - 7 30"},
        {SSR, "m2k3m/3m4/8/8/8/8/3MM3/M3K2M b Qk - 0 1"},
        {SS, "k7/8/8/8/8/8/8/7K b - - 99 120"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Position pos;
        if (setup(&pos, cases[i].variant, cases[i].fen))
            CHECK_EQ_STR(fen_of(&pos), cases[i].fen);
    }
    /* Start positions are the variants' defaults. */
    Position pos;
    if (setup(&pos, SS, NULL))
        CHECK_EQ_STR(fen_of(&pos), "mmmmkmmm/mmmmmmmm/8/8/8/8/MMMMMMMM/MMMMKMMM w KQkq - 0 1");
    /* Letters: only K/k and M/m; one royal each. */
    CHECK_EQ_STR(fen_error(SS, "mmmmkmmm/mmmmmmmm/8/8/8/8/PPPPPPPP/MMMMKMMM w KQkq - 0 1"),
                 "unknown piece letter 'P' in the board");
    CHECK_EQ_STR(fen_error(SS, "mmmkmmmm/mmmmmmmm/8/8/8/8/MMMMMMMM/MMMMKMMM w KQkq - 0 1"),
                 "castling right 'k' needs the king on e8 and its rook on h8");
    CHECK_EQ_STR(fen_error(SS, "mmmmmmmm/mmmmmmmm/8/8/8/8/MMMMMMMM/MMMMKMMM w - - 0 1"),
                 "Black has 0 kings, expected 1");
    /* En passant field: the passed square of a double step by any piece (a man or the royal). */
    CHECK_EQ_STR(fen_error(SS, "k7/8/8/8/4K3/8/8/8 b - e3 0 1"), "(accepted)");
    CHECK_EQ_STR(fen_error(SS, "k7/8/8/8/4M3/8/8/7K b - e3 0 1"), "(accepted)");
    CHECK_EQ_STR(fen_error(SS, "k7/8/8/8/4M3/8/8/7K b - e6 0 1"), "en-passant cell e6 does not follow a double step");
    CHECK_EQ_STR(fen_error(SS, "k7/8/8/8/8/4M3/8/7K b - e3 0 1"), "en-passant cell e3 does not follow a double step");
    /* A royal that has just double stepped past a square an enemy pawn-mover covers is in
     * check ("a royal piece that double steps is in check when an enemy pawn-moving piece
     * covers the passed square"): such a text is refused. */
    CHECK_EQ_STR(fen_error(SS, "k7/8/8/8/3mK3/8/8/8 b - e3 0 1"), "White, not to move, is in check");
}

TEST(ss_long_algebraic)
{
    Game g = {0};
    char err[200], san[MOVE_TEXT_MAX];
    if (!game_init(&g, variant_by_name(SS), NULL, err, sizeof err))
        return;
    Move m = parse_move(&g.pos, "e2e4", err, sizeof err);
    move_to_san(&g.pos, m, san);
    CHECK_EQ_STR(san, "e2-e4");
    /* Long algebraic input is accepted too. */
    CHECK(play_moves(&g, "e2-e4 d7-d5"));
    m = parse_move(&g.pos, "e4d5", err, sizeof err);
    move_to_san(&g.pos, m, san);
    CHECK_EQ_STR(san, "e4xd5");
    /* The royal is prefixed with K: e1 (Q) to the emptied e2. */
    m = parse_move(&g.pos, "e1e2", err, sizeof err);
    CHECK(m != MOVE_NONE);
    move_to_san(&g.pos, m, san);
    CHECK_EQ_STR(san, "Ke1-e2");
    CHECK(play_moves(&g, "e4xd5 Ke8-d7"));
    CHECK_EQ_INT(g.n, 4);
    game_free(&g);
    /* Castling O-O / O-O-O, and the ordinary royal move e1g1 as Ke1-g1. */
    Position pos;
    if (setup(&pos, SS, CASTLE_FEN)) {
        move_to_san(&pos, parse_move(&pos, "e1h1", err, sizeof err), san);
        CHECK_EQ_STR(san, "O-O");
        move_to_san(&pos, parse_move(&pos, "e1a1", err, sizeof err), san);
        CHECK_EQ_STR(san, "O-O-O");
        move_to_san(&pos, parse_move(&pos, "e1g1", err, sizeof err), san);
        CHECK_EQ_STR(san, "Ke1-g1");
        char text[MOVE_TEXT_MAX];
        Move o = parse_move(&pos, "O-O", err, sizeof err);
        CHECK(o != MOVE_NONE);
        move_to_text(&pos, o, text);
        CHECK_EQ_STR(text, "e1h1");
        o = parse_move(&pos, "0-0-0", err, sizeof err);
        CHECK(o != MOVE_NONE);
        move_to_text(&pos, o, text);
        CHECK_EQ_STR(text, "e1a1");
    }
}

TEST(ss_make_unmake_restores_everything)
{
    /* Castling, en passant (d4xe3 and f4xe3 after e2-e4 in the first), royal double steps. */
    static const struct {
        const char *variant, *fen;
    } cases[] = {
        {SS, "m3k2m/4m3/8/8/3mMm2/8/8/M3K2M b KQkq e3 0 1"},
        {SSR, "m2k3m/3m4/8/8/8/8/3MM3/M3K2M b KQkq - 0 1"},
        {SS, "k7/8/8/8/2m5/8/4K3/8 w - - 0 1"},
        {SS, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Position pos;
        if (!setup(&pos, cases[i].variant, cases[i].fen))
            continue;
        CHECK(check_make_unmake(&pos) > 0);
    }
}

TEST(ss_perft_small)
{
    /* Counts checked against tools/square_says_reference.py (see tests/perft/square-says.epd).
     * Depth 1 by hand: 16 men on rank 2 with one and two steps, knights b1 (a3 c3) and g1 (f3
     * h3); everything else is blocked: 20. */
    Position pos;
    if (setup(&pos, SS, NULL)) {
        CHECK_EQ_INT(perft(&pos, 1), 20);
        CHECK_EQ_INT(perft(&pos, 3), 9991);
    }
    if (setup(&pos, SSR, NULL))
        CHECK_EQ_INT(perft(&pos, 4), 247911);
}
