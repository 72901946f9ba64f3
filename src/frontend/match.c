/* Placeholder until the match runner lands. */
#include "match.h"

#include <stdio.h>

int match_main(int argc, char **argv)
{
    (void)argc, (void)argv;
    fprintf(stderr, "starfish: the match runner is not built yet\n");
    return 2;
}
