#include "rng.h"

#include <time.h>
#include <unistd.h>

#define GOLDEN_GAMMA 0x9e3779b97f4a7c15ULL /* 2^64 / the golden ratio, odd */

uint64_t rng_mix(uint64_t x)
{
    uint64_t z = x + GOLDEN_GAMMA;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t rng_next(uint64_t *state)
{
    uint64_t x = *state;
    *state += GOLDEN_GAMMA;
    return rng_mix(x);
}

uint64_t rng_below(uint64_t *state, uint64_t n)
{
    return rng_next(state) % n;
}

uint64_t rng_fresh_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return rng_mix((uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 40);
}
