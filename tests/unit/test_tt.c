/*
 * The transposition table: what is stored is read back, a much deeper result of the same
 * position is kept unless the new one is exact, a torn entry (two threads writing one slot at
 * once) reads as a miss, and a full bucket gives up its least valuable entry.
 */
#include "../../src/engine/tt.h"
#include "test.h"

TEST(tt_reads_back_what_it_stores)
{
    TT tt = {0};
    CHECK(tt_resize(&tt, 1));
    uint64_t key = 0x123456789abcdef0ULL;
    Move m = MOVE(12, 200, 5, MK_PLACE);
    tt_store(&tt, key, m, -29990, 37, BOUND_LOWER);
    TTEntry e;
    CHECK(tt_probe(&tt, key, &e));
    CHECK_EQ_INT(e.move, m);
    CHECK_EQ_INT(e.score, -29990);
    CHECK_EQ_INT(e.depth, 37);
    CHECK_EQ_INT(e.bound, BOUND_LOWER);
    CHECK(!tt_probe(&tt, key ^ 1ULL << 40, &e));
    /* A much shallower bound of the same position leaves the deeper entry alone... */
    tt_store(&tt, key, MOVE_NONE, 5, 2, BOUND_UPPER);
    CHECK(tt_probe(&tt, key, &e) && e.score == -29990 && e.depth == 37);
    /* ...an exact score or one nearly as deep replaces it; a store without a move keeps the
     * position's move. */
    tt_store(&tt, key, MOVE_NONE, 5, 2, BOUND_EXACT);
    CHECK(tt_probe(&tt, key, &e) && e.move == m && e.score == 5 && e.depth == 2);
    tt_store(&tt, key, MOVE_NONE, 7, -1, BOUND_LOWER);
    CHECK(tt_probe(&tt, key, &e) && e.move == m && e.score == 7 && e.depth == -1);
    tt_free(&tt);
}

TEST(tt_torn_entry_is_a_miss)
{
    TT tt = {0};
    CHECK(tt_resize(&tt, 1));
    uint64_t a = 0x1111ULL << 32 | 7, b = 0x2222ULL << 32 | 7; /* the same bucket */
    tt_store(&tt, a, MOVE(1, 2, 0, MK_NORMAL), 100, 5, BOUND_EXACT);
    tt_store(&tt, b, MOVE(3, 4, 0, MK_NORMAL), -100, 6, BOUND_EXACT);
    TTBucket *bucket = &tt.buckets[7 & tt.mask];
    /* Half of a's write, half of b's, in a's slot. */
    TTSlot *sa = NULL, *sb = NULL;
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t keyx = atomic_load(&bucket->slot[i].keyx), data = atomic_load(&bucket->slot[i].data);
        if ((keyx ^ data) == a)
            sa = &bucket->slot[i];
        if ((keyx ^ data) == b)
            sb = &bucket->slot[i];
    }
    CHECK(sa && sb && sa != sb);
    if (sa && sb) {
        atomic_store(&sa->data, atomic_load(&sb->data));
        TTEntry e;
        CHECK(!tt_probe(&tt, a, &e));
        CHECK(tt_probe(&tt, b, &e) && e.score == -100);
    }
    tt_free(&tt);
}

TEST(tt_full_bucket_drops_the_least_valuable_entry)
{
    TT tt = {0};
    CHECK(tt_resize(&tt, 1));
    uint64_t keys[TT_BUCKET + 1];
    for (int i = 0; i <= TT_BUCKET; i++)
        keys[i] = (uint64_t)(i + 1) << 40 | 3; /* one bucket */
    int depths[TT_BUCKET] = {9, 4, 12, 7};
    for (int i = 0; i < TT_BUCKET; i++)
        tt_store(&tt, keys[i], MOVE_NONE, 0, depths[i], BOUND_EXACT);
    tt_store(&tt, keys[TT_BUCKET], MOVE_NONE, 0, 1, BOUND_EXACT);
    TTEntry e;
    CHECK(!tt_probe(&tt, keys[1], &e)); /* depth 4, the shallowest, went */
    CHECK(tt_probe(&tt, keys[0], &e) && tt_probe(&tt, keys[2], &e) && tt_probe(&tt, keys[3], &e));
    CHECK(tt_probe(&tt, keys[TT_BUCKET], &e));
    /* Entries of an older search count TT_AGE_WEIGHT plies less per search. */
    tt_new_search(&tt);
    tt_new_search(&tt);
    tt_store(&tt, 99ULL << 40 | 3, MOVE_NONE, 0, 1, BOUND_EXACT);
    CHECK(!tt_probe(&tt, keys[TT_BUCKET], &e)); /* depth 1 aged twice: worth 1 - 16 */
    tt_free(&tt);
}

TEST(tt_clear_leaves_every_slot_empty)
{
    TT tt = {0};
    CHECK(tt_resize(&tt, 1));
    uint64_t old = 0x7777ULL << 40 | 4, key = 0x5555ULL << 40 | 9; /* two buckets */
    tt_store(&tt, old, MOVE(3, 4, 0, MK_NORMAL), 20, 5, BOUND_LOWER);
    tt_store(&tt, key, MOVE(1, 2, 0, MK_NORMAL), 50, 8, BOUND_EXACT);
    TTEntry e;
    /* Through enough clears for the epoch to come round again (then a real emptying). */
    for (int clears = 0; clears < 300; clears++) {
        tt_new_search(&tt);
        tt_clear(&tt);
        CHECK(!tt_probe(&tt, key, &e) && !tt_probe(&tt, old, &e));
        CHECK_EQ_INT(tt_hashfull(&tt), 0);
        /* The old entry is gone, its move too: a store without a move keeps none. */
        tt_store(&tt, key, MOVE_NONE, 7, 3, BOUND_UPPER);
        CHECK(tt_probe(&tt, key, &e) && e.move == MOVE_NONE && e.score == 7 && e.depth == 3);
        tt_store(&tt, key, MOVE(1, 2, 0, MK_NORMAL), 50, 8, BOUND_EXACT);
    }
    tt_free(&tt);
}
