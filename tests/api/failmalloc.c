/*
 * A test shim (LD_PRELOAD) that makes memory run out on demand: after SIGUSR1 one call in
 * FAILMALLOC_PERIOD (default 400) of malloc, calloc and realloc fails with ENOMEM, picked
 * pseudo-randomly (a hash of the call's number), after SIGUSR2 none does.  tests/api/test_api_memory.py loads it into `starfish serve` to
 * check that a request that runs out of memory fails with 503 and the server lives on.
 */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);

static atomic_bool armed;
static atomic_ulong calls;
static unsigned long period = 400;

static void on_signal(int sig)
{
    atomic_store(&armed, sig == SIGUSR1);
}

__attribute__((constructor)) static void start(void)
{
    const char *text = getenv("FAILMALLOC_PERIOD");
    if (text && atol(text) > 0)
        period = (unsigned long)atol(text);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGUSR2, &sa, NULL);
}

/* splitmix64's finaliser: call numbers to well-spread bits. */
static unsigned long mix(unsigned long x)
{
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9UL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebUL;
    return x ^ (x >> 31);
}

static int fails(void)
{
    if (!atomic_load_explicit(&armed, memory_order_relaxed) || mix(atomic_fetch_add(&calls, 1)) % period != 0)
        return 0;
    errno = ENOMEM;
    return 1;
}

void *malloc(size_t n)
{
    return fails() ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    return fails() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    return fails() ? NULL : __libc_realloc(p, n);
}
