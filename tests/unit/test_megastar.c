/*
 * Megastar of David (rules/megastar.md): every kind of piece on characteristic cells, pawns
 * (double steps, en passant across the levels, promotion), checks by level-changing pieces,
 * position text, and the end of the game.
 *
 * Every expected move list below is derived by hand from the rules and the axial coordinates,
 * and the derivation is written beside it.  Reminders:
 *   - a cell is (q, r) on U (level 0, max(q, r, -q-r) <= 4) or L (level 1, min(q, r, -q-r) >= -4);
 *     the Drum is max(|q|, |r|, |q+r|) <= 4, on both levels;
 *   - names: file letter a..q for q = -8..8; rank = r - rmin(q) + 1, where rmin(q) = -4 for
 *     q = -4..0 and q = 5..8, and rmin(q) = -4 - q otherwise.  So rank = r + 5 on files e..i
 *     and n..q, rank = r + 5 + q on files j..m and a..d:  Ui5 = (0,0), Uj6 = (1,0),
 *     Uh6 = (-1,1), Uk7 = (2,0), Ua1 = (-8,4), Lq1 = (8,-4), Ue5 = (-4,0);
 *   - orthogonal directions, cyclic: A (0,1) B (-1,1) C (-1,0) D (0,-1) E (1,-1) F (1,0);
 *     diagonal directions, cyclic:   a (1,1) b (-1,2) c (-2,1) d (-1,-1) e (1,-2) f (2,-1).
 * Positions are written as piece lists ("KUa1 kLq1 RUi5": letter, cell), turned into position
 * text by ms_fen().  Most use the White King on Ua1 (neighbours Ub1 (-7,3) and Ub2 (-7,4) only)
 * and the Black King on Lq1 (neighbours Lp1 (7,-4), Lp2 (7,-3) only), out of everyone's way.
 */
#include <stdlib.h>

#include "helpers.h"
#include "test.h"


static int compare_words(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "FROM" and "D1 D2 ..." (in derivation order) -> "FROMD1 FROMD2 ..." sorted, as listed. */
static const char *moves_from(const char *from, const char *dests)
{
    static char out[4096];
    char copy[2048];
    char *words[MAX_MOVES];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", dests);
    char *save = NULL;
    for (char *t = strtok_r(copy, " ", &save); t && n < MAX_MOVES; t = strtok_r(NULL, " ", &save))
        words[n++] = t;
    qsort(words, (size_t)n, sizeof words[0], compare_words);
    out[0] = 0;
    for (int i = 0; i < n; i++)
        snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s%s", i ? " " : "", from, words[i]);
    return out;
}

/* The legal moves from `from` in the position `pieces` (side etc. in `rest`) are exactly
 * from+each of `dests` (given in any order). */
#define CHECK_MOVES(pieces, rest, from, dests)                                               \
    do {                                                                                     \
        Position pos_;                                                                       \
        char buf_[8192];                                                                     \
        if (setup(&pos_, "megastar", ms_fen(pieces, rest)))                                  \
            CHECK_EQ_STR(legal_moves_text(&pos_, from, buf_, sizeof buf_), moves_from(from, dests)); \
    } while (0)

#define W "w - 0 1"
#define B "b - 0 1"

TEST(megastar_start_position)
{
    Position pos;
    const Variant *v = variant_by_name("megastar");
    CHECK(v != NULL);
    if (!v || !setup(&pos, "megastar", NULL))
        return;
    CHECK_EQ_INT(v->geo->ncells, 182);
    CHECK_EQ_STR(fen_of(&pos), v->def->start_fen);
    /* The rules: "White has 89 legal first moves".  Depth 2 as computed by the engine and
     * by tools/megastar_reference.py (tests/perft/megastar.epd has more). */
    CHECK_EQ_INT(count_legal(&pos), 89);
    CHECK_EQ_INT(perft(&pos, 2), 7895);
    char buf[1024];
    /* Knight on Lk4 = (2,-3): (2,-3)+2d on U with (2,-3)+d and +2d in the Drum:
     * A: (2,-2),(2,-1) -> Uk6; D: (2,-4) ok but (2,-5) out; F: (3,-3),(4,-3) -> Um6;
     * E: (4,-5) out; B: (1,-2),(0,-1) -> Ui4; C: (1,-3),(0,-3) -> Ui2.  Ui2 and Um6 hold
     * White pawns at the start. */
    CHECK_EQ_STR(legal_moves_text(&pos, "Lk4", buf, sizeof buf), moves_from("Lk4", "Uk6 Ui4"));
    /* Fortnight on Li1 = (0,-4): +v in the Drum only for (3,1)->(3,-3) Ul5 (own pawn),
     * (1,3)->(1,-1) Uj5, (-1,4)->(-1,0) Uh5, (-3,4)->(-3,0) Uf5 (own pawn); the other 8
     * vectors leave the Drum (e.g. (-4,3)->(-4,-1): |q+r| = 5). */
    CHECK_EQ_STR(legal_moves_text(&pos, "Li1", buf, sizeof buf), moves_from("Li1", "Uj5 Uh5"));
    /* Pawn on Ui2 (a start cell): Ui3 and the double step Ui4; Li3 (the capture cell) is empty. */
    CHECK_EQ_STR(legal_moves_text(&pos, "Ui2", buf, sizeof buf), moves_from("Ui2", "Ui3 Ui4"));
}

TEST(megastar_king_moves)
{
    /* Ui5 = (0,0): six orthogonal steps Ui6 (0,1) Ui4 (0,-1) Uj6 (1,0) Uj5 (1,-1) Uh6 (-1,1)
     * Uh5 (-1,0); the vertical step Li5; all six neighbours are in the Drum, so each 2x2 block
     * exists and the six root-2 diagonals go to the same (q,r) on L. */
    CHECK_MOVES("KUi5 kLq1", W, "Ui5", "Ui6 Ui4 Uj6 Uj5 Uh6 Uh5 Li5 Li6 Li4 Lj6 Lj5 Lh6 Lh5");
    /* Ui9 = (0,4), on the Drum's edge: (0,5) and (-1,5) are off U; (-1,4) Uh9, (0,3) Ui8,
     * (1,3) Uj9 are in the Drum; (1,4) Uj10 is on U but outside the Drum (|q+r| = 5), so it
     * has no L cell and no 2x2 block: no diagonal to it.  Vertical Li9. */
    CHECK_MOVES("KUi9 kLq1", W, "Ui9", "Uh9 Ui8 Uj9 Uj10 Li9 Lh9 Li8 Lj9");
    /* Uj10 = (1,4), just outside the Drum: steps to (1,3) Uj9, (2,4) Uk11, (2,3) Uk10,
     * (0,4) Ui9 ((1,5), (0,5) are off U); no vertical, and no diagonal although Li9 and Lj9
     * exist: the start cell has no cell below it. */
    CHECK_MOVES("KUj10 kLq1", W, "Uj10", "Uj9 Uk11 Uk10 Ui9");
    /* The corners: Ua1 = (-8,4) reaches (-7,3) Ub1 and (-7,4) Ub2 only. */
    CHECK_MOVES("KUa1 kLq1", W, "Ua1", "Ub1 Ub2");
    /* Lq1 = (8,-4): (7,-4) Lp1, (7,-3) Lp2; (8,-3) has min = -5, off L. */
    CHECK_MOVES("KUa1 kLq1", B, "Lq1", "Lp1 Lp2");
    /* Le5 = (-4,0) on L, a corner of the Drum: L steps (-4,1) Le6, (-4,-1) Le4 (on L, outside
     * the Drum: |q+r| = 5), (-3,0) Lf5, (-3,-1) Lf4, (-5,*) off L; vertical Ue5; diagonals to
     * the Drum neighbours only: Ue6 Uf5 Uf4 (not to (-4,-1), which has no U cell, nor to
     * (-5,1) Ud1, which has no L cell). */
    CHECK_MOVES("KLe5 kLq1", W, "Le5", "Le6 Le4 Lf5 Lf4 Ue5 Ue6 Uf5 Uf4");
}

TEST(megastar_king_attacked_across_levels)
{
    /* White K Ui5 = (0,0), Black k Lj7 = (1,1) on L (not adjacent: (1,1) is a diagonal).
     * The Black King attacks its L neighbours (1,0) Lj6, (0,1) Li6 and, by its root-2
     * diagonals, the U cells above them: Uj6 and Ui6.  Of the White King's 13 moves these 4
     * are illegal; Lh6 (-1,1), Li5 (0,0), Lj5 (1,-1) etc. are not next to (1,1). */
    CHECK_MOVES("KUi5 kLj7", W, "Ui5", "Ui4 Uj5 Uh6 Uh5 Li5 Li4 Lj5 Lh6 Lh5");
}

TEST(megastar_rook_moves)
{
    /* Rook Ui5: the six orthogonal rays of (0,0) on U each have 4 cells ((k*d) is on U for
     * k <= 4): A Ui6..Ui9, D Ui4..Ui1, F (k,0) Uj6 Uk7 Ul8 Um9, E (k,-k) Uj5 Uk5 Ul5 Um5,
     * C (-k,0) Uh5 Ug5 Uf5 Ue5, B (-k,k) Uh6 Ug7 Uf8 Ue9; plus the vertical step Li5. */
    CHECK_MOVES("KUa1 kLq1 RUi5", W, "Ui5",
                "Ui6 Ui7 Ui8 Ui9 Ui4 Ui3 Ui2 Ui1 Uj6 Uk7 Ul8 Um9 Uj5 Uk5 Ul5 Um5 Uh5 Ug5 Uf5 Ue5 "
                "Uh6 Ug7 Uf8 Ue9 Li5");
    /* Blocked: own piece on Ui7 stops A after Ui6; enemy on Uk7 is taken, Ul8 Um9 not
     * reached; the vertical cell Li5 holds an enemy: captured by the vertical step. */
    CHECK_MOVES("KUa1 kLq1 RUi5 NUi7 nUk7 nLi5", W, "Ui5",
                "Ui6 Ui4 Ui3 Ui2 Ui1 Uj6 Uk7 Uj5 Uk5 Ul5 Um5 Uh5 Ug5 Uf5 Ue5 Uh6 Ug7 Uf8 Ue9 Li5");
    /* Rook Ln1 = (5,-4) on L, outside the Drum: no vertical step.  A: (5,-3) Ln2, (5,-2) Ln3,
     * (5,-1) Ln4, (5,0) off; F: (6,-4) Lo1, (7,-4) Lp1, (8,-4) Lq1; B: (4,-3) Lm6, (3,-2) Ll6,
     * (2,-1) Lk6, (1,0) Lj6, (0,1) Li6, (-1,2) Lh7, (-2,3) Lg8, (-3,4) Lf9, (-4,5) Le10;
     * C: (4,-4) Lm5, (3,-4) Ll4, (2,-4) Lk3, (1,-4) Lj2, (0,-4) Li1, (-1,-4) Lh1, (-2,-4) Lg1,
     * (-3,-4) Lf1, (-4,-4) Le1; D and E leave L at once (r = -5). */
    CHECK_MOVES("KUa1 kUc1 RLn1", W, "Ln1",
                "Ln2 Ln3 Ln4 Lo1 Lp1 Lq1 Lm6 Ll6 Lk6 Lj6 Li6 Lh7 Lg8 Lf9 Le10 "
                "Lm5 Ll4 Lk3 Lj2 Li1 Lh1 Lg1 Lf1 Le1");
}

TEST(megastar_knight_moves)
{
    /* Knight Ui5: (0,0)+2d on L for all six d (every (d, 2d) is in the Drum): (0,2) Li7,
     * (-2,2) Lg7, (-2,0) Lg5, (0,-2) Li3, (2,-2) Lk5, (2,0) Lk7.  Never on its own level. */
    CHECK_MOVES("KUa1 kLq1 NUi5", W, "Ui5", "Li7 Lg7 Lg5 Li3 Lk5 Lk7");
    /* It cannot be blocked (own men on the middle cells Ui6 and Li6), takes the enemy on Li7
     * and not its own man on Lg7. */
    CHECK_MOVES("KUa1 kLq1 NUi5 RUi6 RLi6 nLi7 RLg7", W, "Ui5", "Li7 Lg5 Li3 Lk5 Lk7");
    /* Knight Ui9 = (0,4): d = A (0,5), B (-1,5), F (1,4) leave the Drum; D -> (0,2) Li7,
     * C -> (-2,4) Lg9 ((-1,4) and (-2,4) in the Drum), E -> (2,2) Lk9 ((1,3), (2,2) in it). */
    CHECK_MOVES("KUa1 kLq1 NUi9", W, "Ui9", "Li7 Lg9 Lk9");
    /* Outside the Drum (Uj10 = (1,4)) a Knight has no move at all. */
    CHECK_MOVES("KUa1 kLq1 NUj10", W, "Uj10", "");
}

TEST(megastar_finch_and_orthogonal_rose)
{
    /* Orthogonal rose from (0,0): after 1 step the 6 neighbours; after 2 (turning 60 degrees)
     * the 6 diagonal cells, e.g. A+F = (1,1); after 3 the cells 2 steps straight, e.g.
     * A+B+C = (-2,2); after 4 the diagonal cells again (A+B+C+D = (-2,1)).  18 cells:
     * Ui6 Ui4 Uj6 Uj5 Uh6 Uh5 | Uj7 (1,1) Uh7 (-1,2) Ug6 (-2,1) Uh4 (-1,-1) Uj4 (1,-2) Uk6 (2,-1)
     * | Ui7 (0,2) Ui3 (0,-2) Uk7 (2,0) Uk5 (2,-2) Ug7 (-2,2) Ug5 (-2,0); plus vertical Li5. */
    const char *all18 = "Ui6 Ui4 Uj6 Uj5 Uh6 Uh5 Uj7 Uh7 Ug6 Uh4 Uj4 Uk6 Ui7 Ui3 Uk7 Uk5 Ug7 Ug5";
    char dests[512];
    snprintf(dests, sizeof dests, "%s Li5", all18);
    CHECK_MOVES("KUa1 kLq1 FUi5", W, "Ui5", dests);
    /* Own men on Ui6 (A) and Uj6 (F): Uj7 (1,1) is no longer reached by A,F or F,A but still
     * by the 4-step paths E,F,A,B = (1,-1),(2,-1),(2,0),(1,1) and B,A,F,E = (-1,1),(-1,2),
     * (0,2),(1,1), which avoid both: listed once.  Likewise Ui7 (0,2) via B,A,F and Uk7 (2,0)
     * via E,F,A.  So every cell but the two occupied ones: 16 + Li5. */
    CHECK_MOVES("KUa1 kLq1 FUi5 RUi6 RUj6", W, "Ui5",
                "Ui4 Uj5 Uh6 Uh5 Uj7 Uh7 Ug6 Uh4 Uj4 Uk6 Ui7 Ui3 Uk7 Uk5 Ug7 Ug5 Li5");
    /* Enemies on Ui6 (A) and Uh6 (B), own men on Uj6 (F) and Uj5 (E): only the paths starting
     * C or D are open: C,D,E,F = Uh5 Uh4 (0,-2) Ui3 (1,-2) Uj4; C,B,A,F = Uh5 Ug6 (-2,2) Ug7
     * (-1,2) Uh7; D,E,F,A = Ui4 Uj4 (2,-2) Uk5 (2,-1) Uk6; D,C,B,A = Ui4 Uh4 (-2,0) Ug5 Ug6.
     * The first steps A and B capture.  (1,1) Uj7, (0,2) Ui7, (2,0) Uk7 are unreachable. */
    CHECK_MOVES("KUa1 kLq1 FUi5 rUi6 rUh6 RUj6 RUj5", W, "Ui5",
                "Ui6 Uh6 Uh5 Uh4 Ui3 Uj4 Ug6 Ug7 Uh7 Ui4 Uk5 Uk6 Ug5 Li5");
    /* Finch Ua1 = (-8,4) (the corner; White King elsewhere): E,F,A = Ub1 (-7,3), Uc2 (-6,3),
     * Uc3 (-6,4), then (-7,5) is off; F,E,D = Ub2 (-7,4), Uc2, Uc1 (-6,2), then (-7,2) off;
     * E,D and F,A leave the board at the second step, A..D at the first.  No vertical. */
    CHECK_MOVES("KUm13 kLq1 FUa1", W, "Ua1", "Ub1 Uc2 Uc3 Ub2 Uc1");
}

TEST(megastar_rabbi_and_diagonal_rose)
{
    /* Diagonal rose from (0,0): 1 step: a..f = Uj7 (1,1) Uh7 (-1,2) Ug6 (-2,1) Uh4 (-1,-1)
     * Uj4 (1,-2) Uk6 (2,-1); 2 steps: three straight orthogonal steps, e.g. a+b = (0,3) Ui8,
     * (-3,3) Uf8, (-3,0) Uf5, (0,-3) Ui2, (3,-3) Ul5, (3,0) Ul8; 3 steps: twice a diagonal,
     * a+b+c = (-2,4) Ug9, (-4,2) Ue7, (-2,-2) Ug3, (2,-4) Uk3, (4,-2) Um7, (2,2) Uk9; 4 steps
     * give the 2-step cells again.  No vertical move for the Rabbi. */
    CHECK_MOVES("KUa1 kLq1 BUi5", W, "Ui5",
                "Uj7 Uh7 Ug6 Uh4 Uj4 Uk6 Ui8 Uf8 Uf5 Ui2 Ul5 Ul8 Ug9 Ue7 Ug3 Uk3 Um7 Uk9");
    /* Own men on Uj7 (a) and Uj4 (e), an enemy on Ul8 (3,0).  The paths:
     *   a,b,c,d and a,f,e,d: blocked at once;  e,f,a,b and e,d,c,b: blocked at once;
     *   b,c,d,e = Uh7 Uf8 (-4,2) Ue7 Uf5;  b,a,f,e = Uh7 Ui8 (2,2) Uk9 Ul8 (capture);
     *   c,d,e,f = Ug6 Uf5 Ug3 Ui2;  c,b,a,f = Ug6 Uf8 Ug9 Ui8;
     *   d,e,f,a = Uh4 Ui2 Uk3 Ul5;  d,c,b,a = Uh4 Uf5 Ue7 Uf8;
     *   f,a,b,c = Uk6 Ul8 (capture, stop);  f,e,d,c = Uk6 Ul5 Uk3 Ui2.
     * Ui8 is blocked on a,b but open on b,a (and c,b,a): one move.  Um7 (4,-2) is only
     * reached by a,f,e and e,f,a: both blocked, so it is missing.  15 moves. */
    CHECK_MOVES("KUa1 kLq1 BUi5 NUj7 NUj4 nUl8", W, "Ui5",
                "Uh7 Uf8 Ue7 Uf5 Ui8 Uk9 Ul8 Ug6 Ug3 Ui2 Ug9 Uh4 Uk3 Ul5 Uk6");
}

TEST(megastar_cohen_moves)
{
    /* Cohen Ui5: the orthogonal rose's 18 cells, the diagonal rose's 18 cells, of which the
     * six diagonal cells (1,1) etc. are common (listed once), and the vertical Li5: 31. */
    CHECK_MOVES("KUa1 kLq1 CUi5", W, "Ui5",
                "Ui6 Ui4 Uj6 Uj5 Uh6 Uh5 Uj7 Uh7 Ug6 Uh4 Uj4 Uk6 Ui7 Ui3 Uk7 Uk5 Ug7 Ug5 "
                "Ui8 Uf8 Uf5 Ui2 Ul5 Ul8 Ug9 Ue7 Ug3 Uk3 Um7 Uk9 Li5");
    /* Never a mixture: with enemies on all six orthogonal neighbours and own men on all six
     * diagonal cells, the orthogonal rose stops at the first step (six captures) and the
     * diagonal rose cannot start; a mixed path (e.g. A then the diagonal b) would reach more. */
    CHECK_MOVES("KUa1 kLq1 CUi5 rUi6 rUi4 rUj6 rUj5 rUh6 rUh5 NUj7 NUh7 NUg6 NUh4 NUj4 NUk6", W, "Ui5",
                "Ui6 Ui4 Uj6 Uj5 Uh6 Uh5 Li5");
}

TEST(megastar_sennight_moves)
{
    /* Sennight Ui5: the 12 vectors, all landing on U: (2,1) Uk8, (3,-1) Ul7, (1,2) Uj8,
     * (-1,3) Uh8, (3,-2) Ul6, (2,-3) Uk4, (-2,-1) Ug4, (-3,1) Uf6, (-1,-2) Uh3, (1,-3) Uj3,
     * (-3,2) Uf7, (-2,3) Ug8.  Unblockable (surrounded by its own men), takes Ul7, not Uk8. */
    CHECK_MOVES("KUa1 kLq1 SUi5", W, "Ui5", "Uk8 Ul7 Uj8 Uh8 Ul6 Uk4 Ug4 Uf6 Uh3 Uj3 Uf7 Ug8");
    CHECK_MOVES("KUa1 kLq1 SUi5 RUi6 RUi4 RUj6 RUj5 RUh6 RUh5 RUk8 nUl7", W, "Ui5",
                "Ul7 Uj8 Uh8 Ul6 Uk4 Ug4 Uf6 Uh3 Uj3 Uf7 Ug8");
    /* Sennight Lq1 = (8,-4): a target (8+a, -4+b) is on L when b >= 0 and a + b <= 0: only
     * (-3,1) -> (5,-3) Ln2 and (-3,2) -> (5,-2) Ln3. */
    CHECK_MOVES("KUa1 kLe13 SLq1", W, "Lq1", "Ln2 Ln3");
}

TEST(megastar_fortnight_moves)
{
    /* Fortnight Ui5: every sqrt-13 vector from (0,0) ends in the Drum (hex distance 4), on L:
     * (3,1) Ll9, (4,-1) Lm8, (1,3) Lj9, (-1,4) Lh9, (3,-4) Ll4, (4,-3) Lm6, (-3,-1) Lf4,
     * (-4,1) Le6, (-1,-3) Lh2, (1,-4) Lj2, (-3,4) Lf9, (-4,3) Le8. */
    CHECK_MOVES("KUa1 kLq1 TUi5", W, "Ui5", "Ll9 Lm8 Lj9 Lh9 Ll4 Lm6 Lf4 Le6 Lh2 Lj2 Lf9 Le8");
    /* Fortnight Uk4 = (2,-3): in the Drum only (1,3)->(3,0) Ll8, (-1,4)->(1,1) Lj7,
     * (-4,1)->(-2,-2) Lg3, (-3,4)->(-1,1) Lh6, (-4,3)->(-2,0) Lg5.  (3,1)->(5,-2) Ln3,
     * (4,-1)->(6,-4) Lo1 and (-3,-1)->(-1,-4) Lh1 exist on L but lie outside the Drum: not
     * allowed; the rest are off the board. */
    CHECK_MOVES("KUa1 kLq1 TUk4", W, "Uk4", "Ll8 Lj7 Lg3 Lh6 Lg5");
    /* Ui9 = (0,4): (3,-4)->(3,0) Ll8, (-3,-1)->(-3,3) Lf8, (-1,-3)->(-1,1) Lh6,
     * (1,-4)->(1,0) Lj6; e.g. (4,-1)->(4,3) is on U but has no L cell. */
    CHECK_MOVES("KUa1 kLq1 TUi9", W, "Ui9", "Ll8 Lf8 Lh6 Lj6");
    /* Outside the Drum (Ln1) a Fortnight cannot move. */
    CHECK_MOVES("KUa1 kUc1 TLn1", W, "Ln1", "");
}

TEST(megastar_sling_screens)
{
    /* Sling Ui5 = (0,0), its six diagonals on U:
     *   a (1,1): Uj7 own (screen), Uk9 own: the first man beyond is not an enemy; Um13
     *            (4,4), an enemy behind two men, cannot be taken; Ul11 is beyond a screen:
     *            no quiet move.                                      -> nothing
     *   b (-1,2): Uh7 enemy right beside it: no screen, no capture; Ug9 beyond it. -> nothing
     *   c (-2,1): Ug6, Ue7 (-4,2), Uc2 (-6,3) empty, Ua1 (-8,4) own King.  -> Ug6 Ue7 Uc2
     *   d (-1,-1): Uh4 own screen, Ug3 (-2,-2) enemy: taken.              -> Ug3
     *   e (1,-2): Uj4 empty, Uk3 (2,-4) enemy screen, Ul2 (3,-6) empty (not a destination
     *             beyond the screen), Um1 (4,-8) enemy: taken.           -> Uj4 Um1
     *   f (2,-1): Uk6 (2,-1), Um7 (4,-2) empty, then off the board (zero screens, no capture).
     *                                                                    -> Uk6 Um7 */
    CHECK_MOVES("KUa1 kLq1 LUi5 NUj7 NUk9 nUm13 nUh7 NUh4 nUg3 nUk3 nUm1", W, "Ui5",
                "Ug6 Ue7 Uc2 Ug3 Uj4 Um1 Uk6 Um7");
    /* Alone on the board but for the Kings, it moves quietly to the end of each diagonal:
     * a: Uj7 Uk9 Ul11 Um13; b: Uh7 Ug9 ((-3,6) off); c: Ug6 Ue7 Uc2, then its own King;
     * d: Uh4 Ug3 ((-3,-3) off); e: Uj4 Uk3 Ul2 Um1; f: Uk6 Um7. */
    CHECK_MOVES("KUa1 kLq1 LUi5", W, "Ui5", "Uj7 Uk9 Ul11 Um13 Uh7 Ug9 Ug6 Ue7 Uc2 Uh4 Ug3 Uj4 Uk3 Ul2 Um1 Uk6 Um7");
}

TEST(megastar_sling_checks)
{
    Position pos;
    char buf[4096];
    /* Black Sling Ul11 = (3,3), White King Ui5 = (0,0) on its diagonal (-1,-1): with the
     * Knight on Uj7 (1,1) as the one screen the King is in check. */
    if (!setup(&pos, "megastar", ms_fen("KUi5 NUj7 RUk5 lUl11 kLq1", W)))
        return;
    CHECK(pos_in_check(&pos));
    /* Ways out: any Knight move takes the screen off the line (from (1,1) to L: Lj9 (1,3),
     * Lj5 (1,-1), Ll9 (3,1), Ll7 (3,-1), Lh8 (-1,3), Lh6 (-1,1)); the Rook from Uk5 (2,-2)
     * can only go to Uk9 (2,2), a second screen; the King's 13 moves are all off the Sling's
     * lines.  13 + 6 + 1 = 20. */
    CHECK_EQ_STR(legal_moves_text(&pos, "Uk5", buf, sizeof buf), "Uk5Uk9");
    CHECK_EQ_STR(legal_moves_text(&pos, "Uj7", buf, sizeof buf), moves_from("Uj7", "Lj9 Lj5 Ll9 Ll7 Lh8 Lh6"));
    CHECK_EQ_INT(count_legal(&pos), 20);
    /* Without the Knight there is no check, and the Rook may not become the screen: its 20
     * moves (A: Uk6 Uk7 Uk8 Uk9 Uk10 Uk11; D: Uk4 Uk3 Uk2 Uk1; F: Ul6 Um7; C: Uj4 Ui3 Uh3
     * Ug3; E: Ul5 Um5; B: Uj5, then its King; vertical Lk5) but Uk9. */
    if (!setup(&pos, "megastar", ms_fen("KUi5 RUk5 lUl11 kLq1", W)))
        return;
    CHECK(!pos_in_check(&pos));
    CHECK_EQ_STR(legal_moves_text(&pos, "Uk5", buf, sizeof buf),
                 moves_from("Uk5", "Uk6 Uk7 Uk8 Uk10 Uk11 Uk4 Uk3 Uk2 Uk1 Ul6 Um7 Uj4 Ui3 Uh3 Ug3 Ul5 Um5 Uj5 Lk5"));
}

TEST(megastar_pawn_steps_and_captures)
{
    /* Pawn Ui5 (not a start cell): forward (0,1) Ui6 only; it captures (0,1) on the other
     * level, Li6, and nothing on its own level (Uh6, Uj6, Ui6 hold enemies here). */
    CHECK_MOVES("KUa1 kLq1 PUi5", W, "Ui5", "Ui6");
    CHECK_MOVES("KUa1 kLq1 PUi5 nLi6 nUh6 nUj6", W, "Ui5", "Ui6 Li6");
    CHECK_MOVES("KUa1 kLq1 PUi5 nUi6 nLi6", W, "Ui5", "Li6");
    /* Pawn Ui2 (a White start cell): Ui3 and Ui4; Ui4 occupied: only Ui3; Ui3 occupied: no
     * step at all (the double step goes through an empty cell). */
    CHECK_MOVES("KUa1 kLq1 PUi2", W, "Ui2", "Ui3 Ui4");
    CHECK_MOVES("KUa1 kLq1 PUi2 nUi4", W, "Ui2", "Ui3");
    CHECK_MOVES("KUa1 kLq1 PUi2 nUi3", W, "Ui2", "");
    /* Any start cell of its side: a pawn on Uk4 = (2,-3) (the upper k-pawn's start; this one
     * may have come from Lk3 = (2,-4) by a capture) double steps to Uk6; on Uk5, not a start
     * cell, it steps to Uk6 only.  A lower pawn on its own start Lk3: Lk4, Lk5.  (Uk3, below
     * Uk4, is refused in position text: no White pawn can ever get there.) */
    CHECK_MOVES("KUa1 kLq1 PUk4", W, "Uk4", "Uk5 Uk6");
    CHECK_MOVES("KUa1 kLq1 PUk5", W, "Uk5", "Uk6");
    CHECK_MOVES("KUa1 kLq1 PLk3", W, "Lk3", "Lk4 Lk5");
    /* Black, mirrored: forward (0,-1).  Li8 = (0,3) is a Black start cell: Li7, Li6; it
     * captures (0,2) on U = Ui7. */
    CHECK_MOVES("KUa1 kLq1 pLi8 NUi7", B, "Li8", "Li7 Li6 Ui7");
    /* Ui3 is no Black start cell: one step. */
    CHECK_MOVES("KUa1 kLq1 pUi3", B, "Ui3", "Ui2");
}

TEST(megastar_pawn_promotion)
{
    /* Pawn Ui8 = (0,3): Ui9 = (0,4) is the last Drum cell of file i (the next, (0,5), is off
     * the Drum), so the step and the capture onto Li9 each come in 8 forms, R N C F T B S L. */
    CHECK_MOVES("KUa1 kLq1 PUi8 nLi9", W, "Ui8",
                "Ui9r Ui9n Ui9c Ui9f Ui9t Ui9b Ui9s Ui9l Li9r Li9n Li9c Li9f Li9t Li9b Li9s Li9l");
    /* File j's top Drum cell is Uj9 = (1,3); Uj10 exists on U, but a pawn promotes on Uj9. */
    CHECK_MOVES("KUa1 kLq1 PUj8", W, "Uj8", "Uj9r Uj9n Uj9c Uj9f Uj9t Uj9b Uj9s Uj9l");
    /* Black promotes at the bottom: file m's Drum is ranks 5..9, so pawn Lm6 = (4,-3) steps
     * to Lm5 = (4,-4) (r = -5 is outside the Drum) and promotes; it may also take Um5. */
    CHECK_MOVES("KUa1 kLq1 pLm6 RUm5", B, "Lm6",
                "Lm5r Lm5n Lm5c Lm5f Lm5t Lm5b Lm5s Lm5l Um5r Um5n Um5c Um5f Um5t Um5b Um5s Um5l");
    /* The promoted piece is on the board at once. */
    Game g;
    if (!start_game(&g, "megastar", ms_fen("KUa1 kLq1 PUi8", W)))
        return;
    CHECK(play_moves(&g, "Ui8Ui9l"));
    CHECK_EQ_STR(fen_of(&g.pos), ms_fen("KUa1 kLq1 LUi9", "b - 0 1"));
    game_free(&g);
}

TEST(megastar_en_passant)
{
    Game g;
    char buf[1024];
    /* White Ui2Ui4 passes Ui3 = (0,-2).  A Black pawn captures (q, r-1) on the other level,
     * so the one that can capture on Ui3 stands on L (0,-1) = Li4, right below Ui4. */
    char start[FEN_MAX];
    snprintf(start, sizeof start, "%s", ms_fen("KUa1 kLq1 PUi2 pLi4", W));
    if (!start_game(&g, "megastar", start))
        return;
    CHECK(play_moves(&g, "Ui2Ui4"));
    CHECK_EQ_STR(fen_of(&g.pos), ms_fen("KUa1 kLq1 PUi4 pLi4", "b Ui3 0 1"));
    CHECK_EQ_STR(legal_moves_text(&g.pos, "Li4", buf, sizeof buf), "Li4Li3 Li4Ui3");
    CHECK(play_moves(&g, "Li4Ui3"));
    CHECK_EQ_STR(fen_of(&g.pos), ms_fen("KUa1 kLq1 pUi3", "w - 0 2"));
    /* On that move only: after a King move each, the capture is gone. */
    game_free(&g);
    if (!start_game(&g, "megastar", start))
        return;
    CHECK(play_moves(&g, "Ui2Ui4 Lq1Lp1 Ua1Ub1"));
    CHECK_EQ_STR(legal_moves_text(&g.pos, "Li4", buf, sizeof buf), "Li4Li3");
    /* A single step gives no en passant: Ui3Ui4 with the Black pawn on Li4. */
    game_free(&g);
    if (!start_game(&g, "megastar", ms_fen("KUa1 kLq1 PUi3 pLi4", W)))
        return;
    CHECK(play_moves(&g, "Ui3Ui4"));
    CHECK_EQ_STR(legal_moves_text(&g.pos, "Li4", buf, sizeof buf), "Li4Li3");
    /* Black's double step Li8Li6 passes Li7 = (0,2); White captures (q, r+1) on the other
     * level, so the taker stands on Ui6 = (0,1), right above Li6. */
    game_free(&g);
    if (!start_game(&g, "megastar", ms_fen("KUa1 kLq1 PUi6 pLi8", B)))
        return;
    CHECK(play_moves(&g, "Li8Li6"));
    CHECK_EQ_STR(legal_moves_text(&g.pos, "Ui6", buf, sizeof buf), "Ui6Li7 Ui6Ui7");
    CHECK(play_moves(&g, "Ui6Li7"));
    CHECK_EQ_STR(fen_of(&g.pos), ms_fen("KUa1 kLq1 PLi7", "b - 0 2"));
    game_free(&g);
}

TEST(megastar_checks_by_every_kind)
{
    /* White King on Ui5 = (0,0); one Black man; is White in check? */
    static const struct {
        const char *attacker;
        bool check;
    } cases[] = {
        {"nLi7", true},  /* Knight L (0,2) -> U (0,0): d = (0,-1), all three cells in the Drum */
        {"nUi7", false}, /* the same vector on the same level: a Knight always changes level */
        {"tLl9", true},  /* Fortnight L (3,1) -> U (0,0) by (-3,-1) */
        {"tUl9", false}, /* on the same level: no */
        {"pLi6", true},  /* Black pawn L (0,1) captures (0,0) on the other level */
        {"pUi6", false}, /* same level: a pawn never captures there */
        {"pLi4", false}, /* behind the King */
        {"rLi5", true},  /* Rook's vertical step */
        {"rLj5", false}, /* no root-2 diagonal for a Rook */
        {"fLi5", true},  /* Finch's vertical step */
        {"cLi5", true},  /* Cohen's vertical step */
        {"bLi5", false}, /* a Rabbi never changes level */
        {"sUk8", true},  /* Sennight (2,1) */
        {"sLk8", false}, /* Sennight vectors stay on the level */
        {"cUj7", true},  /* Cohen: diagonal rose, one step (1,1) -> (0,0) */
        {"fUk7", true},  /* Finch on (2,0): the 3-step orthogonal rose B,C,D = (1,1),(0,1),(0,0)
                            reaches the King two straight steps away */
        {"fUk7 RUj7 RUj5", false}, /* ... not when both such paths are blocked: B,C,D passes
                            (1,1) Uj7, D,C,B passes (2,-1),(1,-1) Uj5 (no other rose path of
                            1-4 steps ends 2 straight steps away) */
        {"lUk9", false}, /* Sling on the diagonal with no screen: no capture without a screen */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char pieces[64];
        Position pos;
        snprintf(pieces, sizeof pieces, "KUi5 kLq1 %s", cases[i].attacker);
        if (setup(&pos, "megastar", ms_fen(pieces, W)) && pos_in_check(&pos) != cases[i].check)
            test_fail(__FILE__, __LINE__, "%s: check should be %d", cases[i].attacker, cases[i].check);
    }
}

TEST(megastar_knight_mate)
{
    /* White King Ue5 = (-4,0): its moves are Ue6 (-4,1), Uf5 (-3,0), Uf4 (-3,-1), Ud1 (-5,1),
     * vertical Le5, diagonals Le6 Lf5 Lf4 (Le4 = (-4,-1) is outside the Drum).  All eight
     * hold White men that cannot reach Le7 = (-4,2) on L: the U men (Rabbis, a Sennight) never
     * change level; Le5 Rabbi (vector (0,2), length^2 4: not in a diagonal rose), Le6 Rabbi
     * ((0,1)), Lf5 Sennight ((-1,2), length^2 3, not 7), Lf4 Rabbi ((-1,3), length^2 7).
     * The Black Knight Ue9 = (-4,4) leaps to Le7 ((-4,3), (-4,2) in the Drum) and from there
     * attacks Ue5 by d = (0,-1): mate, as it cannot be blocked or taken. */
    const char *fen = ms_fen("KUe5 BUe6 SUf5 BUf4 BUd1 BLe5 BLe6 SLf5 BLf4 nUe9 kLq1", B);
    Game g;
    char err[200];
    if (!start_game(&g, "megastar", fen))
        return;
    CHECK_EQ_INT(game_status(&g).kind, RESULT_NONE);
    CHECK(play_moves(&g, "Ue9Le7"));
    CHECK(pos_in_check(&g.pos));
    GameResult r = game_status(&g);
    CHECK_EQ_INT(r.kind, RESULT_BLACK_WINS);
    CHECK_EQ_STR(r.reason ? r.reason : "(none)", "checkmate");
    /* SAN marks the mate. */
    char san[MOVE_TEXT_MAX];
    game_undo(&g);
    Move m = parse_move(&g.pos, "Ue9Le7", err, sizeof err);
    CHECK(m != MOVE_NONE);
    move_to_san(&g.pos, m, san);
    CHECK_EQ_STR(san, "NLe7#");
    game_free(&g);
}

TEST(megastar_game_ends)
{
    /* Stalemate: White King Ua1 alone; Ub1 (-7,3) is covered by the Rook Ue8 (-4,3) along
     * r = 3 (Ud3, Uc2 empty), Ub2 (-7,4) by the Rook Ud2 (-5,2) along (-1,1) (Uc2); neither
     * line reaches Ua1 (-8,4). */
    CHECK_RESULT(status_after("megastar", ms_fen("KUa1 rUe8 rUd2 kLq1", W), ""), RESULT_DRAW, "stalemate");
    /* Threefold repetition: the Kings step out and back twice. */
    char rooks[FEN_MAX];
    snprintf(rooks, sizeof rooks, "%s", ms_fen("KUa1 RUg3 rLg9 kLq1", W));
    CHECK_RESULT(status_after("megastar", rooks, "Ua1Ub1 Lq1Lp1 Ub1Ua1 Lp1Lq1 Ua1Ub1 Lq1Lp1 Ub1Ua1"), RESULT_NONE, "(none)");
    CHECK_RESULT(status_after("megastar", rooks, "Ua1Ub1 Lq1Lp1 Ub1Ua1 Lp1Lq1 Ua1Ub1 Lq1Lp1 Ub1Ua1 Lp1Lq1"), RESULT_DRAW,
                    "repetition");
    /* 100 plies without capture or pawn move. */
    CHECK_RESULT(status_after("megastar", ms_fen("KUa1 RUg3 rLg9 kLq1", "w - 99 70"), "Ua1Ub1"), RESULT_DRAW, "fifty-move");
    CHECK_RESULT(status_after("megastar", ms_fen("KUa1 RUg3 rLg9 kLq1", "w - 98 70"), "Ua1Ub1"), RESULT_NONE, "(none)");
    /* King against King: at once, and after the King takes the last man (the Rook on Ub1
     * checks along (-1,1); Ub2 is covered by it along (0,1), so the capture is forced). */
    CHECK_RESULT(status_after("megastar", ms_fen("KUa1 kLq1", W), ""), RESULT_DRAW, "insufficient-material");
    Position pos;
    char buf[256];
    if (setup(&pos, "megastar", ms_fen("KUa1 rUb1 kLq1", W)))
        CHECK_EQ_STR(legal_moves_text(&pos, NULL, buf, sizeof buf), "Ua1Ub1");
    CHECK_RESULT(status_after("megastar", ms_fen("KUa1 rUb1 kLq1", W), "Ua1Ub1"), RESULT_DRAW, "insufficient-material");
    /* A Rook each is no dead position. */
    CHECK_RESULT(status_after("megastar", rooks, ""), RESULT_NONE, "(none)");
}

TEST(megastar_fen_round_trips)
{
    static const char *const fens[] = {
        /* the start */
        "1/2/3/4/5/RP2pr/NP3pn/NP4pn/FP5pf/1FP4pf1/1BKP3pkb1/LBBSP2psbbl/LL2RP1pr2ll/"
        "LL2RP1pr2ll/LBBSP2psbbl/1BCP3pcb1/1TP4pt1/TP5pt/NP4pn/PN3np/RP2pr/5/4/3/2/1 w - 0 1",
        /* after Ui2Ui4: file i upper (row 9) F,P,5 empty,p,f becomes F,2 empty,P,3 empty,p,f */
        "1/2/3/4/5/RP2pr/NP3pn/NP4pn/F2P3pf/1FP4pf1/1BKP3pkb1/LBBSP2psbbl/LL2RP1pr2ll/"
        "LL2RP1pr2ll/LBBSP2psbbl/1BCP3pcb1/1TP4pt1/TP5pt/NP4pn/PN3np/RP2pr/5/4/3/2/1 b Ui3 0 1",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        Position pos;
        if (setup(&pos, "megastar", fens[i]))
            CHECK_EQ_STR(fen_of(&pos), fens[i]);
    }
    /* The engine writes the same text after playing the double step. */
    Game g;
    if (start_game(&g, "megastar", NULL)) {
        if (play_moves(&g, "Ui2Ui4"))
            CHECK_EQ_STR(fen_of(&g.pos), fens[1]);
        game_free(&g);
    }
    /* Counters kept; left out they default to 0 1; an EP cell with no capture possible is
     * accepted and written back. */
    const char *counters = ms_fen("KUa1 RUg3 rLg9 kLq1", "b - 37 60");
    Position pos;
    if (setup(&pos, "megastar", counters))
        CHECK_EQ_STR(fen_of(&pos), counters);
    char text[FEN_MAX];
    snprintf(text, sizeof text, "%s", ms_fen("KUa1 RUg3 rLg9 kLq1", "w -"));
    if (setup(&pos, "megastar", text))
        CHECK_EQ_STR(fen_of(&pos), ms_fen("KUa1 RUg3 rLg9 kLq1", "w - 0 1"));
    snprintf(text, sizeof text, "%s", ms_fen("KUa1 kLq1 PLk5", "b Lk4 0 1"));
    if (setup(&pos, "megastar", text))
        CHECK_EQ_STR(fen_of(&pos), text);
    /* A Black double step from Lj8 = (1,2) over Lj7 = (1,1) to Lj6 = (1,0), read from the
     * text: the pawn on Uj6 = (1,0), right above Lj6, takes en passant on Lj7 (its capture
     * cell (1,1) on L) or steps to Uj7; the pawn on Uj5 = (1,-1) is blocked by it and takes
     * Lj6 = (1,0) on L, the double-stepped pawn itself, in the ordinary way. */
    snprintf(text, sizeof text, "%s", ms_fen("KUa1 kLq1 pLj6 PUj6 PUj5", "w Lj7 0 5"));
    if (setup(&pos, "megastar", text)) {
        CHECK_EQ_STR(fen_of(&pos), text);
        char buf[256];
        CHECK_EQ_STR(legal_moves_text(&pos, "Uj6", buf, sizeof buf), "Uj6Lj7 Uj6Uj7");
        CHECK_EQ_STR(legal_moves_text(&pos, "Uj5", buf, sizeof buf), "Uj5Lj6");
    }
}

TEST(megastar_fen_errors)
{
    CHECK_EQ_STR(fen_error("megastar", ms_fen("KUa1 kLq1", "w - 0")), "position text has 4 fields, expected 5 (or 3)");
    CHECK_EQ_STR(fen_error("megastar", ms_fen("KUa1 kLq1", "w")), "position text has 2 fields, expected 5 (or 3)");
    CHECK_EQ_STR(fen_error("megastar", "K/2/3/4/5/6/7/8/9/10/11/12/13/13/12/11/10/9/8/7/6/5/4/3/2 w - 0 1"),
                 "the board has 25 rows, expected 26");
    CHECK_EQ_STR(fen_error("megastar", "K/2/3/4/5/6/7/8/9/10/11/12/13/13/12/11/10/9/8/7/6/5/4/3/2/k/1 w - 0 1"),
                 "the board has more than 26 rows");
    CHECK_EQ_STR(fen_error("megastar", "K1/2/3/4/5/6/7/8/9/10/11/12/13/13/12/11/10/9/8/7/6/5/4/3/2/k w - 0 1"),
                 "row 1 of the board has more than 1 cells");
    CHECK_EQ_STR(fen_error("megastar", "K/2/3/4/5/6/7/8/9/10/11/12/12/13/12/11/10/9/8/7/6/5/4/3/2/k w - 0 1"),
                 "row 13 of the board has 12 cells, expected 13");
    CHECK_EQ_STR(fen_error("megastar", "Q/2/3/4/5/6/7/8/9/10/11/12/13/13/12/11/10/9/8/7/6/5/4/3/2/k w - 0 1"),
                 "unknown piece letter 'Q' in the board");
    CHECK_EQ_STR(fen_error("megastar", ms_fen("KUa1 kLq1 kLp1", W)), "Black has 2 kings, expected 1");
    CHECK_EQ_STR(fen_error("megastar", ms_fen("kLq1", W)), "White has 0 kings, expected 1");
    /* Pawns only stand where a pawn of their side can get: inside the Drum, not on the last
     * cell of its file (it would have promoted), not below its side's start cells. */
    CHECK_EQ_STR(fen_error("megastar", ms_fen("KUa1 kLq1 PUj10", W)), "White pawn on Uj10: no pawn of that side can stand there");
    CHECK_EQ_STR(fen_error("megastar", ms_fen("KUa1 kLq1 PUi9", W)), "White pawn on Ui9: no pawn of that side can stand there");
    CHECK_EQ_STR(fen_error("megastar", ms_fen("KUa1 kLq1 pLi1", W)), "Black pawn on Li1: no pawn of that side can stand there");
    /* Black, not to move, in check from a White Knight across the levels. */
    CHECK_EQ_STR(fen_error("megastar", ms_fen("KUa1 kLi5 NUi7", W)), "Black, not to move, is in check");
    CHECK_EQ_STR(fen_error("megastar", ms_fen("KUa1 kLq1", "x - 0 1")), "side to move must be 'w' or 'b', not 'x'");
    /* EP cells: Ui3 needs a White pawn on Ui4 and Ui2 empty; Zz9 is no cell. */
    CHECK_EQ_STR(fen_error("megastar", ms_fen("KUa1 kLq1", "b Ui3 0 1")), "en-passant cell Ui3 does not follow a double step");
    CHECK_EQ_STR(fen_error("megastar", ms_fen("KUa1 kLq1 PUi4", "w Ui3 0 1")),
                 "en-passant cell Ui3 does not follow a double step"); /* wrong side to move */
    CHECK_EQ_STR(fen_error("megastar", ms_fen("KUa1 kLq1 PUi4", "b Zz9 0 1")), "bad en-passant cell 'Zz9'");
    CHECK_EQ_STR(fen_error("megastar", ms_fen("KUa1 kLq1 PUi4", "b Ui3 0 1")), "(accepted)");
    CHECK_EQ_STR(fen_error("megastar", ms_fen("KUa1 kLq1", "w - -1 1")), "bad move counters '-1 1'");
}
