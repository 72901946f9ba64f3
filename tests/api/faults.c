/*
 * A test shim (LD_PRELOAD) that makes resources fail on demand, armed by SIGUSR1 and disarmed
 * by SIGUSR2, for the server's tests of running out of them:
 *   FAULTS=memory     one call in FAULTS_PERIOD (default 400) of malloc, calloc and realloc
 *                     fails with ENOMEM, picked pseudo-randomly (a hash of the call's number);
 *   FAULTS=disk-full  every pwrite (SQLite's writes) fails with ENOSPC;
 *   FAULTS=read-only  every pwrite fails with EROFS.
 * tests/api/test_api_memory.py and test_api_store.py load it into `starfish serve`.
 */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);
ssize_t __pwrite64(int fd, const void *buf, size_t n, off_t offset);

static atomic_bool armed;
static atomic_ulong calls;
static unsigned long period = 400;
static int memory, write_error; /* the faults chosen: memory, and the errno of writes (0: none) */

static void on_signal(int sig)
{
    atomic_store(&armed, sig == SIGUSR1);
}

__attribute__((constructor)) static void start(void)
{
    const char *kind = getenv("FAULTS"), *text = getenv("FAULTS_PERIOD");
    memory = kind && strcmp(kind, "memory") == 0;
    write_error = !kind ? 0 : strcmp(kind, "disk-full") == 0 ? ENOSPC : strcmp(kind, "read-only") == 0 ? EROFS : 0;
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

static int memory_fails(void)
{
    if (!memory || !atomic_load_explicit(&armed, memory_order_relaxed) ||
        mix(atomic_fetch_add(&calls, 1)) % period != 0)
        return 0;
    errno = ENOMEM;
    return 1;
}

void *malloc(size_t n)
{
    return memory_fails() ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    return memory_fails() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    return memory_fails() ? NULL : __libc_realloc(p, n);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t offset)
{
    if (write_error && atomic_load(&armed)) {
        errno = write_error;
        return -1;
    }
    return __pwrite64(fd, buf, n, offset);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t offset)
{
    return pwrite64(fd, buf, n, offset);
}
