#include <pthread.h>
/* The rules core through orthodox chess: position text, notation, make/unmake, game ends. */
#include "helpers.h"
#include "test.h"

TEST(fen_round_trips)
{
    static const char *const fens[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "4k3/8/8/8/8/8/8/4K2R b K - 99 120",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        Position pos;
        if (setup(&pos, "chess", fens[i]))
            CHECK_EQ_STR(fen_of(&pos), fens[i]);
    }
    Position pos; /* the move counters may be left out */
    if (setup(&pos, "chess", "4k3/8/8/8/8/8/8/4K3 w - -"))
        CHECK_EQ_STR(fen_of(&pos), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

TEST(fen_errors_name_the_problem)
{
    CHECK_EQ_STR(fen_error("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq"),
                 "position text has 3 fields, expected 6 (or 4)");
    CHECK_EQ_STR(fen_error("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x"),
                 "position text has 7 fields, expected 6 (or 4)");
    CHECK_EQ_STR(fen_error("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"),
                 "unknown piece letter 'X' in the board");
    CHECK_EQ_STR(fen_error("chess", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
                 "row 3 of the board has more than 8 cells");
    CHECK_EQ_STR(fen_error("chess", "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
                 "the board has 7 rows, expected 8");
    CHECK_EQ_STR(fen_error("chess", "rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
                 "row 3 of the board has 7 cells, expected 8");
    CHECK_EQ_STR(fen_error("chess", "4k3/8/8/8/8/8/8/3KK3 w - - 0 1"), "White has 2 kings, expected 1");
    CHECK_EQ_STR(fen_error("chess", "8/8/8/8/8/8/8/4K3 w - - 0 1"), "Black has 0 kings, expected 1");
    CHECK_EQ_STR(fen_error("chess", "4k3/8/8/8/8/8/8/P3K3 w - - 0 1"),
                 "White pawn on a1: no pawn of that side can stand there");
    CHECK_EQ_STR(fen_error("chess", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
                 "White pawn on a8: no pawn of that side can stand there");
    CHECK_EQ_STR(fen_error("chess", "4k3/8/8/8/8/8/8/p3K3 b - - 0 1"),
                 "Black pawn on a1: no pawn of that side can stand there");
    CHECK_EQ_STR(fen_error("chess", "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"), "Black, not to move, is in check");
    CHECK_EQ_STR(fen_error("chess", "4k3/8/8/8/8/8/8/4K3 x - - 0 1"), "side to move must be 'w' or 'b', not 'x'");
    CHECK_EQ_STR(fen_error("chess", "4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
                 "castling right 'K' needs the king on e1 and its rook on h1");
    CHECK_EQ_STR(fen_error("chess", "4k3/8/8/8/8/8/8/4K2R w KZ - 0 1"), "bad castling field character 'Z'");
    CHECK_EQ_STR(fen_error("chess", "4k3/8/8/8/8/8/8/4K3 w - e3 0 1"), "en-passant cell e3 does not follow a double step");
    CHECK_EQ_STR(fen_error("chess", "4k3/8/8/8/8/8/8/4K3 w - z9 0 1"), "bad en-passant cell 'z9'");
    CHECK_EQ_STR(fen_error("chess", "4k3/8/8/8/8/8/8/4K3 w - - -1 1"), "bad move counters '-1 1'");
    CHECK_EQ_STR(fen_error("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 0"), "bad move counters '0 0'");
    CHECK_EQ_STR(fen_error("chess", ""), "position text has 0 fields, expected 6 (or 4)");
    CHECK_EQ_STR(fen_error("chess", "4k3/8/8/8/8/8/8/4K3[] w - - 0 1"), "this variant has no pieces in hand ('[' in the board)");
    /* A valid en-passant cell is accepted whether or not a capture is possible. */
    CHECK_EQ_STR(fen_error("chess", "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1"), "(accepted)");
}

/* Position text is read by many threads at once (the server's connections, the match
 * runner's games): two threads reading different variants' texts must never disturb each
 * other (a non-reentrant tokenizer once did). */
static void *read_fens(void *arg)
{
    const char *variant = arg;
    const Variant *v = variant_by_name(variant);
    const char *fen = strcmp(variant, "chess") == 0 ? "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
                                                    : "1/2/NP3pr/BP2pq/KP1pk/QP2pb/RP3pn/2/1[] w 0 1";
    long failures = 0;
    for (int i = 0; i < 20000; i++) {
        Position pos;
        char err[160];
        failures += !pos_set_fen(&pos, v, fen, err, sizeof err);
    }
    return (void *)failures;
}

TEST(fen_reading_is_thread_safe)
{
    pthread_t th;
    void *other = NULL;
    CHECK(pthread_create(&th, NULL, read_fens, "starchess") == 0);
    long mine = (long)read_fens("chess");
    pthread_join(th, &other);
    CHECK_EQ_INT(mine, 0);
    CHECK_EQ_INT((long)other, 0);
}

TEST(make_unmake_restores_everything)
{
    Position pos;
    if (!setup(&pos, "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"))
        return;
    CHECK_EQ_INT(check_make_unmake(&pos), 48);
}

TEST(coordinate_notation)
{
    Position pos;
    char buf[2048];
    if (!setup(&pos, "chess", "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1"))
        return;
    CHECK_EQ_STR(legal_moves_text(&pos, "b7", buf, sizeof buf), "b7a8b b7a8n b7a8q b7a8r b7b8b b7b8n b7b8q b7b8r");
    CHECK_EQ_STR(legal_moves_text(&pos, "e5", buf, sizeof buf), "e5d6 e5e6");
    CHECK_EQ_STR(legal_moves_text(&pos, "e1", buf, sizeof buf), "e1c1 e1d1 e1d2 e1e2 e1f1 e1f2 e1g1");
}

TEST(san_printing)
{
    Position pos;
    if (!setup(&pos, "chess", "r3k2r/1P6/8/3pP3/8/2N3N1/8/R3K2R w KQkq d6 0 1"))
        return;
    CHECK_EQ_STR(san_of(&pos, "e1g1"), "O-O");
    CHECK_EQ_STR(san_of(&pos, "e1c1"), "O-O-O");
    CHECK_EQ_STR(san_of(&pos, "e5d6"), "exd6");
    CHECK_EQ_STR(san_of(&pos, "b7a8q"), "bxa8=Q+");
    CHECK_EQ_STR(san_of(&pos, "b7b8n"), "b8=N");
    CHECK_EQ_STR(san_of(&pos, "c3e4"), "Nce4");  /* both knights reach e4: the file decides */
    CHECK_EQ_STR(san_of(&pos, "a1a7"), "Ra7");
    CHECK_EQ_STR(san_of(&pos, "h1h8"), "Rxh8+");
    if (!setup(&pos, "chess", "4k3/8/8/8/R7/8/8/R3K3 w - - 0 1"))
        return;
    CHECK_EQ_STR(san_of(&pos, "a1a2"), "R1a2"); /* same file: the rank decides */
    if (!setup(&pos, "chess", "8/8/7k/8/Q1Q5/8/Q7/4K3 w - - 0 1"))
        return;
    CHECK_EQ_STR(san_of(&pos, "a4b3"), "Qa4b3"); /* neither file nor rank alone */
    if (!setup(&pos, "chess", "7k/8/6Q1/8/8/8/8/K7 w - - 0 1"))
        return;
    CHECK_EQ_STR(san_of(&pos, "g6g7"), "Qg7+"); /* the king takes */
    if (!setup(&pos, "chess", "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1"))
        return;
    CHECK_EQ_STR(san_of(&pos, "b1b8"), "Qb8#");
}

TEST(san_parsing)
{
    Game g = {0};
    char err[200];
    if (!game_init(&g, variant_by_name("chess"), NULL, err, sizeof err))
        return;
    /* Captures with or without 'x', castling with letter O or digit 0, check signs. */
    CHECK(play_moves(&g, "e4 e5 Nf3 Nc6 Bb5 a6 Bc6 dxc6 O-O Bg4 d3 Qf6 Nbd2 0-0-0"));
    CHECK_EQ_INT(g.n, 14);
    CHECK_EQ_STR(fen_of(&g.pos), "2kr1bnr/1pp2ppp/p1p2q2/4p3/4P1b1/3P1N2/PPPN1PPP/R1BQ1RK1 w - - 3 8");
    CHECK(parse_move(&g.pos, "O-O", err, sizeof err) == MOVE_NONE);
    CHECK_EQ_STR(err, "unknown move 'O-O'");
    CHECK(parse_move(&g.pos, "Qf6f5", err, sizeof err) == MOVE_NONE);
    CHECK_EQ_STR(err, "illegal move 'Qf6f5': no white queen can move to f5");
    CHECK(parse_move(&g.pos, "e2e4", err, sizeof err) == MOVE_NONE);
    CHECK_EQ_STR(err, "illegal move 'e2e4'");
    CHECK(parse_move(&g.pos, "h3", err, sizeof err) != MOVE_NONE);
    CHECK(parse_move(&g.pos, "Nxe5", err, sizeof err) != MOVE_NONE);
    game_free(&g);
}

/* Compared loosely, SAN may leave out or add the hyphen, capture and promotion signs. */
TEST(san_loose_signs)
{
    Position pos;
    char err[200];
    if (!setup(&pos, "chess", "7k/P7/8/8/8/8/8/K4N2 w - - 0 1"))
        return;
    Move knight = parse_move(&pos, "f1e3", err, sizeof err);
    CHECK(knight != MOVE_NONE);
    CHECK(parse_move(&pos, "N-e3", err, sizeof err) == knight);
    CHECK(parse_move(&pos, "N:e3", err, sizeof err) == knight);
    Move queen = parse_move(&pos, "a7a8q", err, sizeof err);
    CHECK(queen != MOVE_NONE);
    CHECK(parse_move(&pos, "a8Q", err, sizeof err) == queen);
}

TEST(game_ends)
{
    CHECK_RESULT(status_after("chess", NULL, "f3 e5 g4 Qh4"), RESULT_BLACK_WINS, "checkmate");
    CHECK_RESULT(status_after("chess", NULL, "e4"), RESULT_NONE, "(none)");
    CHECK_RESULT(status_after("chess", "7k/8/6Q1/8/8/8/8/K7 w - - 0 1", "Qf7"), RESULT_DRAW, "stalemate");
    /* Threefold: the start position occurs a third time after 8 plies. */
    CHECK_RESULT(status_after("chess", NULL, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1"), RESULT_NONE, "(none)");
    CHECK_RESULT(status_after("chess", NULL, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8"), RESULT_DRAW, "repetition");
    CHECK_RESULT(status_after("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 99 80", "Ra2"), RESULT_DRAW, "fifty-move");
    CHECK_RESULT(status_after("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 98 80", "Ra2"), RESULT_NONE, "(none)");
    /* Mate on the 100th quiet ply is mate. */
    CHECK_RESULT(status_after("chess", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", "Ra8"), RESULT_WHITE_WINS, "checkmate");
    CHECK_RESULT(status_after("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", ""), RESULT_DRAW, "insufficient-material");
    CHECK_RESULT(status_after("chess", "4k3/8/8/8/8/8/8/4KN2 w - - 0 1", ""), RESULT_DRAW, "insufficient-material");
    CHECK_RESULT(status_after("chess", "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", ""), RESULT_DRAW, "insufficient-material");
    CHECK_RESULT(status_after("chess", "4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", ""), RESULT_NONE, "(none)");
    CHECK_RESULT(status_after("chess", "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", ""), RESULT_NONE, "(none)");
    CHECK_RESULT(status_after("chess", "4k3/8/8/8/8/8/5P2/4K3 w - - 0 1", ""), RESULT_NONE, "(none)");
}

TEST(repetition_counts_en_passant_only_when_capturable)
{
    /* After 1.e4 the e3 cell is written but no black pawn can take: the position after
     * 1.e4 Nf6 2.Nf3 Ng8 3.Ng1 Nf6 4.Nf3 Ng8 5.Ng1 has occurred... only twice with Black to
     * move and identical pieces if en passant is ignored, which it must be here. */
    CHECK_RESULT(status_after("chess", NULL, "e4 Nf6 Nf3 Ng8 Ng1 Nf6 Nf3 Ng8 Ng1"), RESULT_DRAW, "repetition");
    /* Here the first occurrence had a legal en-passant capture (d4 takes e3), so it differs
     * from the later ones: only two equal positions so far. */
    CHECK_RESULT(status_after("chess", "4k3/8/8/8/3p4/8/4P3/4K1N1 w - - 0 1", "e4 Ke7 Nf3 Ke8 Ng1 Ke7 Nf3 Ke8 Ng1"),
                 RESULT_NONE, "(none)");
    CHECK_RESULT(status_after("chess", "4k3/8/8/8/3p4/8/4P3/4K1N1 w - - 0 1", "e4 Ke7 Nf3 Ke8 Ng1 Ke7 Nf3 Ke8 Ng1 Ke7 Nf3 Ke8 Ng1"),
                 RESULT_DRAW, "repetition");
}

TEST(castling_rights_follow_king_and_rook_moves)
{
    Game g = {0};
    char err[200];
    if (!game_init(&g, variant_by_name("chess"), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", err, sizeof err))
        return;
    CHECK(play_moves(&g, "Rh2 Rxa1"));
    CHECK_EQ_STR(fen_of(&g.pos), "4k2r/8/8/8/8/8/7R/r3K3 w k - 0 2");
    game_free(&g);
    Position pos;
    char buf[1024];
    /* Castling out of, through or into check is illegal. */
    if (setup(&pos, "chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"))
        CHECK_EQ_STR(legal_moves_text(&pos, "e1", buf, sizeof buf), "e1c1 e1d1 e1d2 e1e2 e1f1 e1f2 e1g1");
    if (setup(&pos, "chess", "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1")) /* f1 covered: no O-O */
        CHECK_EQ_STR(legal_moves_text(&pos, "e1", buf, sizeof buf), "e1c1 e1d1 e1f2");
    if (setup(&pos, "chess", "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1")) /* in check: no castling */
        CHECK_EQ_STR(legal_moves_text(&pos, "e1", buf, sizeof buf), "e1d1 e1e2 e1f1");
    if (setup(&pos, "chess", "r3k2r/8/8/8/8/8/3r4/R3K2R w KQkq - 0 1")) /* d-file covered */
        CHECK_EQ_STR(legal_moves_text(&pos, "e1", buf, sizeof buf), "e1d2 e1f1 e1g1");
    if (setup(&pos, "chess", "r3k2r/8/8/8/8/8/1r6/R3K2R w KQkq - 0 1")) /* b1 attacked: O-O-O still fine */
        CHECK_EQ_STR(legal_moves_text(&pos, "e1", buf, sizeof buf), "e1c1 e1d1 e1f1 e1g1");
}
