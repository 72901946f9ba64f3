/*
 * A test shim (LD_PRELOAD) that makes resources fail on demand, armed by SIGUSR1 and disarmed
 * by SIGUSR2, for the server's tests of running out of them:
 *   FAULTS=memory     one call in FAULTS_PERIOD (default 400) of malloc, calloc and realloc
 *                     fails with ENOMEM, picked pseudo-randomly (a hash of the call's number);
 *                     with FAULTS_LIBPQ_PERIOD, one in that many of libpq's own calls (the
 *                     PostgreSQL client library's: so that it runs out of memory reading an
 *                     answer often enough to be tested);
 *   FAULTS=disk-full  every pwrite (SQLite's writes) fails with ENOSPC;
 *   FAULTS=read-only  every pwrite fails with EROFS.
 * tests/api/test_api_memory.py and test_api_store.py load it into `starfish serve`.
 */
#include <errno.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
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
static unsigned long libpq_period; /* 0: libpq's calls fail as any other */
static uintptr_t libpq_start, libpq_end; /* libpq's code, where its calls come from */
static int memory, write_error; /* the faults chosen: memory, and the errno of writes (0: none) */

static void on_signal(int sig)
{
    atomic_store(&armed, sig == SIGUSR1);
}

/* For dl_iterate_phdr: notes where libpq's loaded segments lie. */
static int find_libpq(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size, (void)ctx;
    if (!strstr(info->dlpi_name, "libpq.so"))
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t start = info->dlpi_addr + ph->p_vaddr, end = start + ph->p_memsz;
        if (!libpq_start || start < libpq_start)
            libpq_start = start;
        if (end > libpq_end)
            libpq_end = end;
    }
    return 1;
}

__attribute__((constructor)) static void start(void)
{
    const char *kind = getenv("FAULTS"), *text = getenv("FAULTS_PERIOD"), *libpq = getenv("FAULTS_LIBPQ_PERIOD");
    if (libpq && atol(libpq) > 0) {
        libpq_period = (unsigned long)atol(libpq);
        dl_iterate_phdr(find_libpq, NULL);
    }
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

/* Does the allocation called from `caller` fail? */
static int memory_fails(void *caller)
{
    uintptr_t from = (uintptr_t)caller;
    unsigned long every = libpq_period && from >= libpq_start && from < libpq_end ? libpq_period : period;
    if (!memory || !atomic_load_explicit(&armed, memory_order_relaxed) ||
        mix(atomic_fetch_add(&calls, 1)) % every != 0)
        return 0;
    errno = ENOMEM;
    return 1;
}

void *malloc(size_t n)
{
    return memory_fails(__builtin_return_address(0)) ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    return memory_fails(__builtin_return_address(0)) ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    return memory_fails(__builtin_return_address(0)) ? NULL : __libc_realloc(p, n);
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
