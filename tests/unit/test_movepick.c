/*
 * The staged move picker (movepick.c) on random games of every variant, the setup phases of
 * Starchess included, with random histories, killers, counter moves and table moves (each
 * a move of the position, of the position before, or random bits):
 *   - a node's picker gives every pseudo-legal move exactly once and nothing else: the table
 *     move first when it is one, then the captures and promotions that do not lose material
 *     (captures first), the killers and counter move, the quiet moves (board moves by
 *     history, best first), and the captures that lose material last;
 *   - quiescence's picker gives each capture and promotion worth a look exactly once: the
 *     promotions, and the captures that do not lose material of victims worth more than its
 *     threshold.
 */
#include "../../src/engine/movepick.h"
#include "../../src/util/rng.h"
#include "helpers.h"
#include "test.h"

/* The order of the picker's stages, by what a move is (the table move apart). */
enum { GOOD_NOISY, REFUTATION, QUIET, BAD_CAPTURE };

static int index_of(const Move *list, int n, Move m)
{
    for (int i = 0; i < n; i++)
        if (list[i] == m)
            return i;
    return -1;
}

static int stage_of(const MovePicker *mp, Move m)
{
    const Worker *w = mp->w;
    if (pos_is_capture(&w->pos, m))
        return capture_loses(w, m) ? BAD_CAPTURE : GOOD_NOISY;
    if (move_is_promotion(m))
        return GOOD_NOISY;
    return index_of(mp->refutations, 3, m) >= 0 ? REFUTATION : QUIET;
}

/* A move to remember: one of `moves`, one of `others`, random bits or none. */
static Move some_move(const Move *moves, int n, const Move *others, int nothers, uint64_t *seed)
{
    switch (rng_below(seed, 4)) {
    case 0:
        return n ? moves[rng_below(seed, (uint64_t)n)] : MOVE_NONE;
    case 1:
        return nothers ? others[rng_below(seed, (uint64_t)nothers)] : MOVE_NONE;
    case 2:
        return (Move)rng_below(seed, 1u << 23);
    default:
        return MOVE_NONE;
    }
}

/* Random killers and counter move for ply 1, and random histories for the quiet moves. */
static void remember_at_random(Worker *w, const Move *moves, int n, const Move *others, int nothers, uint64_t *seed)
{
    for (int k = 0; k < 2; k++)
        w->killers[1][k] = some_move(moves, n, others, nothers, seed);
    w->path_move[0] = 1u << 8; /* to cell 1, by the piece code 1 */
    w->path_piece[0] = 1;
    w->counter[1][1] = some_move(moves, n, others, nothers, seed);
    for (int i = 0; i < n; i++)
        w->history[w->pos.side][MOVE_FROM(moves[i])][MOVE_TO(moves[i])] = (int)rng_below(seed, 64) - 32;
}

/* A node's picker against gen_pseudo. */
static void check_node_picker(Worker *w, const Move *moves, int n, Move table)
{
    Followups none = {{NULL, NULL}};
    MovePicker mp;
    picker_init(&mp, w, table, 1, &none);
    bool given[MAX_MOVES] = {false};
    int count = 0, stage = GOOD_NOISY, last_history = 0;
    for (Move m; (m = picker_next(&mp)) != MOVE_NONE; count++) {
        int i = index_of(moves, n, m);
        if (i < 0 || given[i]) {
            const char *how = i < 0 ? "unasked" : "twice";
            test_fail(__FILE__, __LINE__, "%s: %#x given %s", fen_of(&w->pos), (unsigned)m, how);
            return;
        }
        given[i] = true;
        if (m == table) {
            CHECK_EQ_INT(count, 0);
            continue;
        }
        int s = stage_of(&mp, m);
        CHECK(s >= stage);
        if (s == QUIET && MOVE_KIND(m) != MK_PLACE) { /* best history first */
            int h = quiet_history(w, &none, m);
            CHECK(stage != QUIET || h <= last_history);
            last_history = h;
        }
        stage = s;
    }
    CHECK_EQ_INT(count, n);
}

/* Does quiescence try this capture or promotion? */
static bool worth_a_look(const Worker *w, Move m, int futile)
{
    return move_is_promotion(m) || (victim_value(w, m) > futile && !capture_loses(w, m));
}

/* Quiescence's picker against gen_captures. */
static void check_capture_picker(Worker *w, Move table, int futile)
{
    Move noisy[MAX_MOVES];
    int n = gen_captures(&w->pos, noisy), expected = 0, count = 0;
    bool given[MAX_MOVES] = {false};
    MovePicker mp;
    picker_init_captures(&mp, w, table, 1, futile);
    for (int i = 0; i < n; i++)
        expected += worth_a_look(w, noisy[i], futile);
    for (Move m; (m = picker_next(&mp)) != MOVE_NONE; count++) {
        int i = index_of(noisy, n, m);
        if (i < 0 || given[i] || !worth_a_look(w, m, futile)) {
            test_fail(__FILE__, __LINE__, "%s: capture %#x given unasked or twice", fen_of(&w->pos), (unsigned)m);
            return;
        }
        given[i] = true;
    }
    CHECK_EQ_INT(count, expected);
}

/* Random games of a variant from fen (NULL: the start), each position's pickers checked. */
static void random_games(Engine *e, const char *variant, const char *fen, int games, int plies, uint64_t seed)
{
    Game g = {0};
    if (!start_game(&g, variant, fen))
        return;
    Worker *w = e->workers[0];
    Shared sh = {.engine = e, .eval = eval_tables(g.pos.v)};
    w->shared = &sh;
    history_prepare(w, g.pos.v);
    Move others[MAX_MOVES];
    int nothers = 0;
    for (int game = 0; game < games; game++) {
        w->pos = g.pos;
        pos_attach_scores(&w->pos, &sh.eval->scores);
        for (int ply = 0; ply < plies; ply++) {
            Move moves[MAX_MOVES];
            int n = gen_pseudo(&w->pos, moves);
            remember_at_random(w, moves, n, others, nothers, &seed);
            check_node_picker(w, moves, n, some_move(moves, n, others, nothers, &seed));
            check_capture_picker(w, some_move(moves, n, others, nothers, &seed), (int)rng_below(&seed, 1200) - 200);
            nothers = gen_legal(&w->pos, others);
            if (nothers == 0)
                break;
            Undo u;
            pos_make(&w->pos, others[rng_below(&seed, (uint64_t)nothers)], &u);
        }
    }
    game_free(&g);
}

TEST(move_picker_gives_every_move_once_in_its_stages)
{
    Engine e;
    if (!engine_init(&e, 1))
        return;
    for (int i = 0; i < variant_count(); i++)
        random_games(&e, variant_at(i)->def->name, NULL, 4, 80, 1000 + (uint64_t)i);
    /* Promotions, captures that promote, castling and en passant. */
    random_games(&e, "chess", "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 1", 8, 30, 7);
    random_games(&e, "chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 60, 8);
    /* A setup phase with a check (placements on 11 and 17 block the bishop). */
    random_games(&e, "starchess", "1/2/K6/6/4k/1b4/7/2/1[QRBNqrn] w 0 1", 8, 30, 9);
    engine_free(&e);
}
