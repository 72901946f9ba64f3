/*
 * The tournaments' director (tournament_director.c): a thread on every instance that, every
 * second, publishes the standings of the tournaments that changed to their streams, and, on
 * the one instance that holds the store's lease on the job (the others wait to take it over
 * should it die), makes the scheduled tournaments, starts the tournaments whose time has come,
 * pairs the arenas' waiting players, plays the round robins' rounds and finishes them.
 */
#ifndef STARFISH_SERVER_TOURNAMENT_DIRECTOR_H
#define STARFISH_SERVER_TOURNAMENT_DIRECTOR_H

#include <stdbool.h>

#include "store.h"

#define DIRECTOR_EVERY_MS 1000
#define DIRECTOR_LEASE_MS 10000 /* a director silent this long is taken over */

/* Starts the thread (and hears the tournaments' games end); stops it. */
bool director_start(Store *store);
void director_stop(void);
/* Reads the scheduled tournaments (a JSON file, see docs/api-lichess.md); false with err set when the
 * file is not one. */
bool director_schedule(const char *path, char *err, size_t errlen);

#endif
