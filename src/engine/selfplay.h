/*
 * Self-play: the engine plays a game against itself from a random opening.  The one loop
 * behind `starfish tune --generate` (games for fitting) and `starfish gensfen` (positions
 * for training a network).
 */
#ifndef STARFISH_SELFPLAY_H
#define STARFISH_SELFPLAY_H

#include "search.h"

typedef struct SelfPlay {
    const Variant *v;
    SearchLimits limits; /* of each move's search */
    int random_plies;    /* random movement plies after the random setup (where there is one) */
    int max_plies;       /* a game still going after this many plies ends as an agreed draw */
    /* In a variant with a setup phase, half the games (by seed) leave the setup to the engine
     * after a random number of random placements, and then have no random plies: positions of
     * the setup phase, and setups as the engine makes them. */
    bool engine_setups;
    /* Told of each searched position before its move is played (NULL: nobody). */
    void (*searched)(void *ctx, const Game *g, const SearchResult *r);
    void *ctx;
    /* Once raised (NULL: never), the game is given up before its next search. */
    const atomic_bool *give_up;
} SelfPlay;

/*
 * Plays one game on g (started here; the caller frees it) from the random opening that
 * `seed` draws, with a fresh engine state (engine_new_game), until the game ends.  The same
 * seed, limits and engine give the same game when the engine searches on one thread.
 * False, with g freed, when the game cannot start, memory ran out mid-game or it was given
 * up (sp->give_up).
 */
bool selfplay_game(Engine *e, const SelfPlay *sp, uint64_t seed, Game *g);

#endif
