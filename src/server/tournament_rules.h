/*
 * The rules of tournaments as pure functions (no store, no clock): an arena's scoring
 * (lichess's: a win 2, a draw 1, a loss 0; on fire after two wins in a row, double until a
 * game that is not a win; a berserk win of at least 7 moves one point more; a draw within
 * the first 10 moves 0), an arena's pairing of the players who wait, and a round robin's
 * Berger tables.  The tournament service (tournament_service.c) feeds them what the store
 * holds; the tests (tests/unit/test_tournament.c) check them by hand-made cases.
 */
#ifndef STARFISH_SERVER_TOURNAMENT_RULES_H
#define STARFISH_SERVER_TOURNAMENT_RULES_H

#include <stdbool.h>

#define ARENA_BERSERK_MOVES 7 /* a berserker's win counts its extra point from this many moves */
#define ARENA_QUICK_DRAW_PLIES 20 /* a draw in fewer plies than this (10 moves) scores nothing */

typedef enum ArenaOutcome { ARENA_LOSS, ARENA_DRAW, ARENA_WIN } ArenaOutcome;

/* One finished game of a player's, as the arena scores it. */
typedef struct ArenaGame {
    ArenaOutcome outcome;
    bool berserk;  /* the player berserked */
    int own_moves; /* moves the player made */
    int plies;     /* the game's length */
} ArenaGame;

/* A player's sheet: the points of each game and the total. */
typedef struct ArenaSheet {
    int score;
    bool fire;      /* on fire now: the next win scores double */
    int wins, berserks;
} ArenaSheet;

/* The points of one game (0-5), `fire`: the player was on fire before it. */
int arena_points(const ArenaGame *g, bool fire);
/* The sheet of a player's games, oldest first; `scores` (n + 1 chars, or NULL) gets each
 * game's points as a digit, the latest first (lichess's sheet.scores). */
void arena_sheet(const ArenaGame *games, int n, ArenaSheet *sheet, char *scores);

/* A player who waits for a game, as the pairing sees it. */
typedef struct ArenaWaiting {
    int player;        /* the caller's index */
    int rank;          /* in the standings, 1 first */
    int last_opponent; /* the player index of the last game's opponent, -1 if none */
    int colour_balance; /* whites minus blacks so far */
    bool last_white;   /* the last game was played with white */
} ArenaWaiting;

typedef struct ArenaPairing {
    int white, black; /* player indexes */
} ArenaPairing;

/* Pairs the waiting players (n of them, any order): each with the closest in rank who is not
 * its last opponent (unless rematch_ok: the two of them are the only players the arena has
 * now), white to the one who has had fewer whites (then: who had black last; then the better
 * ranked).  At most n / 2 pairings in out; returns how many. */
int arena_pair(const ArenaWaiting *waiting, int n, bool rematch_ok, ArenaPairing *out);

/* A round robin of n players (0..n-1) in Berger tables: rounds per cycle (n - 1 for even n,
 * n for odd: each player sits out once), and the pairings of a round (0-based; rounds of the
 * second cycle, each pair again with colours swapped, follow the first's).  A player who sits
 * out is paired with -1 (and takes no colour: white holds the player).  Returns the number of
 * pairings (n / 2 rounded up). */
int berger_rounds(int n);
int berger_round(int n, int round, ArenaPairing *out);

#endif
