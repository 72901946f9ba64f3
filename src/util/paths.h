/*
 * Where the program's shared files (the web client, the puzzles, the openings) are, without
 * being told: beside the program in a checkout (./starfish and web/, data/puzzles/), or where
 * `make install` puts them (PREFIX/bin/starfish and PREFIX/share/starfish/web/, ...), found
 * from the program's own path (/proc/self/exe), so that an install under any PREFIX or
 * DESTDIR finds its own files.
 */
#ifndef STARFISH_UTIL_PATHS_H
#define STARFISH_UTIL_PATHS_H

#include <stdbool.h>
#include <stddef.h>

/* The folder `tree_path` ("web", "data/puzzles": as in the source tree) of this program into
 * out: beside the program, else in ../share/starfish/ from the program's folder, else
 * tree_path itself (from the working directory), whichever exists first.  Returns out. */
const char *shared_path(const char *tree_path, char *out, size_t len);

/* The path of this program (from /proc/self/exe) into out; false when the kernel does not say
 * or it does not fit. */
bool program_path(char *out, size_t len);

#endif
