/* Small helpers of the web server: time, random ids and tokens from getrandom(), JSON text. */
#ifndef STARFISH_SERVER_UTIL_H
#define STARFISH_SERVER_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "../util/clock.h" /* clock_ms(): monotonic milliseconds, for timeouts */

/* Wall-clock milliseconds since the epoch (stored in the database, survives restarts). */
int64_t util_now_ms(void);
/* n random bytes from the kernel (getrandom(): blocks until its pool is seeded, then never);
 * false if it fails. */
bool util_random(void *buf, size_t n);
/* A random string of len characters from `alphabet` (NUL-terminated: out holds len + 1). */
bool util_random_string(char *out, size_t len, const char *alphabet);
/* "2026-11-22T01:30:00Z" for a time in milliseconds. */
void util_iso_time(int64_t ms, char *out, size_t len);
/* Does an error message of the rules core (game_init, game_from_pgn) say that memory ran
 * out, rather than what is wrong with the text? */
bool util_out_of_memory(const char *message);
/* jansson's allocations through a malloc that notes, per thread, when memory ran out: its
 * parser reports that as a syntax error, or cuts a string short, and its writer may leave
 * text out.  util_json_memory_reset before a call, then util_json_memory_ran_out. */
void util_json_memory_track(void);
void util_json_memory_reset(void);
bool util_json_memory_ran_out(void);
/* j as compact JSON text (malloc'ed, NULL when j is NULL or memory ran out); takes j over. */
char *util_json_text(json_t *j);
/* Adds key: value to an object, or value to an array, taking value over; a failure (memory
 * ran out: value or the addition) clears *ok, so that a caller builds a whole object and
 * checks once. */
void util_json_put(json_t *object, const char *key, json_t *value, bool *ok);
void util_json_append(json_t *array, json_t *value, bool *ok);
/* String comparison in time independent of where they differ (for secrets). */
bool util_secret_equal(const char *a, const char *b);

#define ID_ALPHABET "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
#define TOKEN_ALPHABET "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

#endif
