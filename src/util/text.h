/*
 * A growable text buffer: appends, printf-style appends, and the text always NUL-terminated.
 * Start from a zeroed Text; free it with text_free.  Every append returns false when memory
 * runs out and leaves the text as it was (callers decide: a request fails, a tool stops).
 */
#ifndef STARFISH_UTIL_TEXT_H
#define STARFISH_UTIL_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct Text {
    char *s;    /* the text (NULL until something is added) */
    size_t len; /* its length, without the NUL */
    size_t cap; /* bytes allocated */
} Text;

bool text_add(Text *t, const char *s);
/* Appends n bytes (which may hold NULs: the buffer serves binary images too). */
bool text_addn(Text *t, const void *data, size_t n);
bool text_addf(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool text_vaddf(Text *t, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Appends the whole file at path; false (errno set) when it cannot be read. */
bool text_read_file(Text *t, const char *path);
/* The text, or "" while nothing was added. */
const char *text_str(const Text *t);
/* Empties the text and keeps its memory. */
void text_clear(Text *t);
/* Hands over the text (the caller frees it; NULL while nothing was added); t is empty after. */
char *text_take(Text *t);
void text_free(Text *t);

#endif
