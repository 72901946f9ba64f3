/*
 * The error convention of every module: a function that can fail returns false (or a status
 * code) and writes one line saying what went wrong into a caller's buffer, `char *err, size_t
 * errlen`.  error_set formats that line with printf's checks, so a message and its arguments
 * cannot disagree:
 *
 *     if (depth < 1)
 *         return error_set(err, errlen, "bad depth '%s' (1..64)", text);
 */
#ifndef STARFISH_UTIL_ERROR_H
#define STARFISH_UTIL_ERROR_H

#include <stdbool.h>
#include <stddef.h>

/* Writes the message into err (cut to errlen - 1 bytes; nothing when errlen is 0); returns false. */
bool error_set(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
