/*
 * Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2022 revision), as pure
 * functions: one rating period of a player against the opponents met in it, and the growth
 * of the rating deviation over periods without games.  The server makes every rated game one
 * period for its two players (rating.c); the paper's worked example is a unit test.
 */
#ifndef STARFISH_SERVER_GLICKO2_H
#define STARFISH_SERVER_GLICKO2_H

#include <stdbool.h>

#define GLICKO_TAU 0.5             /* how much the volatility may change (the paper: 0.3 to 1.2) */
#define GLICKO_START_RATING 1500.0
#define GLICKO_START_RD 350.0      /* also the most a deviation grows to */
#define GLICKO_START_VOLATILITY 0.06
#define GLICKO_RD_MIN 45.0         /* the least a deviation shrinks to */
#define GLICKO_PROVISIONAL_RD 110.0 /* above it a rating is provisional ("1500?") */

typedef struct Glicko {
    double rating, rd, volatility;
} Glicko;

/* A new player's values: 1500, 350, 0.06. */
Glicko glicko_start(void);
/* After one rating period against n opponents (their values before it), with scores 1 (a
 * win), 0.5 (a draw) or 0 (a loss); the deviation kept within [GLICKO_RD_MIN, GLICKO_START_RD].
 * With n == 0, the period without games of glicko_idle. */
Glicko glicko_update(Glicko player, const Glicko *opponents, const double *scores, int n);
/* After `periods` periods without games (the paper's step 6 alone): the deviation grows,
 * never above GLICKO_START_RD. */
Glicko glicko_idle(Glicko player, int periods);
/* Is the rating provisional (its deviation above GLICKO_PROVISIONAL_RD)? */
bool glicko_provisional(Glicko player);

#endif
