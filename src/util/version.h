/*
 * What this program is: its version (the file VERSION), the commit of the tree it was built
 * from and how its code was compiled.  The Makefile writes them into the build's version.h,
 * rewritten only when one changes, so that a new commit rebuilds this file alone.
 */
#ifndef STARFISH_UTIL_VERSION_H
#define STARFISH_UTIL_VERSION_H

/* "0.1.0": semantic versioning, tagged vX.Y.Z by `make release`. */
const char *version_number(void);
/* `git describe --always --dirty` of the tree built ("v0.1.0-3-g1a2b3c4d5e6f", "-dirty" with
 * changes not committed), or "unknown" when it was built outside git (a source package). */
const char *version_commit(void);
/* The compiler and the flags that decide the machine code: "gcc 12.2.0: -O3 -march=x86-64-v2
 * -flto=auto". */
const char *version_build(void);

#endif
