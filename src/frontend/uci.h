/* The UCI front end: `./starfish` with no arguments. */
#ifndef STARFISH_UCI_H
#define STARFISH_UCI_H

#include <stdio.h>

/* Reads commands from in until `quit` or end of input; returns the exit status. */
int uci_loop(FILE *in, FILE *out);

#endif
