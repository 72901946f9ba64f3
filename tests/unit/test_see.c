/*
 * Static exchange evaluation on every kind of attacker: captures defended or not, a rook
 * behind a rook (x-ray), a capture whose mover Starvation removes, and Megastar's Slings,
 * whose captures hop a screen: when a Sling leaves its cell, another Sling behind it can find
 * one screen fewer on its line and recapture.  Piece values are the variants' own (chess:
 * pawn 100, knight 320, rook 500; Megastar: knight 250, Sling 250).  And on random positions
 * of every variant, every move's exchange value equals an exchange played out by brute force,
 * each capturer found by generating the captures on the cell.
 */
#include "../../src/engine/eval.h"
#include "../../src/engine/see.h"
#include "../../src/util/rng.h"
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

/* A capturer's worth in an exchange: a royal piece outweighs any material. */
static int worth(const Position *pos, const int *value, Cell c)
{
    return pos->v->is_royal[pos->board[c]] ? 100000 : value[pos->board[c]];
}

/* What `side` wins at best by going on with the exchange on x, where a piece worth `at_stake`
 * stands: it captures with its least valuable piece (the lowest cell among equals) among the
 * pieces whose captures move generation lists, or stops. */
static int exchange_gain(Position *pos, Cell x, int side, int at_stake, const int *value)
{
    Move moves[MAX_MOVES];
    pos->side = side;
    int n = gen_captures(pos, moves);
    Cell best = NO_CELL;
    for (int i = 0; i < n; i++) {
        Cell from = MOVE_FROM(moves[i]);
        if (MOVE_TO(moves[i]) == x && MOVE_KIND(moves[i]) == MK_NORMAL &&
            (best == NO_CELL || worth(pos, value, from) < worth(pos, value, best) ||
             (worth(pos, value, from) == worth(pos, value, best) && from < best)))
            best = from;
    }
    if (best == NO_CELL)
        return 0;
    int capturer = worth(pos, value, best);
    uint8_t taken = pos->board[x], piece = pos->board[best];
    pos_take(pos, x);
    pos_take(pos, best);
    pos_put(pos, piece, x);
    int gain = at_stake - exchange_gain(pos, x, side ^ 1, capturer, value);
    pos_take(pos, x);
    pos_put(pos, piece, best);
    pos_put(pos, taken, x);
    return gain > 0 ? gain : 0;
}

/* The exchange value of move m by brute force (see.h's contract). */
static int brute_see(const Position *start, Move m, const int *value)
{
    MoveKind kind = MOVE_KIND(m);
    if (kind == MK_PLACE || kind == MK_CASTLE)
        return 0;
    Position pos = *start;
    Cell from = MOVE_FROM(m), to = MOVE_TO(m), victim_cell = kind == MK_EP ? pos.ep_victim : to;
    int victim = value[pos.board[victim_cell]], mover = worth(&pos, value, from);
    if (pos.v->def->removal_unless_near_pawn && pos_move_removes(&pos, m))
        return victim - mover;
    uint8_t piece = pos.board[from];
    if (pos.board[victim_cell])
        pos_take(&pos, victim_cell);
    pos_take(&pos, from);
    pos_put(&pos, piece, to);
    pos.ep = pos.ep_victim = NO_CELL;
    pos.castling = 0;
    return victim - exchange_gain(&pos, to, start->side ^ 1, mover, value);
}

/* Every pseudo-legal move of pos: see() against brute force; returns how many were compared. */
static int compare_see(const Position *pos, const int *value)
{
    Move moves[MAX_MOVES];
    int n = gen_pseudo(pos, moves);
    for (int i = 0; i < n; i++) {
        int fast = see(pos, moves[i], value), slow = brute_see(pos, moves[i], value);
        if (fast != slow) {
            char text[MOVE_TEXT_MAX];
            move_to_text(pos, moves[i], text);
            test_fail(__FILE__, __LINE__, "%s %s: see %d, brute force %d", fen_of(pos), text, fast, slow);
            return -1;
        }
    }
    return n;
}

TEST(see_equals_brute_force_in_random_positions)
{
    uint64_t seed = 15;
    for (int i = 0; i < variant_count(); i++) {
        const Variant *v = variant_at(i);
        /* The variant's values, and random ones with many ties (equal values of different
         * kinds make the choice among them, and what it uncovers, matter). */
        int own[MAX_CODES], tied[MAX_CODES];
        memcpy(own, eval_tables(v)->value, sizeof own);
        for (int t = 0; t < MAX_TYPES; t++) {
            int worth_t = 100 * (1 + (int)rng_below(&seed, 3));
            for (int colour = 0; colour < 2; colour++)
                tied[MAKE_PIECE(colour, t)] = t ? worth_t : 0;
        }
        int compared = 0;
        for (int game = 0; game < 8 && compared >= 0; game++) {
            Game g = {0};
            char err[200];
            if (!game_init(&g, v, NULL, err, sizeof err))
                continue;
            for (int ply = 0; ply < 120 && compared >= 0; ply++) {
                Move legal[MAX_MOVES];
                if (!g.pos.hand_total[WHITE] && !g.pos.hand_total[BLACK]) {
                    int a = compare_see(&g.pos, own), b = a < 0 ? a : compare_see(&g.pos, tied);
                    compared = b < 0 ? -1 : compared + a + b;
                }
                int nl = gen_legal(&g.pos, legal);
                if (nl == 0)
                    break;
                game_play(&g, legal[rng_below(&seed, (uint64_t)nl)]);
            }
            game_free(&g);
        }
        if (compared >= 0 && compared < 5000)
            test_fail(__FILE__, __LINE__, "%s: only %d moves compared", v->def->name, compared);
    }
}
