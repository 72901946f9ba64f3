#include "tournament_rules.h"

#include <stdlib.h>

int arena_points(const ArenaGame *g, bool fire)
{
    int points = g->outcome == ARENA_WIN ? 2 : g->outcome == ARENA_DRAW && g->plies >= ARENA_QUICK_DRAW_PLIES ? 1 : 0;
    if (fire)
        points *= 2;
    if (g->outcome == ARENA_WIN && g->berserk && g->own_moves >= ARENA_BERSERK_MOVES)
        points++;
    return points;
}

void arena_sheet(const ArenaGame *games, int n, ArenaSheet *sheet, char *scores)
{
    *sheet = (ArenaSheet){0};
    int streak = 0; /* wins in a row */
    for (int i = 0; i < n; i++) {
        sheet->fire = streak >= 2;
        int points = arena_points(&games[i], sheet->fire);
        sheet->score += points;
        sheet->wins += games[i].outcome == ARENA_WIN;
        sheet->berserks += games[i].berserk;
        streak = games[i].outcome == ARENA_WIN ? streak + 1 : 0;
        if (scores)
            scores[n - 1 - i] = (char)('0' + points);
    }
    sheet->fire = streak >= 2;
    if (scores)
        scores[n] = 0;
}

/* ---- Arena pairing ------------------------------------------------------------------------- */

static int by_rank(const void *a, const void *b)
{
    const ArenaWaiting *x = a, *y = b;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Does a play b with white?  Fewer whites so far, then black last time, then the better rank. */
static bool white_first(const ArenaWaiting *a, const ArenaWaiting *b)
{
    if (a->colour_balance != b->colour_balance)
        return a->colour_balance < b->colour_balance;
    if (a->last_white != b->last_white)
        return !a->last_white;
    return a->rank <= b->rank;
}

int arena_pair(const ArenaWaiting *waiting, int n, bool rematch_ok, ArenaPairing *out)
{
    ArenaWaiting *w = malloc((size_t)(n > 0 ? n : 1) * sizeof *w);
    bool *taken = calloc((size_t)(n > 0 ? n : 1), sizeof *taken);
    int pairs = 0;
    if (!w || !taken) {
        free(w);
        free(taken);
        return 0;
    }
    for (int i = 0; i < n; i++)
        w[i] = waiting[i];
    qsort(w, (size_t)n, sizeof *w, by_rank);
    for (int i = 0; i < n; i++) {
        if (taken[i])
            continue;
        int mate = -1;
        for (int j = i + 1; j < n && mate < 0; j++)
            if (!taken[j] && w[i].last_opponent != w[j].player && w[j].last_opponent != w[i].player)
                mate = j;
        if (mate < 0 && rematch_ok && n == 2 && i == 0) /* the arena's only two players meet again */
            mate = 1;
        if (mate < 0)
            continue;
        taken[i] = taken[mate] = true;
        bool first = white_first(&w[i], &w[mate]);
        out[pairs++] = (ArenaPairing){first ? w[i].player : w[mate].player, first ? w[mate].player : w[i].player};
    }
    free(w);
    free(taken);
    return pairs;
}

/* ---- Berger tables ------------------------------------------------------------------------- */

int berger_rounds(int n)
{
    return n < 2 ? 0 : n % 2 ? n : n - 1;
}

/*
 * With m players (m even; an odd field gets a dummy m-1, whose opponent sits out), numbered
 * 1..m here: in round r (1..m-1) players i and j below m meet when i + j = r + 1 (mod m - 1),
 * and the one with 2i = r + 1 (mod m - 1) meets player m.  Colours as the Berger tables have
 * them: against m, i has white in odd rounds; otherwise the lower number has white when
 * i + j is odd, the higher when it is even.  (With four players: 1-4 2-3 / 4-3 1-2 / 2-4 3-1.)
 */
int berger_round(int n, int round, ArenaPairing *out)
{
    int m = n + n % 2, cycle = m - 1;
    if (n < 2 || round < 0 || round >= 2 * cycle)
        return 0;
    bool second = round >= cycle;
    int r = round % cycle + 1, count = 0;
    for (int i = 1; i < m; i++) {
        int white, black;
        if ((2 * i) % cycle == (r + 1) % cycle) {
            white = r % 2 ? i : m;
            black = r % 2 ? m : i;
        } else {
            int j = ((r + 1 - i) % cycle + cycle) % cycle;
            if (j == 0)
                j = cycle;
            if (j <= i)
                continue; /* each pair once, from its lower number */
            bool lower_white = (i + j) % 2 == 1;
            white = lower_white ? i : j;
            black = lower_white ? j : i;
        }
        if (second) {
            int t = white;
            white = black;
            black = t;
        }
        /* back to 0-based; the dummy (m > n) means the other sits out */
        int w = white - 1, b = black - 1;
        if (w >= n)
            out[count++] = (ArenaPairing){b, -1};
        else if (b >= n)
            out[count++] = (ArenaPairing){w, -1};
        else
            out[count++] = (ArenaPairing){w, b};
    }
    return count;
}
