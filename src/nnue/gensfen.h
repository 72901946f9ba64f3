/* `starfish gensfen`: self-play positions for training a network (gensfen.c, docs/nnue.md). */
#ifndef STARFISH_NNUE_GENSFEN_H
#define STARFISH_NNUE_GENSFEN_H

#include "../util/options.h"

extern const Command gensfen_command;
int gensfen_main(int argc, char **argv);

#endif
