#include "text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Room for `more` bytes and a NUL, growing by doubling. */
static bool reserve(Text *t, size_t more)
{
    if (t->len + more + 1 <= t->cap)
        return true;
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->len + more + 1)
        cap *= 2;
    char *grown = realloc(t->s, cap);
    if (!grown)
        return false;
    t->s = grown;
    t->cap = cap;
    return true;
}

bool text_addn(Text *t, const void *data, size_t n)
{
    if (!reserve(t, n))
        return false;
    memcpy(t->s + t->len, data, n);
    t->len += n;
    t->s[t->len] = 0;
    return true;
}

bool text_add(Text *t, const char *s)
{
    return text_addn(t, s, strlen(s));
}

bool text_read_file(Text *t, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    char chunk[1 << 16];
    size_t got;
    bool ok = true;
    while (ok && (got = fread(chunk, 1, sizeof chunk, f)) > 0)
        ok = text_addn(t, chunk, got);
    ok = ok && !ferror(f);
    fclose(f);
    return ok && (t->s || text_add(t, ""));
}

bool text_vaddf(Text *t, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    bool ok = n >= 0 && reserve(t, (size_t)n);
    if (ok) {
        vsnprintf(t->s + t->len, (size_t)n + 1, fmt, again);
        t->len += (size_t)n;
    }
    va_end(again);
    return ok;
}

bool text_addf(Text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bool ok = text_vaddf(t, fmt, ap);
    va_end(ap);
    return ok;
}

const char *text_str(const Text *t)
{
    return t->s ? t->s : "";
}

void text_clear(Text *t)
{
    t->len = 0;
    if (t->s)
        t->s[0] = 0;
}

char *text_take(Text *t)
{
    char *s = t->s;
    *t = (Text){0};
    return s;
}

void text_free(Text *t)
{
    free(t->s);
    *t = (Text){0};
}
