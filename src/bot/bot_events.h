/*
 * The account's event stream and the table of games (bot_events.c), run on the main thread.
 */
#ifndef STARFISH_BOT_EVENTS_H
#define STARFISH_BOT_EVENTS_H

#include "bot_game.h"

/* Reads the event stream (opened again after it drops) until the bot stops: challenges
 * answered, a thread started for every game.  Returns the number of games whose threads
 * still run (bot_events_join waits for them). */
int bot_events_run(const Bot *b);
/* Waits for every game's thread (each ends soon after the bot stops). */
void bot_events_join(void);

#endif
