/*
 * Static exchange evaluation on every kind of attacker: captures defended or not, a rook
 * behind a rook (x-ray), a capture whose mover Starvation removes, and Megastar's Slings,
 * whose captures hop a screen: when a Sling leaves its cell, another Sling behind it can find
 * one screen fewer on its line and recapture.  Piece values are the variants' own (chess:
 * pawn 100, knight 320, rook 500; Megastar: knight 250, Sling 250).
 */
#include "../../src/engine/eval.h"
#include "../../src/engine/see.h"
#include "helpers.h"
#include "test.h"

/* The exchange value of a move given in any notation. */
static int see_of(const char *variant, const char *fen, const char *move)
{
    Position pos;
    char err[200];
    if (!setup(&pos, variant, fen))
        return -99999;
    Move m = parse_move(&pos, move, err, sizeof err);
    if (m == MOVE_NONE) {
        test_fail(__FILE__, __LINE__, "%s: %s", move, err);
        return -99999;
    }
    return see(&pos, m, eval_tables(pos.v)->value);
}

TEST(see_orthodox_exchanges)
{
    CHECK_EQ_INT(see_of("chess", "4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1", "Nxe5"), 100);
    CHECK_EQ_INT(see_of("chess", "4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1", "Nxe5"), 100 - 320);
    /* A pawn taking a defended knight wins the knight for the pawn. */
    CHECK_EQ_INT(see_of("chess", "4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "dxe5"), 320 - 100);
    /* Rook takes pawn, rook takes rook, the rook behind (x-ray) takes back: Black does better
     * not to recapture, so the pawn is won.  Without the second rook the first is lost. */
    CHECK_EQ_INT(see_of("chess", "4k3/4r3/8/4p3/8/8/4R3/4R2K w - - 0 1", "Rxe5"), 100);
    CHECK_EQ_INT(see_of("chess", "4k3/4r3/8/4p3/8/8/4R3/7K w - - 0 1", "Rxe5"), 100 - 500);
    /* The king recaptures only where no attacker is left behind. */
    CHECK_EQ_INT(see_of("chess", "8/8/8/8/8/2k5/3p4/3R3K w - - 0 1", "Rxd2"), 100 - 500);
    CHECK_EQ_INT(see_of("chess", "8/8/7Q/8/8/2k5/3p4/3R3K w - - 0 1", "Rxd2"), 100);
    /* Quiet moves and placements exchange nothing. */
    CHECK_EQ_INT(see_of("chess", "4k3/8/8/8/8/5N2/8/4K3 w - - 0 1", "Ng5"), 0);
}

TEST(see_counts_a_mover_removed_by_starvation)
{
    /* Far from every pawn the capturing knight dies on its target: the knight for a rook. */
    CHECK_EQ_INT(see_of("starvation", "4k3/8/8/4r3/8/5N2/8/4K3 w - - 0 1", "Nxe5"), 500 - 320);
}

TEST(see_sees_slings_behind_a_vacated_cell)
{
    /* White's Sling Ui5 takes the knight Ug3, hopping its own knight Uh4.  Black's Sling Uk9
     * had two screens on that line (Ui5, Uh4): once Ui5 is empty it has one and takes back. */
    CHECK_EQ_INT(see_of("megastar", ms_fen("KUa1 kLq1 LUi5 NUh4 nUg3 lUk9", "w - 0 1"), "Ui5Ug3"), 0);
    /* With a third man on the line (Uj7) the Sling behind still has two screens. */
    CHECK_EQ_INT(see_of("megastar", ms_fen("KUa1 kLq1 LUi5 NUh4 nUg3 lUk9 pUj7", "w - 0 1"), "Ui5Ug3"), 250);
}
