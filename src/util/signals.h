/*
 * SIGINT (Ctrl-C) and SIGTERM as a request to stop, for the commands that end their work in
 * good order rather than where the signal finds them: the bot (it finishes or leaves its
 * games), gensfen (its file keeps whole records) and match (its summary covers the games
 * played).
 */
#ifndef STARFISH_UTIL_SIGNALS_H
#define STARFISH_UTIL_SIGNALS_H

#include <stdbool.h>

/* From now on the first SIGINT or SIGTERM is noted instead of ending the program; with
 * `second_ends`, the next one ends it as if nothing were caught (a second Ctrl-C for a person
 * who will not wait), else every later one is ignored. */
void stop_signals_catch(bool second_ends);
/* The first of those signals caught, 0 while none has come. */
int stop_signal_caught(void);
/* "SIGINT" or "SIGTERM". */
const char *stop_signal_name(int sig);

#endif
