#include "selfplay.h"

#include <stdio.h>

#include "../core/opening.h"
#include "../util/rng.h"

bool selfplay_game(Engine *e, const SelfPlay *sp, uint64_t seed, Game *g)
{
    char err[200];
    *g = (Game){0};
    if (!game_init(g, sp->v, NULL, err, sizeof err)) {
        fprintf(stderr, "starfish: %s\n", err);
        return false;
    }
    int in_hand = g->pos.hand_total[WHITE] + g->pos.hand_total[BLACK];
    uint64_t state = seed;
    if (sp->engine_setups && in_hand && rng_next(&state) & 1)
        opening_random_setup(g, (int)rng_below(&state, (uint64_t)in_hand), rng_next(&state));
    else
        opening_random(g, sp->random_plies, seed);
    engine_new_game(e);
    while (game_status(g).kind == RESULT_NONE) {
        if (g->n >= sp->max_plies) {
            game_agree_draw(g);
            break;
        }
        bool given_up = sp->give_up && atomic_load(sp->give_up);
        SearchResult r = given_up ? (SearchResult){.best = MOVE_NONE} : search_run(e, g, &sp->limits, NULL);
        if (r.best != MOVE_NONE && sp->searched)
            sp->searched(sp->ctx, g, &r);
        if (r.best == MOVE_NONE || !game_play(g, r.best)) {
            game_free(g);
            return false;
        }
    }
    return true;
}
