/* `starfish bot`: a UCI engine on a server speaking lichess's Bot API (bot.h has the map). */
#ifndef STARFISH_BOT_MAIN_H
#define STARFISH_BOT_MAIN_H

#include "../util/options.h"

extern const Command bot_command;
/* Runs `starfish bot ...`: 0 after a clean stop, 1 after a fatal error, 2 for bad input. */
int bot_main(int argc, char **argv);

#endif
