/* `starfish match`: games between two UCI engines, adjudicated by the rules core. */
#ifndef STARFISH_MATCH_H
#define STARFISH_MATCH_H

int match_main(int argc, char **argv);

#endif
