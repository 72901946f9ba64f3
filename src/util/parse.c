#include "parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

/* strtol and friends skip leading space themselves: a number must start at once. */
static bool starts_like_a_number(const char *text)
{
    return text && *text && !isspace((unsigned char)*text);
}

bool parse_long(const char *text, long min, long max, long *out)
{
    if (!starts_like_a_number(text))
        return false;
    char *end;
    errno = 0;
    long n = strtol(text, &end, 10);
    if (*end || errno == ERANGE || n < min || n > max)
        return false;
    *out = n;
    return true;
}

bool parse_int(const char *text, int min, int max, int *out)
{
    long n;
    if (!parse_long(text, min, max, &n))
        return false;
    *out = (int)n;
    return true;
}

bool parse_u64(const char *text, uint64_t *out)
{
    if (!starts_like_a_number(text) || *text == '-')
        return false;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(text, &end, 10);
    if (*end || errno == ERANGE)
        return false;
    *out = (uint64_t)n;
    return true;
}

bool parse_double(const char *text, double min, double max, double *out)
{
    if (!starts_like_a_number(text))
        return false;
    char *end;
    double x = strtod(text, &end);
    if (*end || !isfinite(x) || x < min || x > max)
        return false;
    *out = x;
    return true;
}
