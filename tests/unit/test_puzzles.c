/*
 * Puzzles: the proof's main line and best defence (mate.c), the puzzle files of data/puzzles/
 * (every line checked, at least 50 a game), and the judging of a player's moves.
 */
#include <string.h>
#include <sys/stat.h>

#include "../../src/core/mate.h"
#include "../../src/core/notation.h"
#include "../../src/server/puzzle_service.h"
#include "helpers.h"
#include "test.h"

/* A chess mate in 2 found in self-play: 1. Qe3+ and mate next move. */
#define MATE_IN_2 "r7/ppp1N2B/8/4p3/1b1k4/4n1Q1/PPPP4/R1B1K3 w Q - 6 26"

TEST(mate_line_and_best_defence)
{
    Position pos;
    if (!setup(&pos, "chess", MATE_IN_2))
        return;
    Move line[2 * MATE_MOVES_MAX];
    CHECK_EQ_INT(mate_line(&pos, 3, line), 3); /* the shortest mate, though 3 were allowed */
    char text[MOVE_TEXT_MAX];
    move_to_text(&pos, line[0], text);
    CHECK_EQ_STR(text, "g3e3");
    CHECK_EQ_STR(fen_of(&pos), MATE_IN_2); /* the position is left as it was */
    Undo u[3];
    for (int i = 0; i < 3; i++)
        pos_make(&pos, line[i], &u[i]);
    Move none[MAX_MOVES];
    CHECK(pos_in_check(&pos) && gen_legal(&pos, none) == 0);
    for (int i = 2; i >= 0; i--)
        pos_unmake(&pos, line[i], &u[i]);
    /* After a move that does not mate in time, the defence escapes: *left is 0. */
    int left;
    Undo w;
    Move slow = parse_move(&pos, "a2a3", text, sizeof text);
    pos_make(&pos, slow, &w);
    CHECK(mate_best_defence(&pos, 1, &left) != MOVE_NONE);
    CHECK_EQ_INT(left, 0);
    pos_unmake(&pos, slow, &w);
    CHECK_EQ_INT(mate_line(&pos, 1, line), 0); /* no mate in 1 */
}

/* The state a puzzle is in after the player's moves, why in `why`; -1 for a bad request. */
static int answer(const Puzzle *p, const char *const *moves, int n, char *why, size_t len)
{
    PuzzleAnswer a;
    char message[200];
    if (puzzle_answer(p, moves, n, &a, message, sizeof message) != GAME_OK) {
        snprintf(why, len, "%s", message);
        return -1;
    }
    snprintf(why, len, "%s", a.why);
    game_free(&a.game);
    return a.state;
}

TEST(puzzle_judging)
{
    Puzzle p = {.v = variant_by_name("chess"), .number = 1, .fen = MATE_IN_2, .mate = 2, .keys = "g3e3",
                .line = "g3e3 d4c4 h7d3"};
    char why[300];
    const char *wrong[] = {"a2a3"};
    CHECK_EQ_INT(answer(&p, wrong, 1, why, sizeof why), PUZZLE_FAILED);
    CHECK(strstr(why, "after a3, Black escapes with") != NULL);
    const char *key[] = {"g3e3"};
    CHECK_EQ_INT(answer(&p, key, 1, why, sizeof why), PUZZLE_GOES_ON);
    /* The proof's main line (the best defence, then the mate): solved. */
    Position pos;
    setup(&pos, "chess", MATE_IN_2);
    Move best[2 * MATE_MOVES_MAX];
    mate_line(&pos, 2, best);
    char moves[3][MOVE_TEXT_MAX];
    const char *mine[3];
    Undo u[3];
    for (int i = 0; i < 3; i++) {
        move_to_text(&pos, best[i], moves[i]);
        pos_make(&pos, best[i], &u[i]);
        mine[i] = moves[i];
    }
    CHECK_EQ_INT(answer(&p, mine, 3, why, sizeof why), PUZZLE_SOLVED);
    const char *even[] = {"g3e3", "d4d5"};
    CHECK_EQ_INT(answer(&p, even, 2, why, sizeof why), -1);
    CHECK(strstr(why, "an odd number") != NULL);
    const char *illegal[] = {"e1e3"};
    CHECK_EQ_INT(answer(&p, illegal, 1, why, sizeof why), -1);
    CHECK_EQ_STR(why, "move 1: illegal move 'e1e3'");
}

/* Every puzzle file reads (each line proven: keys legal, the line a mate in N), 50 a game. */
TEST(puzzle_files)
{
    char err[512] = "";
    CHECK(puzzles_load("data/puzzles", err, sizeof err));
    CHECK_EQ_STR(err, "");
    const char *games[] = {"chess", "starvation", "square-says", "starchess", "megastar"};
    for (int i = 0; i < 5; i++)
        if (puzzles_count(variant_by_name(games[i])) < 50)
            test_fail(__FILE__, __LINE__, "%s has %d puzzles, not 50", games[i], puzzles_count(variant_by_name(games[i])));
    puzzles_free();
    /* A wrong line is refused, naming the file and the line. */
    mkdir("build/bad-puzzles", 0755); /* or it is there already */
    FILE *f = fopen("build/bad-puzzles/chess.epd", "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fprintf(f, "# a comment\n%s;mate 2;keys g3e3;line g3e3 d4d5 a2a3;proof x;source y\n", MATE_IN_2);
    fclose(f);
    CHECK(!puzzles_load("build/bad-puzzles", err, sizeof err));
    CHECK_EQ_STR(err, "build/bad-puzzles/chess.epd line 2: the line is not a mate in 2: g3e3 d4d5 a2a3");
    remove("build/bad-puzzles/chess.epd");
}
