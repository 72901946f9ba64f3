/* `starfish match`: games between two UCI engines, adjudicated by the rules core. */
#ifndef STARFISH_MATCH_H
#define STARFISH_MATCH_H

#include "../util/options.h"

/* Its options, and what runs it (argv[0] is "match"); returns the exit status. */
extern const Command match_command;
int match_main(int argc, char **argv);

#endif
