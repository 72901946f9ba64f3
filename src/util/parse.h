/*
 * Strict number parsing for command lines, UCI values and query strings: the whole text must
 * be the number (no leading space, no trailing characters), in range, without overflow.  Each
 * returns false and leaves *out alone when the text is not such a number.
 */
#ifndef STARFISH_UTIL_PARSE_H
#define STARFISH_UTIL_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/* A decimal integer in [min, max]. */
bool parse_long(const char *text, long min, long max, long *out);
bool parse_int(const char *text, int min, int max, int *out);
/* A non-negative decimal integer that fits 64 bits. */
bool parse_u64(const char *text, uint64_t *out);
/* A finite decimal number (as strtod reads it) in [min, max]. */
bool parse_double(const char *text, double min, double max, double *out);

#endif
