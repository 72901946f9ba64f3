/* Small helpers of the web server: time, random ids and tokens from /dev/urandom. */
#ifndef STARFISH_SERVER_UTIL_H
#define STARFISH_SERVER_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../util/clock.h" /* clock_ms(): monotonic milliseconds, for timeouts */

/* Wall-clock milliseconds since the epoch (stored in the database, survives restarts). */
int64_t util_now_ms(void);
/* n random bytes from /dev/urandom; false if it cannot be read. */
bool util_random(void *buf, size_t n);
/* A random string of len characters from `alphabet` (NUL-terminated: out holds len + 1). */
bool util_random_string(char *out, size_t len, const char *alphabet);
/* "2026-11-22T01:30:00Z" for a time in milliseconds. */
void util_iso_time(int64_t ms, char *out, size_t len);
/* String comparison in time independent of where they differ (for secrets). */
bool util_secret_equal(const char *a, const char *b);

#define ID_ALPHABET "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
#define TOKEN_ALPHABET "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

#endif
