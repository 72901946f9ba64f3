#include "tournament_standings.h"

#include <stdlib.h>
#include <string.h>

bool standings_robin(const Standings *s)
{
    return strcmp(s->t.system, "robin") == 0;
}

int standings_find(const Standings *s, const char *user)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->entrants[i].user, user) == 0)
            return i;
    return -1;
}

ArenaOutcome standings_outcome(const TourGameRow *g, int side)
{
    bool white_won = strcmp(g->result, "1-0") == 0, black_won = strcmp(g->result, "0-1") == 0;
    if (white_won || black_won)
        return (white_won == (side == 0)) ? ARENA_WIN : ARENA_LOSS;
    return ARENA_DRAW;
}

/* Does the game count: over, not aborted? */
static bool counts(const TourGameRow *g)
{
    return strcmp(g->result, "*") != 0 && strcmp(g->result, "aborted") != 0;
}

/* The arena's sheet of player i from the games (finished ones first, by their end). */
static bool arena_line(Standings *s, Standing *line)
{
    ArenaGame *played = malloc((size_t)(s->ngames ? s->ngames : 1) * sizeof *played);
    if (!played)
        return false;
    int n = 0;
    for (int k = 0; k < s->ngames; k++) {
        const TourGameRow *g = &s->games[k];
        for (int side = 0; side < 2; side++) {
            if (strcmp(g->user[side], line->e->user) != 0 || !counts(g))
                continue;
            played[n++] = (ArenaGame){standings_outcome(g, side), g->berserk[side], (g->plies + (side == 0)) / 2,
                                      g->plies};
        }
    }
    line->scores = malloc((size_t)n + 1);
    if (line->scores)
        arena_sheet(played, n, &line->sheet, line->scores);
    line->score = line->sheet.score;
    free(played);
    return line->scores != NULL;
}

/* Game counts, the last opponent and colours, whether playing: for both systems. */
static void history_of(Standings *s, Standing *line)
{
    line->last_opponent = -1;
    for (int k = 0; k < s->ngames; k++) {
        const TourGameRow *g = &s->games[k];
        for (int side = 0; side < 2; side++) {
            if (strcmp(g->user[side], line->e->user) != 0)
                continue;
            if (strcmp(g->result, "*") == 0) {
                line->playing = true;
                continue;
            }
            if (!counts(g))
                continue;
            line->games++;
            ArenaOutcome o = standings_outcome(g, side);
            line->draws += o == ARENA_DRAW;
            line->losses += o == ARENA_LOSS;
            line->colour_balance += side == 0 ? 1 : -1;
            line->last_white = side == 0;
            line->last_opponent = standings_find(s, g->user[side ^ 1]);
            line->last_end_ms = g->ended_ms;
        }
    }
}

/* A round robin's points (in halves) and Sonneborn-Berger (each opponent's points times the
 * result against it, in quarters), once every line has its points. */
static void robin_points(Standings *s)
{
    for (int i = 0; i < s->n; i++) {
        Standing *line = &s->lines[i];
        line->score = 2 * (line->games - line->draws - line->losses) + line->draws;
    }
    for (int k = 0; k < s->ngames; k++) {
        const TourGameRow *g = &s->games[k];
        if (!counts(g))
            continue;
        for (int side = 0; side < 2; side++) {
            int me = standings_find(s, g->user[side]), them = standings_find(s, g->user[side ^ 1]);
            if (me < 0 || them < 0)
                continue;
            ArenaOutcome o = standings_outcome(g, side);
            s->lines[me].tiebreak += (o == ARENA_WIN ? 2 : o == ARENA_DRAW ? 1 : 0) * s->lines[them].score;
        }
    }
}

static int by_standing(const void *a, const void *b)
{
    const Standing *x = a, *y = b;
    if (x->score != y->score)
        return y->score - x->score;
    if (x->tiebreak != y->tiebreak)
        return y->tiebreak - x->tiebreak;
    if (x->e->rating != y->e->rating)
        return y->e->rating - x->e->rating;
    return x->e->seat - y->e->seat;
}

int standings_read(Store *store, const char *id, Standings *s)
{
    memset(s, 0, sizeof *s);
    int found = store_tournament_get(store, id, &s->t);
    if (found <= 0)
        return found;
    if (!store_tournament_entrants(store, id, &s->entrants, &s->n) ||
        !store_tournament_games(store, id, &s->games, &s->ngames) ||
        !(s->lines = calloc((size_t)(s->n ? s->n : 1), sizeof *s->lines))) {
        standings_free(s);
        return -1;
    }
    bool robin = standings_robin(s), ok = true;
    for (int i = 0; i < s->n; i++) {
        Standing *line = &s->lines[i];
        line->e = &s->entrants[i];
        line->index = i;
        history_of(s, line);
        ok = ok && (robin || arena_line(s, line));
    }
    if (robin)
        robin_points(s);
    /* the pairing's indexes name entrants[], which the sort leaves in place */
    qsort(s->lines, (size_t)s->n, sizeof *s->lines, by_standing);
    for (int i = 0; i < s->n; i++)
        s->lines[i].rank = i + 1;
    if (!ok) {
        standings_free(s);
        return -1;
    }
    return 1;
}

void standings_free(Standings *s)
{
    for (int i = 0; s->lines && i < s->n; i++)
        free(s->lines[i].scores);
    free(s->lines);
    free(s->entrants);
    free(s->games);
    memset(s, 0, sizeof *s);
}
