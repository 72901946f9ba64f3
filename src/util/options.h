/*
 * Command lines: one table of options per command, one parser, and the command's --help
 * generated from the same table.
 *
 * A command (`starfish match`, `starfish tb generate`, ...) is a Command: its name, the usage
 * after the name, a paragraph about it, its options and how many plain arguments it takes.
 * options_parse() reads `--name VALUE`, `--name=VALUE`, flags, `--help`/`-h` and plain
 * arguments in any order (`--` ends the options; a negative number is an argument, not an
 * option), checks and stores each value in its target, and says what is wrong otherwise:
 * one line on stderr, `starfish: COMMAND: MESSAGE (see 'starfish COMMAND --help')`, and exit
 * status 2.
 *
 * Written here rather than on getopt_long because commands need what it does not give:
 * options with two values (`--sprt ELO0 ELO1`), negative numbers as arguments
 * (`perft chess -1` is a bad depth, not an unknown option), no global state (the unit tests
 * parse many command lines), and no silent abbreviations.
 */
#ifndef STARFISH_UTIL_OPTIONS_H
#define STARFISH_UTIL_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The text of a macro's value, for help texts and defaults: NUMBER_TEXT(HASH_DEFAULT) is the
 * literal "16" when HASH_DEFAULT is 16. */
#define NUMBER_TEXT_(x) #x
#define NUMBER_TEXT(x) NUMBER_TEXT_(x)

typedef enum {
    OPT_FLAG,   /* no value: sets a bool to true */
    OPT_INT,    /* an int in [min, max] */
    OPT_U64,    /* a non-negative uint64_t */
    OPT_DOUBLE, /* a finite double in [min, max] */
    OPT_STRING, /* a const char *, not empty */
    OPT_CALL,   /* call() reads the value(s) into target */
} OptionType;

typedef struct Option {
    const char *name;  /* without the leading "--"; NULL ends a table */
    const char *value; /* the value's name in the help ("N", "FILE", "ELO0 ELO1"); NULL for a flag */
    const char *help;  /* what it does; each '\n' starts another line of help */
    OptionType type;
    void *target; /* where the value goes (bool, int, uint64_t, double, const char * or call's own) */
    double min, max; /* OPT_INT and OPT_DOUBLE: the allowed range */
    int values;      /* OPT_CALL: values that follow the option (0 means one) */
    /* OPT_CALL: reads values[0 .. values-1] into target; false with err set on a bad value. */
    bool (*call)(void *target, char **values, char *err, size_t errlen);
} Option;

/* Table entries, each checking its target's type at compile time. */
#define OPTION_FLAG(name, help, target) {name, NULL, help, OPT_FLAG, _Generic((target), bool *: (target)), 0, 0, 0, NULL}
#define OPTION_INT(name, value, help, target, min, max)                                                        \
    {name, value, help, OPT_INT, _Generic((target), int *: (target)), min, max, 0, NULL}
#define OPTION_U64(name, value, help, target) {name, value, help, OPT_U64, _Generic((target), uint64_t *: (target)), 0, 0, 0, NULL}
#define OPTION_DOUBLE(name, value, help, target, min, max)                                                     \
    {name, value, help, OPT_DOUBLE, _Generic((target), double *: (target)), min, max, 0, NULL}
#define OPTION_STRING(name, value, help, target)                                                               \
    {name, value, help, OPT_STRING, _Generic((target), const char **: (target)), 0, 0, 0, NULL}
#define OPTION_CALL(name, value, help, target, nvalues, call) {name, value, help, OPT_CALL, target, 0, 0, nvalues, call}
#define OPTIONS_END {NULL, NULL, NULL, OPT_FLAG, NULL, 0, 0, 0, NULL}

typedef struct Command {
    const char *name;    /* as typed after `starfish`: "match", "tb generate" */
    const char *usage;   /* what follows the name: "VARIANT DEPTH [FEN]", "[OPTIONS]" */
    const char *summary; /* one line for `starfish help` */
    const char *about;   /* a paragraph for --help, or NULL */
    const Option *options; /* ended by an entry without a name; NULL for none */
    int min_args, max_args; /* plain arguments */
} Command;

/*
 * Parses argv[1 .. argc-1] (argv[0] is the command's word) for command c.  Plain arguments are
 * put in args (room for c->max_args) and counted in *nargs.  True to go on; false when the
 * command should stop at once with exit status *status: 0 after --help (printed on stdout),
 * 2 after a bad command line (the message printed on stderr).
 */
bool options_parse(const Command *c, int argc, char **argv, char **args, int *nargs, int *status);

/* Prints c's usage, its paragraph and its options with their help. */
void options_help(const Command *c, FILE *out);

/* A command of a group (`starfish perft`, `starfish tb generate`) and what runs it; argv[0] is
 * the last word of its name. */
typedef struct Subcommand {
    const Command *command;
    int (*run)(int argc, char **argv);
} Subcommand;

/* Lists a group's commands for its help: each one's usage, and its summary beside or below it. */
void options_list(const Subcommand *list, int n, FILE *out);
/* Runs the command of the group whose name ends in the word argv[0]; false when there is none. */
bool options_run(const Subcommand *list, int n, int argc, char **argv, int *status);

/* Prints `starfish: NAME: MESSAGE (see 'starfish NAME --help')` on stderr; returns 2, the exit
 * status of a bad command line. */
int options_fail(const Command *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
