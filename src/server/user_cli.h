/* `starfish user list | create | reset-password | close`: the operator's commands on the accounts. */
#ifndef STARFISH_SERVER_USER_CLI_H
#define STARFISH_SERVER_USER_CLI_H

#include "../util/options.h"

extern const Command user_command;
/* argv[0] is "user"; returns the exit status. */
int user_main(int argc, char **argv);

#endif
