/*
 * News of tournaments (tournament_news.c): which tournaments changed since their streams last
 * heard of them (a player joining or leaving, a game starting or ending, a start, an end).
 * Whoever changes one touches it; the director publishes their standings every second.
 */
#ifndef STARFISH_SERVER_TOURNAMENT_NEWS_H
#define STARFISH_SERVER_TOURNAMENT_NEWS_H

#include <stddef.h>

#include "store.h"

/* Something changed in tournament id: its streams hear the standings again (on every
 * instance) within a second. */
void tournament_touch(const char *id);
/* Takes up to max of the tournaments touched since the last call. */
int tournament_take_touched(char (*ids)[STORE_ID_MAX + 1], int max);
/* The topic of a tournament's streams. */
void tournament_topic(const char *id, char *topic, size_t len);

#endif
