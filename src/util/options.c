#include "options.h"

#include <stdarg.h>
#include <string.h>

#include "error.h"
#include "parse.h"

#define HELP_COLUMN 30 /* where the help text of an option starts */
#define LIST_COLUMN 40 /* where a command's summary starts in a list of commands */

int options_fail(const Command *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "starfish: %s: ", c->name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, " (see 'starfish %s --help')\n", c->name);
    va_end(ap);
    return 2;
}

/* Prints text, each line after the first indented to `indent` columns. */
static void print_lines(FILE *out, const char *text, int indent)
{
    for (const char *line = text; *line;) {
        size_t n = strcspn(line, "\n");
        fprintf(out, "%.*s\n", (int)n, line);
        line += n;
        if (*line == '\n' && *++line)
            fprintf(out, "%*s", indent, "");
    }
}

void options_help(const Command *c, FILE *out)
{
    fprintf(out, "usage: starfish %s%s%s\n\n", c->name, c->usage[0] ? " " : "", c->usage);
    if (c->about) {
        print_lines(out, c->about, 0);
        fprintf(out, "\n");
    }
    for (const Option *o = c->options; o && o->name; o++) {
        char head[128];
        int n = snprintf(head, sizeof head, "  --%s%s%s", o->name, o->value ? " " : "", o->value ? o->value : "");
        fprintf(out, "%s%*s", head, n < HELP_COLUMN ? HELP_COLUMN - n : 1, "");
        print_lines(out, o->help, HELP_COLUMN);
    }
    fprintf(out, "  --help%*sthis text\n", HELP_COLUMN - 8, "");
}

void options_list(const Subcommand *list, int n, FILE *out)
{
    for (int i = 0; i < n; i++) {
        const Command *c = list[i].command;
        char head[256];
        int w = snprintf(head, sizeof head, "  starfish %s%s%s", c->name, c->usage[0] ? " " : "", c->usage);
        if (w < LIST_COLUMN)
            fprintf(out, "%-*s%s\n", LIST_COLUMN, head, c->summary);
        else
            fprintf(out, "%s\n%*s%s\n", head, LIST_COLUMN, "", c->summary);
    }
}

bool options_run(const Subcommand *list, int n, int argc, char **argv, int *status)
{
    for (int i = 0; i < n; i++) {
        const char *name = list[i].command->name, *last = strrchr(name, ' ');
        if (strcmp(argv[0], last ? last + 1 : name) == 0) {
            *status = list[i].run(argc, argv);
            return true;
        }
    }
    return false;
}

static bool is_negative_number(const char *a)
{
    return a[0] == '-' && ((a[1] >= '0' && a[1] <= '9') || (a[1] == '.' && a[2] >= '0' && a[2] <= '9'));
}

static const Option *find_option(const Command *c, const char *name, size_t len)
{
    for (const Option *o = c->options; o && o->name; o++)
        if (strlen(o->name) == len && strncmp(o->name, name, len) == 0)
            return o;
    return NULL;
}

/* Stores the value(s) of o; false with err set when they are not what o takes. */
static bool store(const Option *o, char **values, char *err, size_t errlen)
{
    const char *v = values ? values[0] : NULL;
    switch (o->type) {
    case OPT_FLAG:
        *(bool *)o->target = true;
        return true;
    case OPT_INT:
        if (!parse_int(v, (int)o->min, (int)o->max, o->target))
            return error_set(err, errlen, "bad --%s '%s' (an integer from %.0f to %.0f)", o->name, v, o->min, o->max);
        return true;
    case OPT_U64:
        if (!parse_u64(v, o->target))
            return error_set(err, errlen, "bad --%s '%s' (a non-negative integer)", o->name, v);
        return true;
    case OPT_DOUBLE:
        if (!parse_double(v, o->min, o->max, o->target))
            return error_set(err, errlen, "bad --%s '%s' (a number from %g to %g)", o->name, v, o->min, o->max);
        return true;
    case OPT_STRING:
        if (!*v)
            return error_set(err, errlen, "--%s needs a value, not an empty text", o->name);
        *(const char **)o->target = v;
        return true;
    case OPT_CALL:
        return o->call(o->target, values, err, errlen);
    }
    return error_set(err, errlen, "--%s: an option of no known type", o->name);
}

/* Reads the option at argv[*i] and its values (advancing *i); false with err set. */
static bool read_option(const Command *c, int argc, char **argv, int *i, char *err, size_t errlen)
{
    const char *a = argv[*i], *name = a + 2, *eq = strchr(a, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const Option *o = strncmp(a, "--", 2) == 0 ? find_option(c, name, len) : NULL;
    if (!o)
        return error_set(err, errlen, "unknown option '%.*s'", (int)(eq ? eq - a : (ptrdiff_t)strlen(a)), a);
    if (!o->value) {
        if (eq)
            return error_set(err, errlen, "--%s takes no value", o->name);
        return store(o, NULL, err, errlen);
    }
    int wanted = o->type == OPT_CALL && o->values > 1 ? o->values : 1;
    char *values[4];
    int got = 0;
    if (eq)
        values[got++] = (char *)eq + 1;
    while (got < wanted && *i + 1 < argc)
        values[got++] = argv[++*i];
    if (got < wanted)
        return wanted == 1 ? error_set(err, errlen, "--%s needs a value (%s)", o->name, o->value)
                           : error_set(err, errlen, "--%s needs %d values (%s)", o->name, wanted, o->value);
    return store(o, values, err, errlen);
}

bool options_parse(const Command *c, int argc, char **argv, char **args, int *nargs, int *status)
{
    char err[512];
    bool only_arguments = false;
    *nargs = 0;
    *status = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (only_arguments || a[0] != '-' || a[1] == 0 || is_negative_number(a)) {
            if (*nargs >= c->max_args) {
                options_fail(c, "unexpected argument '%s'", a);
                return false;
            }
            args[(*nargs)++] = argv[i];
        } else if (strcmp(a, "--") == 0) {
            only_arguments = true;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            options_help(c, stdout);
            *status = 0;
            return false;
        } else if (!read_option(c, argc, argv, &i, err, sizeof err)) {
            options_fail(c, "%s", err);
            return false;
        }
    }
    if (*nargs < c->min_args) {
        options_fail(c, "needs %s", c->usage);
        return false;
    }
    return true;
}
