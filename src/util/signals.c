/* SIGINT and SIGTERM as a request to stop (signals.h). */
#include "signals.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>

static atomic_int caught = 0;
static volatile sig_atomic_t second_ends_program;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "a signal handler may store to a lock-free atomic int");

/* Both signals to `handler` (sigaction: async-signal-safe, so the handler calls it too). */
static void set_handler(void (*handler)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static void on_stop_signal(int sig)
{
    int none = 0;
    atomic_compare_exchange_strong(&caught, &none, sig);
    if (second_ends_program)
        set_handler(SIG_DFL);
}

void stop_signals_catch(bool second_ends)
{
    second_ends_program = second_ends;
    set_handler(on_stop_signal);
}

int stop_signal_caught(void)
{
    return atomic_load(&caught);
}

const char *stop_signal_name(int sig)
{
    return sig == SIGTERM ? "SIGTERM" : "SIGINT";
}
