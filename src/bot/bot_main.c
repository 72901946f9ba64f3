/*
 * `starfish bot --server URL --token TOKEN [--engine CMD] [--config FILE]`: the command.  It
 * reads the config, checks what can be checked before playing (the engine starts and speaks
 * UCI, the server answers and takes the token), then reads the account's events until
 * SIGTERM or SIGINT, and at the end waits for every game's thread.  bot.h maps the rest.
 */
#include "bot_main.h"

#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../client/uci_process.h"
#include "../util/error.h"
#include "../util/paths.h"
#include "../util/signals.h"
#include "bot.h"
#include "bot_events.h"
#include "bot_game.h"

#define ENGINE_CHECK_SECONDS 10.0

static const char *server_arg, *token_arg, *engine_arg, *config_arg, *join_arg;

static const Option bot_options[] = {
    OPTION_STRING("server", "URL", "the server: http://HOST:PORT, or https://lichess.org (chess only)", &server_arg),
    OPTION_STRING("token", "TOKEN", "the bot account's API token (or `token = ...` in the config, which keeps it\n"
                                    "out of the process list)",
                  &token_arg),
    OPTION_STRING("engine", "CMD", "the UCI engine, run with /bin/sh -c (default: this program's own engine)",
                  &engine_arg),
    OPTION_STRING("config", "FILE", "`key = value` lines: the engine's options, the challenges taken, the games at\n"
                                    "once, ... (docs/bots.md lists them)",
                  &config_arg),
    OPTION_STRING("join", "IDS", "tournaments to join once the bot listens (ids, spaces or commas between; the\n"
                                 "config's join key)",
                  &join_arg),
    OPTIONS_END,
};

const Command bot_command = {
    "bot", "--server URL --token TOKEN [--engine CMD] [--config FILE] [--join IDS]",
    "play a UCI engine on a server through lichess's Bot API",
    "Connects a UCI engine to a bot account on any server that speaks lichess's Bot API (this\n"
    "program's serve, or lichess.org for chess): accepts or declines challenges by the\n"
    "config's filters (variants, speeds, clocks, rated or casual, games at once), joins the\n"
    "tournaments it is told to (--join; berserk in the config), plays each game on a thread\n"
    "of its own with an engine process of its own, opens a dropped stream again without\n"
    "losing a game, and logs a line per game on standard error.  SIGTERM or\n"
    "SIGINT stops it cleanly (exit status 0): the games under way are left to the server's\n"
    "clocks, or resigned or aborted (on_stop in the config).  docs/bots.md tells how to make\n"
    "the account, its token and the config.",
    bot_options, 0, 0};

/* ---- The stop flag and the log --------------------------------------------------------- */

/* -1 while the bot runs and when a signal (signals.h) stopped it, which exits with 0; else
 * the exit status of the first bot_request_stop. */
static atomic_int stop_status = -1;

bool bot_stopping(void)
{
    return atomic_load(&stop_status) >= 0 || stop_signal_caught();
}

void bot_request_stop(int status)
{
    int running = -1;
    if (!stop_signal_caught()) /* the first reason to stop gives the exit status */
        atomic_compare_exchange_strong(&stop_status, &running, status);
}

void bot_log(const char *fmt, ...)
{
    char line[1024];
    int n = snprintf(line, sizeof line, "starfish bot: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    size_t len = strlen(line);
    line[len++] = '\n';
    /* one write: lines of several threads never mix */
    if (write(STDERR_FILENO, line, len) < 0)
        return;
}

static void catch_signals(void)
{
    stop_signals_catch(false);
    signal(SIGPIPE, SIG_IGN); /* an engine that exits must not kill the bot as it is written to */
}

/* ---- Start ----------------------------------------------------------------------------- */

/* The config: the file's, then the command line's. */
static bool configure(BotConfig *c, char *err, size_t errlen)
{
    bot_config_defaults(c);
    if (config_arg && !bot_config_load(c, config_arg, err, errlen))
        return false;
    if ((server_arg && !bot_config_set(c, "server", server_arg, err, errlen)) ||
        (token_arg && !bot_config_set(c, "token", token_arg, err, errlen)) ||
        (engine_arg && !bot_config_set(c, "engine", engine_arg, err, errlen)) ||
        (join_arg && !bot_config_set(c, "join", join_arg, err, errlen)))
        return false;
    if (!c->server[0])
        return error_set(err, errlen, "no server (--server URL, or server = URL in the config)");
    if (c->engine[0])
        return true;
    /* This program's own engine: its path, quoted for /bin/sh. */
    char self[PATH_MAX];
    if (!program_path(self, sizeof self) || strchr(self, '\'') || strlen(self) + 3 > sizeof c->engine)
        return error_set(err, errlen, "cannot find this program's own path: name an engine (--engine CMD)");
    snprintf(c->engine, sizeof c->engine, "'%.*s'", (int)sizeof c->engine - 3, self);
    return true;
}

/* The engine starts and says uciok; the variants it offers are learnt. */
static bool check_engine(BotConfig *c)
{
    UciProc p;
    char why[300];
    bool ok = uciproc_handshake(&p, c->engine, ENGINE_CHECK_SECONDS, why, sizeof why);
    if (ok) {
        bot_config_engine_variants(c, p.variants);
        bot_log("engine: %s (%s)", p.id_name[0] ? p.id_name : "unnamed", c->engine);
    } else {
        fprintf(stderr, "starfish: bot: the engine '%s' %s\n", c->engine, why);
    }
    uciproc_stop(&p, 1.0);
    return ok;
}

/* The server answers, takes the token, and says whose account it is. */
static bool check_account(Bot *b)
{
    json_t *account = NULL;
    char err[300];
    long st = http_get_json(&b->conn, "/api/account", &account, err, sizeof err);
    bool ok = st == 200 && *json_text(account, "id");
    if (st == 0)
        fprintf(stderr, "starfish: bot: cannot reach %s: %s\n", b->conn.base, err);
    else if (st == 401)
        fprintf(stderr, "starfish: bot: %s refused the token (401): is it right, and not revoked?\n", b->conn.base);
    else if (!ok)
        fprintf(stderr, "starfish: bot: %s/api/account answered %ld: %s\n", b->conn.base, st, err);
    if (ok) {
        snprintf(b->me_id, sizeof b->me_id, "%s", json_text(account, "id"));
        snprintf(b->me_name, sizeof b->me_name, "%s", json_text(account, "username"));
        const char *title = json_text(account, "title");
        if (*title && strcmp(title, "BOT") != 0)
            bot_log("%s is not a bot account (title %s): upgrade it first (docs/bots.md)", b->me_name, title);
    }
    json_decref(account);
    return ok;
}

/* The config in one line of the log. */
static void log_config(const BotConfig *c)
{
    char variants[BOT_VARIANTS_MAX * BOT_KEY_MAX] = "";
    size_t n = 0;
    for (int i = 0; i < c->nvariants && n < sizeof variants; i++)
        n += (size_t)snprintf(variants + n, sizeof variants - n, "%s%s", i ? " " : "", c->variants[i]);
    bot_log("accepting %s%s%s challenges in %s, %d game%s at once", c->rated ? "rated" : "",
            c->rated && c->casual ? " and " : "", c->casual ? "casual" : "", variants, c->concurrency,
            c->concurrency == 1 ? "" : "s");
}

int bot_main(int argc, char **argv)
{
    int nargs, status;
    static Bot bot;
    char err[600];
    server_arg = token_arg = engine_arg = config_arg = join_arg = NULL;
    if (!options_parse(&bot_command, argc, argv, NULL, &nargs, &status))
        return status;
    if (!configure(&bot.cfg, err, sizeof err) || !conn_init(&bot.conn, bot.cfg.server, bot.cfg.token, err, sizeof err))
        return options_fail(&bot_command, "%s", err);
    catch_signals();
    if (!http_global_init()) {
        fprintf(stderr, "starfish: bot: cannot start libcurl\n");
        return 1;
    }
    int exit_status = 1;
    if (check_engine(&bot.cfg) && check_account(&bot)) {
        log_config(&bot.cfg);
        int left = bot_events_run(&bot);
        int sig = stop_signal_caught();
        bot_log("stopping%s%s: %d game%s under way", sig ? " on " : "", sig ? stop_signal_name(sig) : "", left,
                left == 1 ? "" : "s");
        bot_events_join();
        int status = atomic_load(&stop_status);
        exit_status = status < 0 ? 0 : status; /* < 0: a signal stopped it */
        bot_log("stopped");
    }
    conn_free(&bot.conn);
    http_global_free();
    return exit_status;
}
