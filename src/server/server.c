/* Placeholder until the server lands: see docs/api.md. */
#include "server.h"

#include <stdio.h>

int server_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "starfish: the web server is not built yet\n");
    return 2;
}
