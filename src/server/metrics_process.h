/*
 * The process's own metrics, under the names every Prometheus client library gives them
 * (process_resident_memory_bytes, ...; no starfish_ prefix, so that the usual dashboards and
 * alerts find them), read from /proc/self when the metrics page is asked for.
 */
#ifndef STARFISH_SERVER_METRICS_PROCESS_H
#define STARFISH_SERVER_METRICS_PROCESS_H

#include <stdio.h>

/* Resident and virtual memory, threads, open files (and the limit), CPU time, start time. */
void metrics_write_process(FILE *out);

#endif
