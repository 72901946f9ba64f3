/*
 * The one pseudo-random generator: splitmix64 (Steele, Lea and Flood), 64 bits of state,
 * every seed good.  Reproducible by design: the same seed gives the same Zobrist keys, the
 * same openings and the same samples on every machine.  Not for secrets (the server's tokens
 * come from /dev/urandom).
 */
#ifndef STARFISH_UTIL_RNG_H
#define STARFISH_UTIL_RNG_H

#include <stdint.h>

/* The next number of the sequence whose state is *state (advances it). */
uint64_t rng_next(uint64_t *state);
/* A number in [0, n) (n > 0) from the sequence; the modulo's bias is below n / 2^64. */
uint64_t rng_below(uint64_t *state, uint64_t n);
/* The generator's output for state x without a state to advance: a 64-bit hash of x. */
uint64_t rng_mix(uint64_t x);
/* A seed that differs from run to run (the time and the process id). */
uint64_t rng_fresh_seed(void);

#endif
