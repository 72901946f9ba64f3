/*
 * `starfish user list | create NAME | reset-password NAME | close NAME [--db FILE|URI]`: the
 * operator's hand on the accounts, through the store that `starfish serve` uses (also while it
 * runs: accounts are read afresh by every request).  A password is read from standard input
 * (its first line); given none, one is made and printed.
 */
#include "user_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "account_service.h"
#include "store_pg.h"
#include "store_sqlite.h"
#include "util.h"

#define PASSWORD_LINE_MAX 1024
#define MADE_PASSWORD_LEN 16

static const char *db = "starfish.db";

static const Option user_options[] = {
    OPTION_STRING("db", "FILE|URI", "the store: an SQLite file (default starfish.db) or a PostgreSQL database", &db),
    OPTIONS_END,
};

const Command user_command = {"user", "COMMAND [...]", "accounts: list, create, reset-password, close (user --help)",
                              "The accounts of the web app's store.", NULL, 0, 0};

static const Command list_command = {"user list", "[--db FILE|URI]", "every account: name, created, closed",
                                     "Lists every account, oldest first: its name, when it was made and, if it is\n"
                                     "closed, when.",
                                     user_options, 0, 0};
static const Command create_command = {"user create", "NAME [--db FILE|URI]", "a new account",
                                       "Makes an account; its password is the first line of standard input, or one\n"
                                       "made and printed when that is empty.",
                                       user_options, 1, 1};
static const Command reset_command = {"user reset-password", "NAME [--db FILE|URI]", "a new password, every session ended",
                                      "Sets the account's password (the first line of standard input, or one made\n"
                                      "and printed) and ends every session of it.",
                                      user_options, 1, 1};
static const Command close_command = {"user close", "NAME [--db FILE|URI]", "close an account",
                                      "Closes the account: its sessions and tokens end, login fails, its name stays\n"
                                      "taken and its games keep it.",
                                      user_options, 1, 1};

/* Opens the store and the account service on it; NULL after a message. */
static Store *open_store(void)
{
    char err[512];
    Store *s = store_pg_wanted(db) ? store_pg_open(db, 1, err, sizeof err) : store_sqlite_open(db, err, sizeof err);
    if (!s) {
        fprintf(stderr, "starfish: user: %s\n", err);
        return NULL;
    }
    if (!account_start(s)) {
        fprintf(stderr, "starfish: user: cannot start libsodium\n");
        s->ops->close(s);
        return NULL;
    }
    return s;
}

/* The password from standard input's first line, or a new one (made: true) in out. */
static bool read_password(char *out, size_t len, bool *made)
{
    *made = false;
    if (fgets(out, (int)len, stdin)) {
        out[strcspn(out, "\r\n")] = 0;
        if (*out)
            return true;
    }
    *made = true;
    return util_random_string(out, MADE_PASSWORD_LEN, ID_ALPHABET);
}

/* A command that could not be done: one line, exit status 1. */
static int fail(const Command *c, const char *message)
{
    fprintf(stderr, "starfish: %s: %s\n", c->name, message);
    return 1;
}

static int cmd_list(int argc, char **argv)
{
    int nargs, status;
    if (!options_parse(&list_command, argc, argv, NULL, &nargs, &status))
        return status;
    Store *s = open_store();
    if (!s)
        return 1;
    UserRow *rows;
    int n;
    bool ok = store_user_list(s, &rows, &n);
    for (int i = 0; ok && i < n; i++) {
        char created[40], closed[40] = "";
        util_iso_time(rows[i].created_ms, created, sizeof created);
        if (rows[i].closed_ms)
            util_iso_time(rows[i].closed_ms, closed, sizeof closed);
        printf("%-20s  created %s%s%s\n", rows[i].username, created, closed[0] ? "  closed " : "", closed);
    }
    if (ok)
        free(rows);
    s->ops->close(s);
    return ok ? 0 : fail(&list_command, "the store cannot be read");
}

/* create and reset-password: a password read or made, then `act`. */
static int with_password(const Command *c, int argc, char **argv,
                         AccountStatus (*act)(const char *, const char *, AccountReply *), const char *done)
{
    char *args[1];
    int nargs, status;
    if (!options_parse(c, argc, argv, args, &nargs, &status))
        return status;
    char password[PASSWORD_LINE_MAX];
    bool made;
    if (!read_password(password, sizeof password, &made))
        return fail(c, "no random numbers");
    Store *s = open_store();
    if (!s)
        return 1;
    AccountReply reply = {0};
    AccountStatus result = act(args[0], password, &reply);
    s->ops->close(s);
    if (result != ACCOUNT_OK)
        return fail(c, reply.message);
    printf("%s: %s%s%s\n", args[0], done, made ? "; password " : "", made ? password : "");
    return 0;
}

static int cmd_create(int argc, char **argv)
{
    return with_password(&create_command, argc, argv, account_create, "account made");
}

static int cmd_reset(int argc, char **argv)
{
    return with_password(&reset_command, argc, argv, account_reset_password, "password set, every session ended");
}

static int cmd_close(int argc, char **argv)
{
    char *args[1];
    int nargs, status;
    if (!options_parse(&close_command, argc, argv, args, &nargs, &status))
        return status;
    Store *s = open_store();
    if (!s)
        return 1;
    AccountReply reply = {0};
    AccountStatus result = account_close_by_name(args[0], &reply);
    s->ops->close(s);
    if (result != ACCOUNT_OK)
        return fail(&close_command, reply.message);
    printf("%s: closed\n", args[0]);
    return 0;
}

static const Subcommand user_commands[] = {
    {&list_command, cmd_list},
    {&create_command, cmd_create},
    {&reset_command, cmd_reset},
    {&close_command, cmd_close},
};
#define USER_COMMANDS (int)(sizeof user_commands / sizeof user_commands[0])

int user_main(int argc, char **argv)
{
    if (argc < 2)
        return options_fail(&user_command, "user needs a command: list, create, reset-password or close");
    int status;
    if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        printf("usage: starfish user COMMAND [...]\n\n%s\n\n", user_command.about);
        options_list(user_commands, USER_COMMANDS, stdout);
        printf("\n'starfish user COMMAND --help' lists a command's options.\n");
        return 0;
    }
    if (options_run(user_commands, USER_COMMANDS, argc - 1, argv + 1, &status))
        return status;
    return options_fail(&user_command, "unknown user command '%s'", argv[1]);
}
