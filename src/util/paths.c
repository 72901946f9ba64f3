#include "paths.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where an installed program's shared files are, from the folder of the program. */
#define INSTALLED_SHARE "../share/starfish"

static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool program_path(char *out, size_t len)
{
    ssize_t n = len > 1 ? readlink("/proc/self/exe", out, len - 1) : -1;
    if (n <= 0 || (size_t)n >= len - 1)
        return false;
    out[n] = 0;
    return true;
}

/* The folder of this program into dir; false when the kernel does not say. */
static bool program_folder(char *dir, size_t len)
{
    char exe[PATH_MAX];
    if (!program_path(exe, sizeof exe))
        return false;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return false;
    *slash = 0;
    return snprintf(dir, len, "%s", exe) < (int)len;
}

const char *shared_path(const char *tree_path, char *out, size_t len)
{
    char dir[PATH_MAX];
    if (program_folder(dir, sizeof dir)) {
        if (snprintf(out, len, "%s/%s", dir, tree_path) < (int)len && is_directory(out))
            return out;
        if (snprintf(out, len, "%s/" INSTALLED_SHARE "/%s", dir, tree_path) < (int)len && is_directory(out))
            return out;
    }
    snprintf(out, len, "%s", tree_path);
    return out;
}
