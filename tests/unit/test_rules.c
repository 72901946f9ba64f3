/*
 * The rules core on cell sets, checked against its own definitions on random games of every
 * variant (from the start and from the perft suites' hardest positions):
 *   - legal generation, which decides most moves by check and pin masks, equals making every
 *     pseudo-legal move and keeping those after which the mover's royal piece is safe, and so
 *     does pos_make_if_legal move by move (the search's legality test);
 *   - counting the legal moves (perft's last ply) equals listing them;
 *   - gen_captures lists exactly the captures and promotions of gen_pseudo, in its order;
 *   - make and unmake keep every set, count, key and score sum equal to a recount from the
 *     mailbox (pos_is_ok), with the engine's score table attached;
 *   - the evaluation's mobility counts the same moves as pseudo-legal generation.
 */
#include <stdlib.h>
#include <string.h>

#include "../../src/core/rules.h"
#include "../../src/engine/eval.h"
#include "../../src/util/rng.h"
#include "helpers.h"
#include "test.h"

static int compare_moves(const void *a, const void *b)
{
    Move x = *(const Move *)a, y = *(const Move *)b;
    return x < y ? -1 : x > y;
}

/* pos_make_if_legal against make-and-test: it makes the move exactly when that is legal,
 * and otherwise leaves the position as it was (every byte).  pos_gives_check leaves it as it
 * was too, and says whether the opponent is in check once the move is made. */
static void check_make_if_legal(Position *pos, Move m, bool legal)
{
    Position before = *pos;
    bool gives_check = pos_gives_check(pos, m);
    CHECK(memcmp(pos, &before, sizeof before) == 0);
    Undo u;
    bool made = pos_make_if_legal(pos, m, &u, pos_in_check(pos));
    if (made) {
        CHECK(pos_in_check(pos) == gives_check);
        pos_unmake(pos, m, &u);
    }
    CHECK(memcmp(pos, &before, sizeof before) == 0);
    if (made != legal) {
        char text[MOVE_TEXT_MAX];
        move_to_text(pos, m, text);
        test_fail(__FILE__, __LINE__, "%s: pos_make_if_legal says %s is %s", fen_of(pos), text,
                  made ? "legal" : "illegal");
    }
}

/* gen_legal against make-and-test of every pseudo-legal move, and the count. */
static void check_legal(Position *pos)
{
    Move legal[MAX_MOVES], pseudo[MAX_MOVES], tested[MAX_MOVES];
    int n = gen_legal(pos, legal), np = gen_pseudo(pos, pseudo), nt = 0;
    for (int i = 0; i < np; i++) {
        bool ok = move_is_legal(pos, pseudo[i]);
        check_make_if_legal(pos, pseudo[i], ok);
        if (ok)
            tested[nt++] = pseudo[i];
    }
    qsort(legal, (size_t)n, sizeof(Move), compare_moves);
    qsort(tested, (size_t)nt, sizeof(Move), compare_moves);
    CHECK_EQ_INT(n, nt);
    for (int i = 0; i < n && i < nt; i++)
        if (legal[i] != tested[i]) {
            test_fail(__FILE__, __LINE__, "%s: legal generation differs from make-and-test", fen_of(pos));
            break;
        }
    CHECK_EQ_INT(count_legal_moves(pos), n);
}

/* gen_captures lists exactly gen_pseudo's captures and promotions (en passant included), in its
 * order (quiescence searches them; none in a setup phase). */
static void check_captures(const Position *pos)
{
    Move pseudo[MAX_MOVES], captures[MAX_MOVES];
    int np = gen_pseudo(pos, pseudo), nc = gen_captures(pos, captures), k = 0;
    for (int i = 0; i < np; i++)
        if (pos_is_noisy(pos, pseudo[i])) {
            if (k >= nc || captures[k] != pseudo[i]) {
                test_fail(__FILE__, __LINE__, "%s: gen_captures differs from gen_pseudo's captures", fen_of(pos));
                return;
            }
            k++;
        }
    CHECK_EQ_INT(nc, k);
}

/* Each piece's mobility and threats: the cells its ordinary pseudo-legal moves go to (a
 * promotion counted once) and the enemy pieces on them, counted for its own type only, for
 * pieces whose patterns never reach one cell twice (after the setup phase, when pieces move). */
static void check_mobility(const Position *pos)
{
    const Variant *v = pos->v;
    Move pseudo[MAX_MOVES];
    Position other = *pos;
    for (int side = 0; side < 2 && !pos->hand_total[WHITE] && !pos->hand_total[BLACK]; side++) {
        other.side = side;
        other.ep = other.ep_victim = NO_CELL;
        int np = gen_pseudo(&other, pseudo);
        CELLSET_EACH(c, &pos->by_side[side]) {
            if (v->types_apart >> PIECE_TYPE(pos->board[c]) & 1)
                continue;
            CellSet one = {{0}}, targets = {{0}};
            cellset_flip(&one, c);
            for (int i = 0; i < np; i++)
                if (MOVE_FROM(pseudo[i]) == c && MOVE_KIND(pseudo[i]) == MK_NORMAL &&
                    !cellset_has(&targets, MOVE_TO(pseudo[i])))
                    cellset_flip(&targets, MOVE_TO(pseudo[i]));
            int type = PIECE_TYPE(pos->board[c]);
            CellSet victims = cellset_and(&targets, &pos->by_side[side ^ 1]);
            uint32_t every = (2u << v->ntypes) - 2, own[MAX_TYPES] = {0}, another[MAX_TYPES] = {0};
            own[type] = another[type == 1 ? 2 : 1] = every;
            PieceMoves m = pos_piece_moves(pos, &one, &targets, own);
            CHECK_EQ_INT(m.moves, cellset_count(&targets));
            CHECK_EQ_INT(m.zone_hits, cellset_count(&targets));
            CHECK_EQ_INT(m.threatened, cellset_count(&victims));
            CHECK_EQ_INT(pos_piece_moves(pos, &one, NULL, another).threatened, 0);
        }
    }
}

/* Random games from fen, every position checked; make and unmake checked at every ply. */
static void random_games(const char *variant, const char *fen, int games, int plies, uint64_t seed)
{
    Position start;
    if (!setup(&start, variant, fen))
        return;
    pos_attach_scores(&start, &eval_tables(start.v)->scores);
    for (int game = 0; game < games; game++) {
        Position pos = start;
        for (int ply = 0; ply < plies; ply++) {
            check_legal(&pos);
            check_captures(&pos);
            check_mobility(&pos);
            Move moves[MAX_MOVES];
            int n = gen_legal(&pos, moves);
            if (n == 0)
                break;
            Move m = moves[rng_below(&seed, (uint64_t)n)];
            Undo u;
            Position before = pos;
            pos_make(&pos, m, &u);
            CHECK(pos_is_ok(&pos));
            pos_unmake(&pos, m, &u);
            CHECK(pos_is_ok(&pos));
            CHECK_EQ_STR(fen_of(&pos), fen_of(&before));
            pos_make(&pos, m, &u);
        }
    }
}

/* The random games each test plays: its group, the variant, the start (NULL: the variant's
 * own), games and plies.  Row i plays with seed i + 1. */
static const struct GameSet {
    const char *group, *variant, *fen;
    int games, plies;
} game_sets[] = {
    {"chess", "chess", NULL, 12, 80},
    {"chess", "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 12, 60},
    {"chess", "chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 12, 60},
    {"chess", "chess", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 8, 40}, /* e.p. with discovered check */
    {"chess", "chess", "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 8, 40},
    {"starvation", "starvation", NULL, 12, 80},
    {"starvation", "starvation", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 12, 60},
    {"starvation", "starvation", "rnbqkbnr/8/8/3pp3/3PP3/8/8/RNBQKBNR w KQkq - 0 1", 12, 60},
    /* No pawns: Nxa5 takes the bishop that screens the king from the queen, and the knight is
     * removed, which opens the file: illegal. */
    {"starvation", "starvation", "q6k/8/8/b7/8/1N6/8/K7 w - - 0 1", 8, 30},
    {"square-says", "square-says", NULL, 12, 80},
    {"square-says", "square-says-reversed", NULL, 12, 80},
    {"square-says", "square-says", "4k3/1m1m1m1m/8/M1M1M1M1/1m1m1m1m/8/M1M1M1M1/4K3 w - - 0 1", 12, 60},
    {"square-says", "square-says", "8/3m1m2/8/4K3/2k5/8/1M1M4/8 w - - 0 1", 12, 60},
    {"square-says", "square-says", "m3k2m/1mmmmmm1/8/8/8/8/1MMMMMM1/M3K2M w KQkq - 0 1", 12, 60},
    {"starchess", "starchess", NULL, 12, 80},
    {"starchess", "starchess-ludii", NULL, 12, 80},
    {"starchess", "starchess-ludii", "1/2/RP1N2k/2Pp1q/B1npr/Q2Pp1/KP1p2b/2/1[] w 32 0 5", 12, 60},
    /* Setup phases with checks: placements on 11 and 17 alone block the bishop's check; the
     * king in hand may not be placed on 4, 11 or 17, which the bishop attacks. */
    {"starchess", "starchess", "1/2/K6/6/4k/1b4/7/2/1[QRBNqrn] w 0 1", 12, 40},
    {"starchess", "starchess", "1/2/7/6/4k/1b4/7/2/1[KQRBNqrn] w 0 1", 12, 40},
    {"megastar", "megastar", NULL, 6, 80},
    {"megastar", "megastar",
     "1/2/3/4/5/3p2/5pf/8/9/S1P3n3/2K5k2/2B1P3s3/1L3p5l1/1LL4p3ll/3B5bb1/11/2P5t1/6cp1/B6f/PN3np/5r/4R/"
     "4/3/2/1 b - 1 7",
     6, 60},
};

static void play_game_sets(const char *group)
{
    for (size_t i = 0; i < sizeof game_sets / sizeof game_sets[0]; i++)
        if (strcmp(game_sets[i].group, group) == 0)
            random_games(game_sets[i].variant, game_sets[i].fen, game_sets[i].games, game_sets[i].plies, i + 1);
}

TEST(rules_chess_masks_match_make_and_test)
{
    play_game_sets("chess");
}

TEST(rules_starvation_masks_match_make_and_test)
{
    play_game_sets("starvation");
}

TEST(rules_square_says_masks_match_make_and_test)
{
    play_game_sets("square-says");
}

TEST(rules_starchess_masks_match_make_and_test)
{
    play_game_sets("starchess");
}

TEST(rules_megastar_masks_match_make_and_test)
{
    play_game_sets("megastar");
}

/* A position's moves are decided by masks where they can be: in chess's start position none
 * is made and tested; an en passant capture is. */
TEST(rules_stats_count_the_fallback)
{
    Position pos;
    if (!setup(&pos, "chess", NULL))
        return;
    rules_stats = (RulesStats){0, 0};
    CHECK_EQ_INT(count_legal(&pos), 20);
    CHECK_EQ_INT(rules_stats.legal, 20);
    CHECK_EQ_INT(rules_stats.tested, 0);
    if (!setup(&pos, "chess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"))
        return;
    rules_stats = (RulesStats){0, 0};
    CHECK_EQ_INT(count_legal(&pos), 7);
    CHECK_EQ_INT(rules_stats.tested, 1);
}
