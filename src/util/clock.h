/* The monotonic clock: elapsed time inside one run (timeouts, search limits, speeds). */
#ifndef STARFISH_UTIL_CLOCK_H
#define STARFISH_UTIL_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Seconds on the monotonic clock, from an arbitrary start. */
double clock_seconds(void);
/* Milliseconds on the monotonic clock, from an arbitrary start. */
int64_t clock_ms(void);
/* The time `ns` nanoseconds from now on `clock` (CLOCK_REALTIME or CLOCK_MONOTONIC), as
 * pthread_cond_timedwait takes its deadline on the clock of the condition variable. */
struct timespec clock_after_ns(clockid_t clock, int64_t ns);

#endif
