/*
 * The match runner's side of an engine process: `/bin/sh -c CMD` started with fork/exec,
 * talked to over two pipes, one UCI line at a time, every read and write with a deadline.
 */
#ifndef STARFISH_MATCH_ENGINE_H
#define STARFISH_MATCH_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define ENGINE_LINE_MAX 8192

typedef struct UciProc {
    pid_t pid; /* 0: not running */
    int to_fd, from_fd;
    char buf[ENGINE_LINE_MAX];
    size_t len; /* bytes of buf read but not yet returned as lines */
    /* Learnt in the handshake. */
    char id_name[128];
    bool has_variant_option;
} UciProc;

typedef enum { LINE_OK, LINE_EOF, LINE_TIMEOUT } LineStatus;

/* Starts `/bin/sh -c cmd` (in its own process group, stderr to /dev/null).  False with err. */
bool uciproc_start(UciProc *p, const char *cmd, char *err, size_t errlen);
/* Sends one line (a newline is added).  False when the engine is gone or does not read. */
bool uciproc_send(UciProc *p, const char *line);
/* Reads one line (without its newline) before `deadline` (clock_seconds()). */
LineStatus uciproc_read_line(UciProc *p, char *line, size_t len, double deadline);
/* Ends the process: `quit`, up to `grace` seconds to exit, then SIGKILL; reaps it. */
void uciproc_stop(UciProc *p, double grace);

#endif
