/* The monotonic clock: elapsed time inside one run (timeouts, search limits, speeds). */
#ifndef STARFISH_UTIL_CLOCK_H
#define STARFISH_UTIL_CLOCK_H

#include <stdint.h>

/* Seconds on the monotonic clock, from an arbitrary start. */
double clock_seconds(void);
/* Milliseconds on the monotonic clock, from an arbitrary start. */
int64_t clock_ms(void);

#endif
