#include "metrics_process.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* The fields of /proc/self/stat that are wanted (man 5 proc: utime 14, stime 15,
 * num_threads 20, starttime 22, vsize 23, rss 24), false when it cannot be read. */
typedef struct ProcStat {
    unsigned long long utime, stime, starttime, vsize;
    long threads, rss_pages;
} ProcStat;

static bool read_stat(ProcStat *s)
{
    char text[1024];
    FILE *f = fopen("/proc/self/stat", "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = 0;
    const char *after_name = strrchr(text, ')'); /* the name, field 2, may hold spaces */
    return after_name && sscanf(after_name + 2,
                                "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %*d %*d %*d %*d %ld %*d "
                                "%llu %llu %ld",
                                &s->utime, &s->stime, &s->threads, &s->starttime, &s->vsize, &s->rss_pages) == 6;
}

/* The boot time, seconds since the epoch (/proc/stat's btime), or -1. */
static long long boot_time(void)
{
    char line[256];
    long long btime = -1;
    FILE *f = fopen("/proc/stat", "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "btime %lld", &btime) == 1)
            break;
    if (f)
        fclose(f);
    return btime;
}

static int open_files(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n - 1; /* the directory's own descriptor */
}

static void process_gauge(FILE *out, const char *name, const char *type, const char *help, double value)
{
    fprintf(out, "# HELP %s %s\n# TYPE %s %s\n%s %.17g\n", name, help, name, type, name, value);
}

void metrics_write_process(FILE *out)
{
    ProcStat s;
    if (!read_stat(&s))
        return;
    double ticks = (double)sysconf(_SC_CLK_TCK);
    process_gauge(out, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.",
                  (double)s.rss_pages * (double)sysconf(_SC_PAGESIZE));
    process_gauge(out, "process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", (double)s.vsize);
    process_gauge(out, "process_threads", "gauge", "Threads of the process.", (double)s.threads);
    process_gauge(out, "process_open_fds", "gauge", "Open file descriptors (connections among them).", open_files());
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0)
        process_gauge(out, "process_max_fds", "gauge", "The limit of open file descriptors.", (double)limit.rlim_cur);
    process_gauge(out, "process_cpu_seconds_total", "counter", "User and system CPU time spent in seconds.",
                  (double)(s.utime + s.stime) / ticks);
    long long boot = boot_time();
    if (boot >= 0)
        process_gauge(out, "process_start_time_seconds", "gauge", "Start time of the process since the epoch.",
                      (double)boot + (double)s.starttime / ticks);
}
