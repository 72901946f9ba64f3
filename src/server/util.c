#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

int64_t util_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool util_random(void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = getrandom((char *)buf + got, n - got, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        got += (size_t)k;
    }
    return true;
}

bool util_random_string(char *out, size_t len, const char *alphabet)
{
    size_t size = strlen(alphabet);
    /* Rejection sampling: only bytes below the largest multiple of the alphabet size. */
    size_t limit = 256 - 256 % size;
    size_t k = 0;
    unsigned char bytes[64];
    while (k < len) {
        if (!util_random(bytes, sizeof bytes))
            return false;
        for (size_t i = 0; i < sizeof bytes && k < len; i++)
            if (bytes[i] < limit)
                out[k++] = alphabet[bytes[i] % size];
    }
    out[len] = 0;
    return true;
}

void util_iso_time(int64_t ms, char *out, size_t len)
{
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void util_json_put(json_t *object, const char *key, json_t *value, bool *ok)
{
    if (!object || !value || json_object_set_new(object, key, value) != 0)
        *ok = false;
}

void util_json_append(json_t *array, json_t *value, bool *ok)
{
    if (!array || !value || json_array_append_new(array, value) != 0)
        *ok = false;
}

bool util_out_of_memory(const char *message)
{
    return strcmp(message, "out of memory") == 0;
}

static _Thread_local bool json_ran_out;

static void *json_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        json_ran_out = true;
    return p;
}

void util_json_memory_track(void)
{
    json_set_alloc_funcs(json_malloc, free);
}

void util_json_memory_reset(void)
{
    json_ran_out = false;
}

bool util_json_memory_ran_out(void)
{
    return json_ran_out;
}

char *util_json_text(json_t *j)
{
    util_json_memory_reset();
    char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (text && util_json_memory_ran_out()) { /* a text with something left out */
        free(text);
        text = NULL;
    }
    return text;
}

bool util_secret_equal(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    unsigned char diff = la != lb;
    for (size_t i = 0; i < la; i++)
        diff |= (unsigned char)(a[i] ^ b[i % (lb ? lb : 1)]);
    return diff == 0 && lb > 0;
}
