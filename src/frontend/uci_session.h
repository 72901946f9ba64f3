/* What uci.c and uci_options.c share: a UCI session's state, and how it writes its lines. */
#ifndef STARFISH_UCI_SESSION_H
#define STARFISH_UCI_SESSION_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "../core/game.h"
#include "../engine/search.h"
#include "../nnue/nnue.h"

#define HASH_DEFAULT 16
#define HASH_MAX 4096

typedef struct {
    FILE *out;
    const Variant *variant;
    Game game;
    Engine engine;
    int skill_level, elo;
    bool limit_strength;
    /* The search runs on its own thread so that `stop` and `isready` are answered at once. */
    pthread_t thread;
    bool searching;       /* a search or perft thread was started and is not joined yet */
    bool counting_perft;  /* that thread counts a perft */
    atomic_bool job_done; /* set by that thread before its last line: only the join is left */
    SearchLimits limits;
    int perft_depth; /* of the running `go perft` */
    /* The evaluation last said at `isready` (at the start: the hand-written one, unsaid). */
    const NnueNet *said_net;
    bool said_off;
} Session;

/* Writes one whole line (printf-style, the newline added). */
__attribute__((format(printf, 2, 3))) void uci_say(Session *s, const char *fmt, ...);
/* An error: one line, `info string error: ...`. */
#define uci_error(s, ...) uci_say(s, "info string error: " __VA_ARGS__)
/* The session's game starts again from its variant's start. */
void uci_reset_game(Session *s);

/* uci_options.c: the `uci` and `setoption` commands, and at `isready` the evaluation the
 * next search uses when that changed since it was last said. */
void uci_cmd_uci(Session *s);
void uci_cmd_setoption(Session *s, char **tok, int n);
void uci_say_evaluation(Session *s);

#endif
