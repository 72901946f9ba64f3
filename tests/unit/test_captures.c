/*
 * gen_captures lists exactly the captures and promotions of gen_pseudo, in the same order, in
 * random positions of every variant (random games from the start, placements included).
 */
#include "helpers.h"
#include "test.h"

TEST(captures_are_the_noisy_pseudo_moves)
{
    uint64_t seed = 7;
    int compared = 0;
    for (int i = 0; i < variant_count(); i++) {
        for (int game = 0; game < 20; game++) {
            Game g = {0};
            char err[200];
            if (!game_init(&g, variant_at(i), NULL, err, sizeof err))
                continue;
            for (int ply = 0; ply < 120; ply++) {
                Move all[MAX_MOVES], noisy[MAX_MOVES], legal[MAX_MOVES];
                int n = gen_pseudo(&g.pos, all), k = 0;
                for (int j = 0; j < n; j++)
                    if (pos_is_noisy(&g.pos, all[j]))
                        all[k++] = all[j];
                int c = gen_captures(&g.pos, noisy);
                bool same = c == k && memcmp(all, noisy, sizeof(Move) * (size_t)k) == 0;
                if (!same)
                    test_fail(__FILE__, __LINE__, "%s %s: %d captures and promotions, gen_captures %d",
                              variant_at(i)->def->name, fen_of(&g.pos), k, c);
                compared++;
                int nl = gen_legal(&g.pos, legal);
                if (nl == 0 || !same)
                    break;
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                game_play(&g, legal[(seed >> 33) % (uint64_t)nl]);
            }
            game_free(&g);
        }
    }
    CHECK(compared > 5000);
}
