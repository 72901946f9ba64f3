/* Command-line subcommands: perft, bench, help. */
#ifndef STARFISH_CLI_H
#define STARFISH_CLI_H

/* Runs `starfish ARGS...`; returns the exit status (2 for bad input). */
int cli_main(int argc, char **argv);

#endif
