#include "version.h"

/* STARFISH_VERSION, STARFISH_COMMIT and STARFISH_FLAGS, written by the Makefile into the
 * build folder, which is on this file's include path. */
#include "version_info.h"

const char *version_number(void)
{
    return STARFISH_VERSION;
}

const char *version_commit(void)
{
    return STARFISH_COMMIT;
}

const char *version_build(void)
{
#if defined(__clang__)
    return "clang " __clang_version__ ": " STARFISH_FLAGS;
#else
    return "gcc " __VERSION__ ": " STARFISH_FLAGS;
#endif
}
