/*
 * The Polgár notation of the Starchess documents (docs/polgar-notation.md), read by PGN import
 * and by parse_move: figurines, placements written cell first ("17 ♘"), a move left out
 * ("8. - ♘2!"), annotations, and errors naming the first move that cannot be read.
 */
#include "../../src/core/pgn.h"
#include "helpers.h"
#include "test.h"

/* The error a PGN text gets, or "(accepted)" (a static buffer). */
static const char *import_error(const char *pgn)
{
    static char err[300];
    Game g = {0};
    bool ok = game_from_pgn(&g, pgn, variant_by_name("starchess"), variant_by_name, err, sizeof err);
    game_free(&g);
    return ok ? "(accepted)" : err;
}

TEST(polgar_figurines_and_placements)
{
    Game g;
    if (!start_game(&g, "starchess", NULL))
        return;
    /* Placements: the figurine before or after the cell (in UTF-8, three bytes each). */
    CHECK(play_moves(&g, "♗17 21♗ 22♘ ♘27"));
    CHECK_EQ_STR(fen_of(&g.pos), "1/2/1P3p1/1P2p1/BP1pb/NP2pn/1P3p1/2/1[KQRkqr] w 0 1");
    CHECK_EQ_STR(parse_error(&g.pos, "22♘"), "illegal move '22♘': White has no knight in hand");
    CHECK_EQ_STR(parse_error(&g.pos, "♕17"), "illegal move '♕17': 17 is occupied");
    /* Black's figurines read as White's: the colour comes from the side to move. */
    CHECK(play_moves(&g, "♚4 ♜10 ♛28 ♛16 ♖11 ♔34"));
    /* Pawn moves by their destination alone, annotations ignored. */
    CHECK(play_moves(&g, "14"));
    CHECK_EQ_STR(parse_error(&g.pos, "x14!?"), "(accepted)");
    game_free(&g);
    Position pos;
    /* A figurine this variant has no piece for. */
    if (setup(&pos, "square-says", NULL))
        CHECK_EQ_STR(parse_error(&pos, "♘c3"), "unknown move '♘c3': a figurine that names no piece of square-says");
    if (setup(&pos, "chess", NULL)) {
        CHECK_EQ_STR(parse_error(&pos, "♘f3"), "(accepted)");
        CHECK_EQ_STR(parse_error(&pos, "♙e4"), "(accepted)");
        CHECK_EQ_STR(parse_error(&pos, "♗c4"), "illegal move '♗c4': no white bishop can move to c4");
    }
}

/* Two tokens, a cell and a piece sign, are one placement; a piece sign alone is never a move. */
TEST(polgar_placement_in_two_tokens)
{
    Game g;
    if (!start_game(&g, "starchess", NULL))
        return;
    char *tokens[] = {"17", "♘", "21", "N"};
    int used;
    char err[200];
    Move m = parse_move_tokens(&g.pos, tokens, 4, &used, err, sizeof err);
    CHECK(m != MOVE_NONE && used == 2);
    game_play(&g, m);
    m = parse_move_tokens(&g.pos, tokens + 2, 2, &used, err, sizeof err);
    CHECK(m != MOVE_NONE && used == 2);
    game_play(&g, m);
    m = parse_move_tokens(&g.pos, tokens, 2, &used, err, sizeof err); /* 17 is taken now */
    CHECK(m == MOVE_NONE);
    CHECK_EQ_STR(err, "illegal move '17♘': White has no knight in hand");
    game_free(&g);
}

TEST(polgar_record_import)
{
    const char *head = "[Variant \"starchess\"]\n\n";
    char pgn[1000];
    /* The setup and the first moves of the documents' sample game, as starfish reads it. */
    snprintf(pgn, sizeof pgn, "%sI. 17 ♗ 21 ♗ II. 22 ♘ 27 ♘ III. 4 ♔ 10 ♖ IV. 28 ♕ 16 ♕ V. 11 ♖ 34 ♔ "
             "1. 14 14 2. ♖14 25 3. ♖11 14 4. 24 7 5. 31 ♗37 6. ♗37 ♕37 7. 25 ♘9 8. 6 8. - ♘2! *", head);
    Game g = {0};
    char err[300];
    CHECK(game_from_pgn(&g, pgn, NULL, variant_by_name, err, sizeof err));
    CHECK_EQ_INT(g.n, 10 + 16);
    CHECK_EQ_STR(fen_of(&g.pos), "1/n1/K1Pp2r/R2p2/1P3/N1PP2/Q4pk/2/q[] w 1 9");
    game_free(&g);
    /* As printed, the glyphs name a second knight for White's second placement. */
    snprintf(pgn, sizeof pgn, "%sI. 17 ♘ 21 ♘ II. 22 ♘ 27 ♘ *", head);
    CHECK_EQ_STR(import_error(pgn), "move II. (White): illegal move '22♘': White has no knight in hand");
    /* Errors name the move's number, its side and why. */
    snprintf(pgn, sizeof pgn, "%sI. B17 B21 II. N22 N27 III. K4 R10 IV. Q28 Q16 V. R11 K34 1. 14 14 2. ♖2 *", head);
    CHECK_EQ_STR(import_error(pgn), "move 2. (White): illegal move '♖2': no white rook can move to 2");
    snprintf(pgn, sizeof pgn, "%sI. B17 B21 II. N22 N27 III. K4 R10 IV. Q28 Q16 V. R11 K34 1. 14 14 2. ♖14 Q4 *",
             head);
    CHECK_EQ_STR(import_error(pgn), "move 2... (Black): illegal move 'Q4': no black queen can move to 4");
    snprintf(pgn, sizeof pgn, "%sI. B17 B21 II. N22 N27 III. K4 R10 IV. Q28 Q16 V. R11 K34 1. - 14 *", head);
    CHECK_EQ_STR(import_error(pgn), "move 1. (White): '-' leaves out a move, but it is White's turn");
    snprintf(pgn, sizeof pgn, "%sI. B17 B21 II. N22 Q27 III. K22 R10 *", head);
    CHECK_EQ_STR(import_error(pgn), "move III. (White): illegal move 'K22': 22 is occupied");
}

/* The whole sample game of the documents, as docs/polgar-sample.pgn gives it: Black mates. */
TEST(polgar_sample_game_file)
{
    FILE *f = fopen("docs/polgar-sample.pgn", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char pgn[2000];
    size_t len = fread(pgn, 1, sizeof pgn - 1, f);
    fclose(f);
    pgn[len] = 0;
    Game g = {0};
    char err[300];
    CHECK(game_from_pgn(&g, pgn, NULL, variant_by_name, err, sizeof err));
    CHECK_EQ_INT(g.n, 10 + 24); /* the setup, then twelve moves each */
    GameResult r = game_status(&g);
    CHECK_EQ_STR(result_text(r.kind), "0-1");
    CHECK_EQ_STR(r.reason ? r.reason : "", "checkmate");
    game_free(&g);
}
