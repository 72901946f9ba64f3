/* One game's engine process, read without blocking (bot_player.h). */
#include "bot_player.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/clock.h"
#include "../util/error.h"

#define QUIT_SECONDS 1.0 /* for the engine to exit after `quit` */

bool player_start(Player *p, const BotConfig *c, const char *uci_variant, char *why, size_t whylen)
{
    char *names[BOT_OPTIONS_MAX], *values[BOT_OPTIONS_MAX];
    for (int i = 0; i < c->nopt; i++) {
        names[i] = (char *)c->opt_name[i];
        values[i] = (char *)c->opt_value[i];
    }
    p->ready = p->thinking = p->discarding = false;
    bool ok = uciproc_handshake(&p->proc, c->engine, PLAYER_HANDSHAKE_SECONDS, why, whylen) &&
              uciproc_configure(&p->proc, uci_variant, names, values, c->nopt, why, whylen);
    if (ok && !(uciproc_send(&p->proc, "ucinewgame") && uciproc_send(&p->proc, "isready")))
        ok = error_set(why, whylen, "exited (or stopped reading its input)");
    if (ok)
        ok = uciproc_wait_for(&p->proc, "readyok", PLAYER_HANDSHAKE_SECONDS, why, whylen);
    if (!ok)
        uciproc_stop(&p->proc, 0.1);
    p->ready = ok;
    return ok;
}

bool player_go(Player *p, const char *position, const char *go, double wait_seconds)
{
    if (!p->ready || p->thinking || p->discarding)
        return false;
    if (!uciproc_send(&p->proc, position) || !uciproc_send(&p->proc, go))
        return false;
    p->thinking = true;
    p->scored = false;
    p->deadline = clock_seconds() + wait_seconds;
    return true;
}

/* The score of an `info` line (of the first line of several, with MultiPV), if it has one. */
static void read_score(Player *p, const char *line)
{
    UciScore sc;
    if (!uciproc_info_score(line, &sc))
        return;
    p->score = !sc.mate ? sc.value : sc.value > 0 ? PLAYER_MATE_SCORE - sc.value : -PLAYER_MATE_SCORE - sc.value;
    p->scored = true;
}

/* The engine is gone or useless: its process ended, the reason kept. */
static PlayerStatus fail(Player *p, const char *why)
{
    snprintf(p->why, sizeof p->why, "%s", why);
    uciproc_stop(&p->proc, 0.1);
    p->ready = p->thinking = p->discarding = false;
    return PLAYER_FAILED;
}

/* One line from the engine: PLAYER_MOVED when it is the wanted bestmove. */
static PlayerStatus take_line(Player *p, const char *line, char *best, size_t len)
{
    if (strncmp(line, "info string error", 17) == 0)
        bot_log("%s: the engine says: %.200s", p->what, line + 12);
    else if (strncmp(line, "info ", 5) == 0 && p->thinking)
        read_score(p, line);
    else if (uciproc_bestmove(line, best, len)) {
        if (p->discarding) {
            p->discarding = false;
            return PLAYER_IDLE;
        }
        if (p->thinking) {
            p->thinking = false;
            return PLAYER_MOVED;
        }
    }
    return PLAYER_THINKING;
}

PlayerStatus player_poll(Player *p, char *best, size_t len)
{
    if (!p->thinking && !p->discarding)
        return PLAYER_IDLE;
    char line[ENGINE_LINE_MAX];
    LineStatus st;
    while ((st = uciproc_read_line(&p->proc, line, sizeof line, clock_seconds())) == LINE_OK)
        if (take_line(p, line, best, len) == PLAYER_MOVED)
            return PLAYER_MOVED;
    if (st == LINE_EOF)
        return fail(p, "the engine exited");
    if (clock_seconds() <= p->deadline)
        return p->thinking || p->discarding ? PLAYER_THINKING : PLAYER_IDLE;
    if (p->thinking)
        return fail(p, "the engine sent no move in time");
    /* a search called off that never answered: the engine goes, and starts again when wanted */
    fail(p, "the engine did not answer 'stop'");
    return PLAYER_IDLE;
}

void player_cancel(Player *p)
{
    if (!p->thinking)
        return;
    p->thinking = false;
    p->discarding = true;
    p->deadline = clock_seconds() + PLAYER_STOP_SECONDS;
    if (!uciproc_send(&p->proc, "stop"))
        fail(p, "the engine exited");
}

int player_fd(const Player *p)
{
    return p->proc.pid ? p->proc.from_fd : -1;
}

void player_quit(Player *p)
{
    uciproc_stop(&p->proc, QUIT_SECONDS);
    p->ready = p->thinking = p->discarding = false;
}
