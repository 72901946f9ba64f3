/*
 * The client's side of a UCI engine process, shared by the match runner and `starfish bot`:
 * `/bin/sh -c CMD` started with fork/exec, talked to over two pipes, one UCI line at a time,
 * every read and write with a deadline; the `uci` handshake, the options and the variant set,
 * and the `bestmove` line read.
 */
#ifndef STARFISH_UCI_PROCESS_H
#define STARFISH_UCI_PROCESS_H

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
    char variants[1024]; /* the UCI_Variant option's values, space-separated ("" without it) */
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

/* Starts `cmd` and does the handshake: `uci`, then lines until `uciok` within `seconds`
 * (the engine's name and its UCI_Variant values learnt on the way).  False with why set
 * ("could not be started: ...", "exited during the uci handshake", "sent no 'uciok' ...");
 * the process is left running for the caller to stop. */
bool uciproc_handshake(UciProc *p, const char *cmd, double seconds, char *why, size_t whylen);
/* Sends `setoption name UCI_Variant value VARIANT` (unless VARIANT is "chess" and the engine
 * offers no UCI_Variant: chess engines that know no variants are left alone), then each
 * `setoption name NAME[i] value VALUE[i]`.  False with why set when the engine is gone. */
bool uciproc_configure(UciProc *p, const char *variant, char *const *names, char *const *values, int n, char *why,
                       size_t whylen);
/* Reads lines until one is `want` (its first word), within `seconds`; false with why set. */
bool uciproc_wait_for(UciProc *p, const char *want, double seconds, char *why, size_t whylen);
/* The move of a `bestmove MOVE [ponder ...]` line into best (len bytes); false for any other
 * line.  A `bestmove` line without a move gives an empty best. */
bool uciproc_bestmove(const char *line, char *best, size_t len);

/* What an `info` line says of the search's first line (MultiPV's other lines are passed
 * over): its score, centipawns or (mate) moves to mate, negative when mated, within
 * +-UCI_SCORE_LIMIT, and its depth (0 when the line gives none). */
#define UCI_SCORE_LIMIT 100000
typedef struct UciScore {
    bool mate;
    int value;
    int depth;
} UciScore;
/* False for any other line, and for an `info` line without a readable score (or with one
 * only in its `string`). */
bool uciproc_info_score(const char *line, UciScore *out);

#endif
