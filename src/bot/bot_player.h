/*
 * One game's engine: a UCI process (src/client/uci_process.h does the talking) started
 * for the game, told its variant and options, asked for a move with `position` and `go`, and
 * read without blocking, so that its game thread goes on reading the game's stream while the
 * engine thinks.  A search may be called off (`stop`, its bestmove thrown away) when the game
 * changes under it.
 */
#ifndef STARFISH_BOT_PLAYER_H
#define STARFISH_BOT_PLAYER_H

#include "../client/uci_process.h"
#include "bot.h"

#define PLAYER_HANDSHAKE_SECONDS 10.0 /* for uciok, and for readyok */
#define PLAYER_STOP_SECONDS 2.0       /* for the bestmove of a search called off */
#define PLAYER_MATE_SCORE 100000      /* a mate's score, in centipawns, less its distance */

typedef enum { PLAYER_IDLE, PLAYER_THINKING, PLAYER_MOVED, PLAYER_FAILED } PlayerStatus;

typedef struct Player {
    UciProc proc;
    char what[96];        /* for the log: "game ID" */
    bool ready;           /* started, configured and told of the game */
    bool thinking;        /* a search runs, its move wanted */
    bool discarding;      /* a search called off runs: its bestmove is thrown away */
    double deadline;      /* clock_seconds() by which the running search must answer */
    int score;            /* the search's last score, centipawns for the engine's side */
    bool scored;          /* whether the search gave a score */
    char why[256];        /* what went wrong, after PLAYER_FAILED */
} Player;

/* Starts the engine of config c for a game of uci_variant (the engine's name for it) and
 * waits until it is ready; false with why set (the process is gone then). */
bool player_start(Player *p, const BotConfig *c, const char *uci_variant, char *why, size_t whylen);
/* Sends the position and `go`; the answer is wanted within wait_seconds. */
bool player_go(Player *p, const char *position, const char *go, double wait_seconds);
/* Reads what the engine sent so far: PLAYER_MOVED with its move in best, PLAYER_THINKING,
 * PLAYER_IDLE (nothing asked), or PLAYER_FAILED (it exited, or sent no move in time: the
 * process is gone, p->why says why). */
PlayerStatus player_poll(Player *p, char *best, size_t len);
/* Calls the running search off: `stop`, and its bestmove thrown away when it comes. */
void player_cancel(Player *p);
/* The file to wait on for the engine's output, or -1. */
int player_fd(const Player *p);
/* `quit`, a moment to exit, then SIGKILL. */
void player_quit(Player *p);

#endif
