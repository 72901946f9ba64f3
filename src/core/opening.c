#include "opening.h"

#include <limits.h>

#include "../util/rng.h"
#include "movegen.h"

#define OPENING_TRIES 100

/* Can the side to move end the game at once (mate, or any other end)? */
static bool can_end_at_once(Game *g)
{
    Move list[MAX_MOVES];
    int n = gen_legal(&g->pos, list);
    bool ends = false;
    for (int i = 0; i < n && !ends; i++) {
        game_play(g, list[i]);
        ends = game_status(g).kind != RESULT_NONE;
        game_undo(g);
    }
    return ends;
}

/* Black's placement that mirrors White's last one (the same piece on the image of its cell),
 * or MOVE_NONE when there is none among the legal moves. */
static Move mirrored_placement(const Move *list, int n, Move white, const Cell *mirror)
{
    for (int i = 0; i < n; i++)
        if (MOVE_KIND(list[i]) == MK_PLACE && MOVE_PIECE(list[i]) == MOVE_PIECE(white) &&
            MOVE_TO(list[i]) == mirror[MOVE_TO(white)])
            return list[i];
    return MOVE_NONE;
}

/* One random line from where g stands, of at most `placements` placements and then `plies`
 * movement plies; false where it runs out of moves that keep the game open.  With `mirror`,
 * Black answers each placement of White's with its image, and the line fails if it cannot. */
static bool try_opening(Game *g, int placements, int plies, const Cell *mirror, uint64_t state)
{
    int movement = 0, placed = 0;
    for (;;) {
        bool placing = g->pos.hand_total[WHITE] + g->pos.hand_total[BLACK] > 0;
        if ((!placing && movement >= plies) || (placing && placed >= placements))
            return true;
        Move list[MAX_MOVES];
        int n = gen_legal(&g->pos, list);
        /* Black to place, just after White's placement: only its image. */
        Move last = g->n ? g->moves[g->n - 1] : MOVE_NONE;
        if (placing && mirror && g->pos.side == BLACK && last != MOVE_NONE && MOVE_KIND(last) == MK_PLACE) {
            list[0] = mirrored_placement(list, n, last, mirror);
            n = list[0] != MOVE_NONE;
        }
        bool played = false;
        while (n > 0 && !played) {
            int i = (int)rng_below(&state, (uint64_t)n);
            game_play(g, list[i]);
            played = game_status(g).kind == RESULT_NONE && !can_end_at_once(g);
            if (!played) {
                game_undo(g);
                list[i] = list[--n];
            }
        }
        if (!played)
            return false;
        movement += !placing;
        placed += placing;
    }
}

static bool random_line(Game *g, int placements, int plies, const Cell *mirror, uint64_t seed)
{
    uint64_t state = seed;
    for (int attempt = 0; attempt < OPENING_TRIES; attempt++) {
        rng_next(&state);
        if (try_opening(g, placements, plies, mirror, state))
            return true;
        while (game_undo(g))
            ;
    }
    return false;
}

bool opening_random(Game *g, int plies, uint64_t seed)
{
    return random_line(g, INT_MAX, plies, NULL, seed);
}

bool opening_random_mirrored(Game *g, int plies, uint64_t seed)
{
    Cell mirror[MAX_CELLS];
    return random_line(g, INT_MAX, plies, geo_mirror_cells(g->pos.v->geo, mirror) ? mirror : NULL, seed);
}

bool opening_random_setup(Game *g, int placements, uint64_t seed)
{
    return random_line(g, placements, 0, NULL, seed);
}
