/* The rules of tournaments (tournament_rules.h) by hand-made cases: an arena's points, fire
 * and berserk; its pairing of the players who wait; the Berger tables of a round robin. */
#include <string.h>

#include "../../src/server/tournament_rules.h"
#include "test.h"

#define WIN(moves) {ARENA_WIN, false, moves, 2 * (moves)}
#define BERSERK_WIN(moves) {ARENA_WIN, true, moves, 2 * (moves)}
#define DRAW(plies) {ARENA_DRAW, false, (plies) / 2, plies}
#define LOSS {ARENA_LOSS, false, 30, 60}

/* W W W(4) D(2, fire ends) W W W(4) L: 2+2+4+2+2+2+4+0 = 18; the sheet latest first. */
TEST(arena_fire_doubles_until_a_game_that_is_not_a_win)
{
    ArenaGame games[] = {WIN(30), WIN(30), WIN(30), DRAW(60), WIN(30), WIN(30), WIN(30), LOSS};
    ArenaSheet sheet;
    char scores[16];
    arena_sheet(games, 8, &sheet, scores);
    CHECK(sheet.score == 18);
    CHECK(strcmp(scores, "04222422") == 0);
    CHECK(!sheet.fire);
    arena_sheet(games, 7, &sheet, scores); /* three wins in a row at the end: on fire */
    CHECK(sheet.fire && sheet.score == 18 && sheet.wins == 6);
    arena_sheet(games, 2, &sheet, NULL);
    CHECK(sheet.fire && sheet.score == 4);
    arena_sheet(games, 1, &sheet, NULL);
    CHECK(!sheet.fire);
}

/* Berserk: a win of at least 7 of one's own moves one point more (5 on fire); a shorter
 * berserk win, a berserk draw or loss nothing more.  A draw in under 10 moves scores 0 (on
 * fire too), and ends the fire. */
TEST(arena_berserk_and_quick_draws)
{
    ArenaGame six = BERSERK_WIN(6), seven = BERSERK_WIN(7);
    CHECK(arena_points(&six, false) == 2);
    CHECK(arena_points(&seven, false) == 3);
    CHECK(arena_points(&seven, true) == 5);
    ArenaGame quick = DRAW(19), slow = DRAW(20), berserk_draw = {ARENA_DRAW, true, 20, 40};
    CHECK(arena_points(&quick, false) == 0 && arena_points(&quick, true) == 0);
    CHECK(arena_points(&slow, false) == 1 && arena_points(&slow, true) == 2);
    CHECK(arena_points(&berserk_draw, false) == 1);
    ArenaGame games[] = {WIN(20), BERSERK_WIN(20), BERSERK_WIN(20), DRAW(10), BERSERK_WIN(3)};
    ArenaSheet sheet;
    char scores[8];
    arena_sheet(games, 5, &sheet, scores);
    CHECK(strcmp(scores, "20532") == 0 && sheet.score == 12 && sheet.berserks == 3 && sheet.wins == 4);
}

static bool paired(const ArenaPairing *p, int n, int a, int b)
{
    for (int i = 0; i < n; i++)
        if ((p[i].white == a && p[i].black == b) || (p[i].white == b && p[i].black == a))
            return true;
    return false;
}

/* Is white-black one of the n pairings? */
static bool has(const ArenaPairing *p, int n, int white, int black)
{
    for (int i = 0; i < n; i++)
        if (p[i].white == white && p[i].black == black)
            return true;
    return false;
}

/* Closest in rank, not the last opponent; colours to the one with fewer whites. */
TEST(arena_pairing_by_rank_without_rematches)
{
    ArenaWaiting w[] = {
        {10, 1, 11, 0, true}, {11, 2, 10, 0, false}, {12, 3, -1, 1, true}, {13, 4, -1, -1, false},
    };
    ArenaPairing p[2];
    CHECK(arena_pair(w, 4, false, p) == 2);
    CHECK(paired(p, 2, 10, 12) && paired(p, 2, 11, 13)); /* 10 and 11 just met */
    CHECK(p[0].white == 10 && p[0].black == 12);        /* 12 has had more whites */
    CHECK(p[1].white == 13 && p[1].black == 11);        /* 13 fewer whites */
    /* Two who just met wait for another, unless they are the arena's only players. */
    CHECK(arena_pair(w, 2, false, p) == 0);
    CHECK(arena_pair(w, 2, true, p) == 1 && paired(p, 1, 10, 11));
    /* Three: the first with the closest other than its last opponent; one waits. */
    CHECK(arena_pair(w, 3, false, p) == 1 && paired(p, 1, 10, 12));
    /* Equal balance: who had black last takes white; then the better rank. */
    ArenaWaiting even[] = {{1, 5, -1, 0, true}, {2, 6, -1, 0, false}};
    CHECK(arena_pair(even, 2, false, p) == 1 && p[0].white == 2);
    ArenaWaiting fresh[] = {{1, 6, -1, 0, false}, {2, 5, -1, 0, false}};
    CHECK(arena_pair(fresh, 2, false, p) == 1 && p[0].white == 2);
    CHECK(arena_pair(fresh, 1, false, p) == 0);
}

/* The four-player table as published (1-4 2-3 / 4-3 1-2 / 2-4 3-1, 0-based here), its
 * second cycle swapped; and for 2..10 players: every pair meets once a cycle, nobody twice a
 * round, the whites of each player within one of each other, an odd field's byes once each. */
TEST(berger_tables)
{
    ArenaPairing p[8];
    CHECK(berger_rounds(4) == 3 && berger_rounds(5) == 5 && berger_rounds(1) == 0);
    CHECK(berger_round(4, 0, p) == 2 && has(p, 2, 0, 3) && has(p, 2, 1, 2));
    CHECK(berger_round(4, 1, p) == 2 && has(p, 2, 3, 2) && has(p, 2, 0, 1));
    CHECK(berger_round(4, 2, p) == 2 && has(p, 2, 1, 3) && has(p, 2, 2, 0));
    CHECK(berger_round(4, 3, p) == 2 && has(p, 2, 3, 0) && has(p, 2, 2, 1)); /* the second cycle */
    CHECK(berger_round(4, 6, p) == 0);
    for (int n = 2; n <= 10; n++) {
        int met[10][10] = {{0}}, whites[10] = {0}, byes[10] = {0};
        for (int r = 0; r < berger_rounds(n); r++) {
            int seen[10] = {0}, count = berger_round(n, r, p);
            CHECK(count == (n + 1) / 2);
            for (int k = 0; k < count; k++) {
                CHECK(!seen[p[k].white]++);
                if (p[k].black < 0) {
                    byes[p[k].white]++;
                    continue;
                }
                CHECK(!seen[p[k].black]++);
                met[p[k].white][p[k].black]++;
                met[p[k].black][p[k].white]++;
                whites[p[k].white]++;
            }
        }
        int least = 99, most = 0;
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++)
                CHECK(met[a][b] == (a != b));
            CHECK(byes[a] == n % 2);
            least = whites[a] < least ? whites[a] : least;
            most = whites[a] > most ? whites[a] : most;
        }
        CHECK(most - least <= 1);
    }
}
