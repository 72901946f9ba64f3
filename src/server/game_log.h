/* The game log: one line per change of a game (logger.h), from an observer of the service. */
#ifndef STARFISH_SERVER_GAME_LOG_H
#define STARFISH_SERVER_GAME_LOG_H

#include <stdbool.h>

/* Observes the game service (at start, before any game is loaded); false when it cannot. */
bool game_log_start(void);

#endif
