/*
 * A tournament's standings, computed from what the store holds (its players and their games)
 * by the rules of tournament_rules.h, never stored: an arena's scores, sheets, fire and
 * berserks; a round robin's points, Sonneborn-Berger and cross table.  What the API shows and
 * what the pairing reads.
 */
#ifndef STARFISH_SERVER_TOURNAMENT_STANDINGS_H
#define STARFISH_SERVER_TOURNAMENT_STANDINGS_H

#include "store_tournaments.h"
#include "tournament_rules.h"

/* A player's line in the standings. */
typedef struct Standing {
    const EntrantRow *e;
    int index;  /* in entrants[] */
    int rank;   /* 1 first */
    int score;  /* an arena's points; a round robin's in half points */
    int tiebreak; /* a round robin's Sonneborn-Berger, in quarter points; an arena's none */
    ArenaSheet sheet;
    char *scores; /* an arena's sheet: a digit a game, the latest first (malloc'ed) */
    int games, draws, losses;
    bool playing;        /* in a game of the tournament that goes on */
    int last_opponent;   /* entrants[] index of the last game's opponent, or -1 */
    int colour_balance;  /* whites minus blacks */
    bool last_white;
    int64_t last_end_ms; /* when its last game ended, 0 if none */
} Standing;

typedef struct Standings {
    TournamentRow t;
    EntrantRow *entrants;
    int n;
    TourGameRow *games;
    int ngames;
    Standing *lines; /* n of them, best first */
} Standings;

/* Reads tournament id and computes its standings: 1, 0 when there is no such tournament, -1
 * when the store fails or memory runs out. */
int standings_read(Store *store, const char *id, Standings *s);
void standings_free(Standings *s);
/* A player's entrants[] index by account id, or -1. */
int standings_find(const Standings *s, const char *user);
/* Is the tournament a round robin? */
bool standings_robin(const Standings *s);
/* A game's outcome for the player on `side` (0 white, 1 black): ARENA_WIN, ... */
ArenaOutcome standings_outcome(const TourGameRow *g, int side);

#endif
