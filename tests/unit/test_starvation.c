/*
 * Starvation (shared/rules/starvation.md): after every move the moved piece is removed unless
 * (1) it is a pawn, (2) it moved from a square next to a pawn (board before the move), (3) it
 * moved to a square next to a pawn (board after the move), or (4) it captured a pawn.  Every
 * expected move list and result below is derived by hand in the comment above the test; the
 * positions are built so that one rule at a time decides.  "Next to" is the 8 king steps, and
 * a pawn of either colour counts.
 *
 * A recurring fact: a king that stands next to no pawn and cannot step next to one has no
 * move at all (each of its moves would remove it, which is illegal).  Most positions below
 * put the kings far from every pawn so that their moves drop out of the lists.
 */
#include <stdlib.h>

#include "../../src/core/mate.h"
#include "../../src/core/notation.h"

#include "helpers.h"
#include "test.h"

#define STARVATION "starvation"

/* The position text after playing `moves` from `fen` (empty on failure). */
static const char *fen_after(const char *fen, const char *moves, char *buf, size_t len)
{
    Game g = {0};
    buf[0] = 0;
    if (start_game(&g, STARVATION, fen) && play_moves(&g, moves))
        pos_fen(&g.pos, buf, len);
    game_free(&g);
    return buf;
}

/* The SAN of one move (given in coordinates) in fen, copied into buf. */
static const char *san_in(const char *fen, const char *move, char *buf)
{
    Position pos;
    strcpy(buf, "?");
    if (setup(&pos, STARVATION, fen))
        strcpy(buf, san_of(&pos, move));
    return buf;
}

/* The legal moves (all, or those from one cell) in fen. */
static const char *moves_in(const char *fen, const char *from, char *buf, size_t len)
{
    Position pos;
    buf[0] = 0;
    if (setup(&pos, STARVATION, fen))
        legal_moves_text(&pos, from, buf, len);
    return buf;
}

static char buf[4096];

/*
 * Condition 1, a pawn move.  Only pawn: e2, far from everything.  The White king a1 has no
 * pawn next to a1 (a2 b1 b2) nor next to any square it can reach, so each king move would
 * remove it: none is legal.  The pawn has e3 and e4, and survives although no pawn is next
 * to e2 or e4 and it captures nothing: pawns never starve.  After e2e4 the pawn is on e4 and
 * the writer notes the passed square e3.
 */
TEST(starv_pawn_move_survives)
{
    const char *fen = "k7/8/8/8/8/8/4P3/K7 w - - 0 1";
    CHECK_EQ_STR(moves_in(fen, NULL, buf, sizeof buf), "e2e3 e2e4");
    CHECK_EQ_STR(fen_after(fen, "e2e4", buf, sizeof buf), "k7/8/8/8/4P3/8/8/K7 b - e3 0 1");
}

/*
 * Condition 1 with promotion: the pawn e7 promotes (4 choices; the king a1 again has no
 * move).  The promoted piece survives although after the move no pawn is left on the board.
 * After e7e8q the queen on e8 attacks a8 along the empty rank (b8 c8 d8); the Black king a8
 * has no pawn near it, so each of its moves (a7 b7 b8) would remove it: no legal move, in
 * check: checkmate, 1-0.  After e7e8n (the knight on e8 does not attack a8) Black has no move
 * and is not in check: stalemate with no pawn next to the king, so Black LOSES, 1-0.
 */
TEST(starv_promotion_survives_as_new_piece)
{
    const char *fen = "k7/4P3/8/8/8/8/8/K7 w - - 0 1";
    CHECK_EQ_STR(moves_in(fen, NULL, buf, sizeof buf), "e7e8b e7e8n e7e8q e7e8r");
    CHECK_EQ_STR(fen_after(fen, "e7e8q", buf, sizeof buf), "k3Q3/8/8/8/8/8/8/K7 b - - 0 1");
    CHECK_RESULT(status_after(STARVATION, fen, "e7e8q"), RESULT_WHITE_WINS, "checkmate");
    CHECK_EQ_STR(fen_after(fen, "e7e8n", buf, sizeof buf), "k3N3/8/8/8/8/8/8/K7 b - - 0 1");
    CHECK_RESULT(status_after(STARVATION, fen, "e7e8n"), RESULT_WHITE_WINS, "starvation-stalemate");
}

/*
 * The same position for the mate prover: a stalemate that loses is a mate like checkmate, so
 * every promotion mates in one (queen and rook by checkmate, knight and bishop by the losing
 * stalemate); a stalemate that draws is no mate.
 */
TEST(starv_mate_counts_a_losing_stalemate)
{
    Position pos;
    char err[160];
    CHECK(setup(&pos, STARVATION, "k7/4P3/8/8/8/8/8/K7 w - - 0 1"));
    CHECK(mate_within(&pos, 1));
    const char *mating[] = {"e7e8q", "e7e8r", "e7e8n", "e7e8b"};
    for (int i = 0; i < 4; i++)
        CHECK(move_mates_within(&pos, parse_move(&pos, mating[i], err, sizeof err), 1));
    /* A stalemate with a pawn next to the king is a draw, not a mate. */
    CHECK(setup(&pos, STARVATION, "7k/7P/5K2/8/8/8/8/8 w - - 0 1"));
    CHECK(!move_mates_within(&pos, parse_move(&pos, "f6g6", err, sizeof err), 1));
}

/*
 * Condition 2 with a pawn of the mover's colour: knight b1, White pawn a2 (next to b1).
 * Nb1-c3: c3's neighbours (b2 b3 b4 c2 c4 d2 d3 d4) hold no pawn, nothing is captured, the
 * knight is no pawn, so only "moved from next to a pawn" keeps it.  The king e1 has no pawn
 * next to it (d1 d2 e2 f1 f2 are empty) nor next to any target: no king move.  Legal: the pawn's
 * a3 a4 and the knight's a3 c3 d2 (all three knight moves kept by condition 2; a3 is also
 * next to a2).
 */
TEST(starv_survives_moving_from_next_to_own_pawn)
{
    const char *fen = "4k3/8/8/8/8/8/P7/1N2K3 w - - 0 1";
    CHECK_EQ_STR(moves_in(fen, NULL, buf, sizeof buf), "a2a3 a2a4 b1a3 b1c3 b1d2");
    CHECK_EQ_STR(fen_after(fen, "b1c3", buf, sizeof buf), "4k3/8/8/8/8/2N5/P7/4K3 b - - 1 1");
}

/*
 * Condition 2 with an enemy pawn: the same with a Black pawn on a2.  The knight's moves a3 c3
 * d2 all survive; White has no other move (king e1 as above; the Black pawn is not White's).
 */
TEST(starv_survives_moving_from_next_to_enemy_pawn)
{
    const char *fen = "4k3/8/8/8/8/8/p7/1N2K3 w - - 0 1";
    CHECK_EQ_STR(moves_in(fen, NULL, buf, sizeof buf), "b1a3 b1c3 b1d2");
    CHECK_EQ_STR(fen_after(fen, "b1c3", buf, sizeof buf), "4k3/8/8/8/8/2N5/p7/4K3 b - - 1 1");
}

/*
 * Condition 3: knight b1 (no pawn next to b1: a1 a2 b2 c1 c2), one pawn on d4.  c3 is next to
 * d4, so Nc3 survives; a3 and d2 are not next to d4 (d2's neighbours reach d3 and e3, not d4),
 * so Na3 and Nd2 are legal (the king is not exposed) but the knight is removed.  With a White
 * pawn on d4 the same holds, and the pawn adds d4d5.
 */
TEST(starv_survives_moving_next_to_pawn)
{
    const char *black_pawn = "4k3/8/8/8/3p4/8/8/1N2K3 w - - 0 1";
    const char *white_pawn = "4k3/8/8/8/3P4/8/8/1N2K3 w - - 0 1";
    CHECK_EQ_STR(moves_in(black_pawn, NULL, buf, sizeof buf), "b1a3 b1c3 b1d2");
    CHECK_EQ_STR(fen_after(black_pawn, "b1c3", buf, sizeof buf), "4k3/8/8/8/3p4/2N5/8/4K3 b - - 1 1");
    CHECK_EQ_STR(fen_after(black_pawn, "b1a3", buf, sizeof buf), "4k3/8/8/8/3p4/8/8/4K3 b - - 1 1");
    CHECK_EQ_STR(fen_after(black_pawn, "b1d2", buf, sizeof buf), "4k3/8/8/8/3p4/8/8/4K3 b - - 1 1");
    CHECK_EQ_STR(moves_in(white_pawn, NULL, buf, sizeof buf), "b1a3 b1c3 b1d2 d4d5");
    CHECK_EQ_STR(fen_after(white_pawn, "b1c3", buf, sizeof buf), "4k3/8/8/8/3P4/2N5/8/4K3 b - - 1 1");
}

/*
 * Condition 4: knight b1 takes the only pawn, c3.  b1 is not next to c3; after the capture no
 * pawn is left, so only "captured a pawn" keeps the knight.  (Nd2, next to c3, survives by
 * condition 3; Na3 is removed.)  The capture resets the counter.
 */
TEST(starv_survives_capturing_pawn)
{
    const char *fen = "4k3/8/8/8/8/2p5/8/1N2K3 w - - 7 1";
    CHECK_EQ_STR(fen_after(fen, "b1c3", buf, sizeof buf), "4k3/8/8/8/8/2N5/8/4K3 b - - 0 1");
    CHECK_EQ_STR(fen_after(fen, "b1d2", buf, sizeof buf), "4k3/8/8/8/8/2p5/3N4/4K3 b - - 8 1");
    CHECK_EQ_STR(fen_after(fen, "b1a3", buf, sizeof buf), "4k3/8/8/8/8/2p5/8/4K3 b - - 8 1");
}

/*
 * A quiet move removed: the only pawn is h7, far from b1 and from a3, c3, d2.  Every knight
 * move is legal (the king e1 is not exposed) and removes the knight: after Nc3 only the kings
 * and the pawn are left.  The removal is no capture: the counter goes from 5 to 6.
 */
TEST(starv_quiet_move_removed)
{
    const char *fen = "4k3/7p/8/8/8/8/8/1N2K3 w - - 5 10";
    CHECK_EQ_STR(moves_in(fen, NULL, buf, sizeof buf), "b1a3 b1c3 b1d2");
    CHECK_EQ_STR(fen_after(fen, "b1c3", buf, sizeof buf), "4k3/7p/8/8/8/8/8/4K3 b - - 6 10");
}

/*
 * A capture of a non-pawn by a piece that is then removed: Nb1xc3 takes the rook; no pawn is
 * near b1 or c3 and a rook is no pawn, so the knight goes too.  The capture stands (the rook
 * is gone) and, being a capture, resets the counter from 5 to 0.
 */
TEST(starv_capture_by_removed_piece_stands)
{
    const char *fen = "4k3/7p/8/8/8/2r5/8/1N2K3 w - - 5 10";
    CHECK_EQ_STR(moves_in(fen, NULL, buf, sizeof buf), "b1a3 b1c3 b1d2");
    CHECK_EQ_STR(fen_after(fen, "b1c3", buf, sizeof buf), "4k3/7p/8/8/8/8/8/4K3 b - - 0 10");
}

/*
 * The king may not starve.  King e4, one Black pawn g5 (not next to e4).  Of e4's targets d3
 * d4 d5 e3 e5 f3 f4 f5, only f4 and f5 are next to g5, so the other six would remove the king:
 * illegal.  f4 is attacked by the pawn g5 (it takes towards f4 and h4): illegal.  Left: Kf5,
 * which survives by condition 3.
 */
TEST(starv_king_may_not_starve)
{
    const char *fen = "4k3/8/8/6p1/4K3/8/8/8 w - - 0 1";
    CHECK_EQ_STR(moves_in(fen, NULL, buf, sizeof buf), "e4f5");
    CHECK_EQ_STR(fen_after(fen, "e4f5", buf, sizeof buf), "4k3/8/8/5Kp1/8/8/8/8 b - - 1 1");
}

/*
 * A king is attacked when an enemy piece could take it by an orthodox move, even if that
 * piece would then starve.  King e1 next to its pawn d2 (so every king move survives by
 * condition 2), Black rook f8 covering the f-file.  Kf1 and Kf2 are attacked (Rf8xf1 would
 * remove the rook: f8 and f1 are next to no pawn, yet the capture threat counts): illegal.
 * Kd1 and Ke2 are safe.  With the pawn's d3 and d4, White has four moves.
 */
TEST(starv_king_attacked_even_if_attacker_would_starve)
{
    const char *fen = "k4r2/8/8/8/8/8/3P4/4K3 w - - 0 1";
    CHECK_EQ_STR(moves_in(fen, NULL, buf, sizeof buf), "d2d3 d2d4 e1d1 e1e2");
}

/*
 * Legality is judged after the removal.  White rook e3 shields the king e1 from the Black
 * rook e8; one Black pawn d6.  Sideways rook moves leave the file: illegal as in chess.  Along
 * the file, the rook survives only next to d6: on e5, e6, e7 (each a neighbour of d6).  On e2
 * or e4 it would be removed and the file would open: illegal.  Rxe8 is removed too (e8's
 * neighbours d7 d8 e7 f7 f8 hold no pawn and a rook is no pawn), but it took the attacker:
 * legal.  The king e1 has no pawn near it: no move.  So: e3e5 e3e6 e3e7 e3e8.  Without the
 * Black rook (control position, Black king h8) all 13 rook moves are legal, 10 of them
 * removing the rook.
 */
TEST(starv_removal_exposing_own_king_is_illegal)
{
    const char *pinned = "4r2k/8/3p4/8/8/4R3/8/4K3 w - - 0 1";
    const char *free_rook = "7k/8/3p4/8/8/4R3/8/4K3 w - - 0 1";
    CHECK_EQ_STR(moves_in(pinned, NULL, buf, sizeof buf), "e3e5 e3e6 e3e7 e3e8");
    CHECK_EQ_STR(fen_after(pinned, "e3e8", buf, sizeof buf), "7k/8/3p4/8/8/8/8/4K3 b - - 0 1");
    CHECK_EQ_STR(moves_in(free_rook, NULL, buf, sizeof buf),
                 "e3a3 e3b3 e3c3 e3d3 e3e2 e3e4 e3e5 e3e6 e3e7 e3e8 e3f3 e3g3 e3h3");
    CHECK_EQ_STR(san_in(free_rook, "e3a3", buf), "Ra3^");
    CHECK_EQ_STR(san_in(free_rook, "e3e6", buf), "Re6");
}

/*
 * A removed piece empties two cells.  King e1, White rook e2, Black knight e3, Black rook
 * e8, no pawn anywhere: Rxe3 removes the rook and the knight, and the file opens: illegal.
 * Sideways rook moves (removed too) leave the knight blocking: legal.  The king, next to no
 * pawn, cannot move.  The same with the knight and rook swapped (knight e2, rook e4): Rxe2
 * is illegal, every other rook move legal (e4e8 takes the attacker).
 */
TEST(starv_removal_of_two_blockers_exposes_king)
{
    CHECK_EQ_STR(moves_in("4r2k/8/8/8/8/4n3/4R3/4K3 w - - 0 1", NULL, buf, sizeof buf),
                 "e2a2 e2b2 e2c2 e2d2 e2f2 e2g2 e2h2");
    CHECK_EQ_STR(moves_in("4r2k/8/8/8/4R3/8/4n3/4K3 w - - 0 1", NULL, buf, sizeof buf),
                 "e4a4 e4b4 e4c4 e4d4 e4e3 e4e5 e4e6 e4e7 e4e8 e4f4 e4g4 e4h4");
}

/*
 * gen_legal proves most moves legal without making them (pins, screens, the removal rule
 * judged before the move); on random playouts it must keep exactly the pseudo-legal moves
 * that make-and-test keeps.
 */
TEST(starv_fast_legality_matches_make_and_test)
{
    static const char *const starts[] = {NULL, "r3k2r/8/8/3p4/4P3/8/8/R3K2R w KQkq - 0 1",
                                         "4r2k/1q6/8/2b5/8/4n3/4R3/3QK3 w - - 0 1"};
    uint64_t seed = 7;
    int positions = 0;
    for (int game = 0; game < 200; game++) {
        Position pos;
        if (!setup(&pos, STARVATION, starts[game % 3]))
            return;
        for (int ply = 0; ply < 80; ply++, positions++) {
            Move fast[MAX_MOVES], pseudo[MAX_MOVES];
            int n = gen_legal(&pos, fast), np = gen_pseudo(&pos, pseudo), slow = 0;
            for (int i = 0; i < np; i++)
                if (move_is_legal(&pos, pseudo[i])) {
                    bool kept = false;
                    for (int k = 0; k < n && !kept; k++)
                        kept = fast[k] == pseudo[i];
                    if (!kept)
                        test_fail(__FILE__, __LINE__, "%s: a legal move is missing", fen_of(&pos));
                    slow++;
                }
            if (slow != n) {
                test_fail(__FILE__, __LINE__, "%s: %d legal moves, gen_legal kept %d", fen_of(&pos), slow, n);
                return;
            }
            if (n == 0)
                break;
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            Undo u;
            pos_make(&pos, fast[(seed >> 33) % (uint64_t)n], &u);
        }
    }
    CHECK(positions > 4000);
}

/*
 * A piece that gives check and is removed gives no check.  Queen b1, Black king e8, one Black
 * pawn h5.  Qb5 would check along b5-c6-d7-e8, but b1 and b5 are next to no pawn: the queen
 * is removed, Black is not in check, and Black's one legal move is h5h4 (the king e8, next to
 * no pawn, cannot move; h5h4 would not answer a check).  The game goes on.  Qg6, next to h5,
 * survives and checks along g6-f7-e8; the king cannot move and nothing can block or take:
 * checkmate.
 */
TEST(starv_removed_checker_gives_no_check)
{
    const char *fen = "4k3/8/8/7p/8/8/8/1Q2K3 w - - 0 1";
    Game g = {0};
    char err[200];
    if (start_game(&g, STARVATION, fen)) {
        Move m = parse_move(&g.pos, "b1b5", err, sizeof err);
        CHECK(m != MOVE_NONE);
        game_play(&g, m);
        CHECK(!pos_in_check(&g.pos));
        CHECK_EQ_STR(legal_moves_text(&g.pos, NULL, buf, sizeof buf), "h5h4");
        CHECK_RESULT(game_status(&g), RESULT_NONE, "(none)");
    }
    game_free(&g);
    CHECK_EQ_STR(san_in(fen, "b1b5", buf), "Qb5^");
    CHECK_EQ_STR(san_in(fen, "b1g6", buf), "Qg6#");
    CHECK_RESULT(status_after(STARVATION, fen, "b1g6"), RESULT_WHITE_WINS, "checkmate");
}

/*
 * Castling: only the king is subject, on its from- and to-squares.  King e1, rooks a1 h1,
 * pawn h2.  e1 is next to no pawn (d1 d2 e2 f1 f2 empty).  O-O puts the king on g1, next to
 * h2: it survives, legal.  O-O-O puts it on c1, next to no pawn: removed, illegal.  Its plain
 * steps d1 d2 e2 f1 f2 are next to no pawn: illegal.  So e1's only move is e1g1.  After O-O
 * the rook on f1 stays although f1 (neighbours e1 e2 f2 g1 g2) is next to no pawn.
 */
TEST(starv_castling_only_king_subject)
{
    const char *fen = "4k3/8/8/8/8/8/7P/R3K2R w KQ - 0 1";
    CHECK_EQ_STR(moves_in(fen, "e1", buf, sizeof buf), "e1g1");
    CHECK_EQ_STR(fen_after(fen, "e1g1", buf, sizeof buf), "4k3/8/8/8/8/8/7P/R4RK1 b - - 1 1");
    CHECK_EQ_STR(san_in(fen, "e1g1", buf), "O-O");
}

/*
 * Castling keeps the orthodox conditions.  King e1 next to its pawn e2, so every king move
 * survives by condition 2, O-O-O (to c1, next to no pawn) included.  The Black rook f8 covers
 * f1 and f2: O-O (through f1), Kf1 and Kf2 are illegal.  e1's moves: c1 (O-O-O), d1, d2.
 */
TEST(starv_castling_orthodox_conditions)
{
    const char *fen = "4kr2/8/8/8/8/8/4P3/R3K2R w KQ - 0 1";
    CHECK_EQ_STR(moves_in(fen, "e1", buf, sizeof buf), "e1c1 e1d1 e1d2");
    CHECK_EQ_STR(fen_after(fen, "e1c1", buf, sizeof buf), "4kr2/8/8/8/8/8/4P3/2KR3R b - - 1 1");
}

/*
 * The 50-move counter: a removal is not a capture.  At 99 quiet plies, Nc3 (removed, as in
 * starv_quiet_move_removed) makes it 100; Black still has a move (h7h6/h7h5), so it is a draw
 * by the fifty-move rule.  Nxc3 of a rook, removed too, is a capture: the counter is 0 and the
 * game goes on.
 */
TEST(starv_fifty_move_counter)
{
    CHECK_RESULT(status_after(STARVATION, "4k3/7p/8/8/8/8/8/1N2K3 w - - 99 60", "b1c3"), RESULT_DRAW, "fifty-move");
    CHECK_RESULT(status_after(STARVATION, "4k3/7p/8/8/8/2r5/8/1N2K3 w - - 99 60", "b1c3"), RESULT_NONE, "(none)");
    CHECK_EQ_STR(fen_after("4k3/7p/8/8/8/2r5/8/1N2K3 w - - 99 60", "b1c3", buf, sizeof buf),
                 "4k3/7p/8/8/8/8/8/4K3 b - - 0 60");
}

/*
 * SAN marks a removed piece with '^', before '+'/'#'.  White king a1 (no move), rook e2,
 * bishop e4, Black king e8.  Without Black pawns: Bd5 (no pawn anywhere near e4 or d5) is
 * removed and opens the e-file: discovered check by the rook; the Black king, next to no pawn,
 * cannot move, nothing can block: "Bd5^#".  With a Black pawn on d7 the king (next to d7) can
 * step to d8, f8 or f7, so "Bd5^+"; Bc6 lands next to d7 and survives: "Bc6+" (the rook's
 * discovered check; the bishop's own line to e8 is blocked by d7).  Re2-h2 (h2 is next to no
 * pawn) is removed and uncovers nothing: "Rh2^".  Nxc3 of a rook, removed: "Nxc3^"; Nxc3 of a
 * pawn survives (condition 4): "Nxc3".
 */
TEST(starv_san_removal_mark)
{
    const char *bare = "4k3/8/8/8/4B3/8/4R3/K7 w - - 0 1";
    const char *pawn = "4k3/3p4/8/8/4B3/8/4R3/K7 w - - 0 1";
    CHECK_EQ_STR(san_in(bare, "e4d5", buf), "Bd5^#");
    CHECK_EQ_STR(san_in(pawn, "e4d5", buf), "Bd5^+");
    CHECK_EQ_STR(san_in(pawn, "e4c6", buf), "Bc6+");
    CHECK_EQ_STR(san_in(pawn, "e2h2", buf), "Rh2^");
    CHECK_EQ_STR(san_in("4k3/7p/8/8/8/2r5/8/1N2K3 w - - 5 10", "b1c3", buf), "Nxc3^");
    CHECK_EQ_STR(san_in("4k3/8/8/8/8/2p5/8/1N2K3 w - - 7 1", "b1c3", buf), "Nxc3");
    /* The parser accepts the mark and goes without it. */
    Position pos;
    char err[200];
    if (setup(&pos, STARVATION, pawn)) {
        CHECK(parse_move(&pos, "Bd5^+", err, sizeof err) == parse_move(&pos, "e4d5", err, sizeof err));
        CHECK(parse_move(&pos, "Bd5", err, sizeof err) != MOVE_NONE);
    }
}

/*
 * Stalemate with no pawn next to the stalemated king: that side loses.  Black king h8, Black
 * pawn a3 blocked by the White pawn a2 (nothing for it to take on b2), White king c1.  The
 * Black king's steps g8 g7 h7 would remove it (no pawn near h8 or those squares): Black has
 * no move and is not in check.  Pawns are on the board, but none next to h8: 1-0
 * "starvation-stalemate".
 */
TEST(starv_stalemate_without_adjacent_pawn_loses)
{
    CHECK_RESULT(status_after(STARVATION, "7k/8/8/8/8/p7/P7/2K5 b - - 0 1", ""), RESULT_WHITE_WINS, "starvation-stalemate");
    /* The same with colours swapped: White to move loses. */
    CHECK_RESULT(status_after(STARVATION, "2k5/p7/P7/8/8/8/8/7K w - - 0 1", ""), RESULT_BLACK_WINS, "starvation-stalemate");
}

/*
 * Stalemate with a pawn next to the king: an orthodox draw.  (a) Black king h8 next to its own
 * pawn h7, which is blocked by h6; White king f7 covers g8 and g7: Black has no move, not in
 * check: 1/2 "stalemate".  (b) A pawn of the other colour counts: Black king h8, White pawn
 * h7 (covers g8), White king g6 (covers g7 and h7).  Played into: from Kf6/h7 (with the
 * White king f6) Kg6 stalemates.
 */
TEST(starv_stalemate_with_adjacent_pawn_is_draw)
{
    CHECK_RESULT(status_after(STARVATION, "7k/5K1p/7P/8/8/8/8/8 b - - 0 1", ""), RESULT_DRAW, "stalemate");
    CHECK_RESULT(status_after(STARVATION, "7k/7P/6K1/8/8/8/8/8 b - - 0 1", ""), RESULT_DRAW, "stalemate");
    CHECK_RESULT(status_after(STARVATION, "7k/7P/5K2/8/8/8/8/8 w - - 0 1", "f6g6"), RESULT_DRAW, "stalemate");
}

/*
 * No insufficient-material draw.  King against king, no pawn: neither king is next to a pawn
 * or can step next to one, so the side to move has no move at all and is not in check: it
 * loses by the stalemate rule.  In orthodox chess the same position is a draw by insufficient
 * material.
 */
TEST(starv_king_against_king_loses_for_side_to_move)
{
    CHECK_RESULT(status_after(STARVATION, "7k/8/8/8/8/8/8/K7 w - - 0 1", ""), RESULT_BLACK_WINS, "starvation-stalemate");
    CHECK_RESULT(status_after(STARVATION, "7k/8/8/8/8/8/8/K7 b - - 0 1", ""), RESULT_WHITE_WINS, "starvation-stalemate");
    CHECK_EQ_STR(moves_in("7k/8/8/8/8/8/8/K7 w - - 0 1", NULL, buf, sizeof buf), "");
    /* King and bishop against king: the bishop's moves (removed, but legal) keep White going. */
    CHECK_RESULT(status_after(STARVATION, "7k/8/8/8/8/8/8/KB6 w - - 0 1", ""), RESULT_NONE, "(none)");
    Game g = {0};
    char err[200];
    if (game_init(&g, variant_by_name("chess"), "7k/8/8/8/8/8/8/K7 w - - 0 1", err, sizeof err))
        CHECK_RESULT(game_status(&g), RESULT_DRAW, "insufficient-material");
    game_free(&g);
}

/*
 * Perft counts checked by tools/starvation_reference.py (an independent generator): the
 * start position equals chess up to depth 5 (no piece can starve in the first 4 plies, and
 * a ply-5 removal cannot make a ply-5 move illegal); a few-pawn position where most moves
 * starve.
 */
TEST(starv_perft_small)
{
    Position pos;
    static const uint64_t start[] = {20, 400, 8902, 197281};
    if (setup(&pos, STARVATION, NULL))
        for (int d = 1; d <= 4; d++)
            CHECK_EQ_INT(perft(&pos, d), start[d - 1]);
    static const uint64_t few[] = {21, 419, 4865, 52604, 196390};
    if (setup(&pos, STARVATION, "r3k2r/8/8/3p4/4P3/8/8/R3K2R w KQkq - 0 1"))
        for (int d = 1; d <= 5; d++)
            CHECK_EQ_INT(perft(&pos, d), few[d - 1]);
}
