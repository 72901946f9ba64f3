/*
 * The engine finds mates in one and two in every variant and always answers with a legal
 * move.  The positions come from random self-play; each test first proves with the rules
 * core's exhaustive mate search (mate.c, independent of the engine) that the mate exists.
 */
#include "../../src/core/mate.h"
#include "../../src/engine/search.h"
#include "helpers.h"
#include "test.h"

static void check_mate_found(const char *variant, const char *fen, int moves)
{
    Game g = {0};
    char err[200];
    if (!game_init(&g, variant_by_name(variant), fen, err, sizeof err)) {
        test_fail(__FILE__, __LINE__, "%s: %s", fen, err);
        return;
    }
    if (!mate_within(&g.pos, moves))
        test_fail(__FILE__, __LINE__, "%s %s: no forced mate in %d", variant, fen, moves);
    Engine e;
    if (!engine_init(&e, 8))
        return;
    SearchLimits limits = {.depth = 2 * moves + 1};
    SearchResult r = search_run(&e, &g, &limits, NULL);
    if (r.score != SCORE_MATE - (2 * moves - 1))
        test_fail(__FILE__, __LINE__, "%s %s: score %d, expected mate in %d", variant, fen, r.score, moves);
    /* The move chosen keeps the forced mate (mate in one: it mates at once). */
    if (!move_mates_within(&g.pos, r.best, moves))
        test_fail(__FILE__, __LINE__, "%s %s: the engine's move does not mate in %d", variant, fen, moves);
    engine_free(&e);
    game_free(&g);
}

TEST(engine_mates_in_one)
{
    check_mate_found("chess", "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1", 1);
    check_mate_found("starvation", "1Qrk3r/7N/p1ppP1n1/2R4b/2Pn3p/1P1P3P/Q3B3/5K1R w - - 1 49", 1);
    check_mate_found("square-says", "1mmm2m1/mm1kM1mm/3m3m/mM5m/Mm1M2mM/3M1M2/1M1MM1MM/MM1K1M2 w - - 7 22", 1);
    check_mate_found("starchess", "1/2/K1P2pk/3pp1/QPN2/R2npq/BP2p1b/2/1[] w 0 5", 1);
    /* The setup of the example: 1. N4-13 mates at once (the knight checks 21, and
     * every cell around the black king is its own piece). */
    check_mate_found("starchess", "1/2/NP3pr/BP2pq/KP1pk/QP2pb/RP3pn/2/1[] w 0 1", 1);
    check_mate_found("starchess-ludii", "1/2/NP3pr/BP2pq/KP1pk/QP2pb/RP3pn/2/1[] w - 0 1", 1);
    /* Built by hand: Black's king on the upper tip Ua1 can go only to Ub1 and Ub2; the rook on
     * Ue8 covers Ub1 along Ud3-Uc2-Ub1, and Ud2-Ud4 checks along Uc3-Ub2-Ua1. */
    check_mate_found("megastar", "k/2/3/1R2/3R1/6/7/8/9/10/11/12/13/13/12/11/10/4K4/8/7/6/5/4/3/2/1 w - 0 1", 1);
}

TEST(engine_mates_in_two)
{
    check_mate_found("chess", "N3k3/bn6/R1P4B/3B1p1P/2KP2QP/1r6/2N5/2r2R2 w - - 23 70", 2);
    check_mate_found("chess", "8/6n1/nr1P3r/p2k2P1/3p3p/7P/3K4/1r6 b - - 6 74", 2);
    check_mate_found("starvation", "1nbk4/6Q1/p3r3/Pp1ppp1p/1pP1P1BP/1P1P1NP1/3Kn3/8 w - - 2 43", 2);
    check_mate_found("starvation", "7k/7B/p1P5/P5Pp/1p6/1K6/8/8 w - - 2 73", 2);
    check_mate_found("square-says", "m3Mm2/mm1mm1m1/8/1m1k1mm1/m2mm3/mM1MM3/M1M1KMM1/1M1M1MM1 w - - 2 25", 2);
    check_mate_found("square-says-reversed", "5m2/3km3/mm1M3m/1m2M3/mM1M2m1/3M4/MM1m1KMM/8 w - - 8 37", 2);
    check_mate_found("starchess", "q/2/1K1P3/2r2k/2ppr/2R3/1Q5/2/1[] b 8 36", 2);
    check_mate_found("starchess-ludii", "B/2/1R2q1Q/5b/3p1/2p2k/K2P1pr/2/1[] w - 11 26", 2);
    /* From engine self-play at 60 ms a move (positions where it announced mate in 2). */
    check_mate_found("megastar",
                     "1/2/3/4/5/6/7/3B4/4L4/4P5/5PR4/12/13/1L6R3L/12/7k3/10/4K4/4L3/7/6/5/4/3/2/1 w - 1 108", 2);
    check_mate_found("megastar",
                     "1/2/3/4/5/6/7/4r3/7p1/2L4pK1/11/7c3l/13/9bll1/7p4/11/5Bnb2/7p1/8/2P1k2/6/4r/4/3/2/1 b - 1 96",
                     2);
}

/* In a random game of every variant, the engine's move is always one of the legal moves. */
TEST(engine_always_answers_with_a_legal_move)
{
    Engine e;
    if (!engine_init(&e, 4))
        return;
    uint64_t seed = 12345;
    for (int i = 0; i < variant_count(); i++) {
        Game g = {0};
        char err[200];
        if (!game_init(&g, variant_at(i), NULL, err, sizeof err))
            continue;
        for (int ply = 0; ply < 16 && game_status(&g).kind == RESULT_NONE; ply++) {
            SearchLimits limits = {.depth = 2};
            SearchResult r = search_run(&e, &g, &limits, NULL);
            Move moves[MAX_MOVES];
            int n = gen_legal(&g.pos, moves), found = 0;
            for (int k = 0; k < n; k++)
                found |= moves[k] == r.best;
            CHECK(found);
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            game_play(&g, ply % 2 ? moves[(seed >> 33) % (uint64_t)n] : r.best);
        }
        game_free(&g);
    }
    engine_free(&e);
}

/* The nodes a depth-limited search of a variant's start position visits. */
static uint64_t start_nodes(Engine *e, const char *variant, int depth)
{
    Game g = {0};
    char err[200];
    if (!game_init(&g, variant_by_name(variant), NULL, err, sizeof err)) {
        test_fail(__FILE__, __LINE__, "%s: %s", variant, err);
        return 0;
    }
    SearchLimits limits = {.depth = depth};
    uint64_t nodes = search_run(e, &g, &limits, NULL).nodes;
    game_free(&g);
    return nodes;
}

/* After engine_new_game a search is the one a new engine makes: nothing the games before it
 * learnt is left (the tables, the histories, the continuation histories, whose memory a game
 * of another variant goes on using when the new table fits in it). */
TEST(engine_new_game_forgets_the_games_before)
{
    Engine fresh, used;
    if (!engine_init(&fresh, 1) || !engine_init(&used, 1))
        return;
    uint64_t chess = start_nodes(&fresh, "chess", 7);
    engine_new_game(&fresh);
    uint64_t starvation = start_nodes(&fresh, "starvation", 6);
    start_nodes(&used, "megastar", 4);
    engine_new_game(&used);
    CHECK_EQ_INT(start_nodes(&used, "chess", 7), chess);
    engine_new_game(&used);
    start_nodes(&used, "chess", 8);
    engine_new_game(&used);
    CHECK_EQ_INT(start_nodes(&used, "starvation", 6), starvation);
    engine_free(&fresh);
    engine_free(&used);
}
