#include "logger.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

static const char *const level_names[] = {"debug", "info", "warn", "error"};
/* Query parameters whose values are secrets, by a part of their name. */
static const char *const secret_names[] = {"token", "pass", "secret", "key", "session", "auth", "code"};

static int fd = STDERR_FILENO;
static char *path; /* the file's name, NULL for standard error */
static LogLevel least = LOG_LEVEL_INFO;
static pthread_mutex_t reopen_lock = PTHREAD_MUTEX_INITIALIZER;

bool logger_level_named(const char *name, LogLevel *level)
{
    for (int i = 0; i < (int)(sizeof level_names / sizeof level_names[0]); i++)
        if (strcmp(name, level_names[i]) == 0) {
            *level = (LogLevel)i;
            return true;
        }
    return false;
}

static int open_log(const char *name)
{
    return open(name, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
}

bool logger_open(const char *file, LogLevel level, char *err, size_t errlen)
{
    least = level;
    if (!file)
        return true;
    int opened = open_log(file);
    if (opened < 0 || !(path = strdup(file))) {
        snprintf(err, errlen, "cannot open the log %s: %s", file, strerror(opened < 0 ? errno : ENOMEM));
        if (opened >= 0)
            close(opened);
        return false;
    }
    fd = opened;
    return true;
}

void logger_reopen(void)
{
    pthread_mutex_lock(&reopen_lock);
    int opened = path ? open_log(path) : -1;
    if (opened >= 0) { /* the same descriptor now writes to the new file, for every thread at once */
        dup3(opened, fd, O_CLOEXEC);
        close(opened);
    }
    pthread_mutex_unlock(&reopen_lock);
    if (opened >= 0) /* the new file's first line: whatever follows it is written there */
        logger_event(LOG_LEVEL_INFO, "log_reopened", NULL);
}

void logger_close(void)
{
    if (path) {
        close(fd);
        fd = STDERR_FILENO;
    }
    free(path);
    path = NULL;
}

bool logger_wants(LogLevel level)
{
    return level >= least;
}

/* Now as "2026-12-04T17:36:23.123Z". */
static void timestamp(char *out, size_t len)
{
    struct timespec now;
    struct tm utc;
    clock_gettime(CLOCK_REALTIME, &now);
    gmtime_r(&now.tv_sec, &utc);
    size_t n = strftime(out, len, "%Y-%m-%dT%H:%M:%S", &utc);
    snprintf(out + n, len - n, ".%03ldZ", now.tv_nsec / 1000000);
}

void logger_event(LogLevel level, const char *event, json_t *fields)
{
    if (!logger_wants(level)) {
        json_decref(fields);
        return;
    }
    char ts[40];
    timestamp(ts, sizeof ts);
    json_t *line = json_pack("{s:s, s:s, s:s}", "ts", ts, "level", level_names[level], "event", event);
    if (line && fields)
        json_object_update(line, fields);
    char *text = line ? json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(line);
    json_decref(fields);
    if (!text)
        return;
    size_t len = strlen(text);
    text[len] = '\n'; /* one write: lines of several threads never mix (O_APPEND) */
    ssize_t written = write(fd, text, len + 1);
    (void)written; /* a log that cannot be written is not worth stopping for */
    free(text);
}

static bool names_a_secret(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof secret_names / sizeof secret_names[0]; i++) {
        size_t n = strlen(secret_names[i]);
        for (size_t at = 0; at + n <= len; at++)
            if (strncasecmp(name + at, secret_names[i], n) == 0)
                return true;
    }
    return false;
}

/* Appends n bytes of text to out at *w, each byte that is not printable ASCII as %XX: the
 * log is JSON, and JSON text is UTF-8. */
static void append_printable(char *out, size_t *w, const char *text, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char b = (unsigned char)text[i];
        if (b > 0x20 && b < 0x7f)
            out[(*w)++] = (char)b;
        else
            *w += (size_t)sprintf(out + *w, "%%%02X", b);
    }
}

char *logger_redacted_target(const char *target)
{
    size_t len = strlen(target), pairs = 1;
    const char *query = strchr(target, '?');
    for (const char *p = query; p && *p; p++)
        pairs += *p == '&';
    char *out = malloc(3 * len + pairs * strlen("REDACTED") + 1); /* %XX, and REDACTED for a value */
    if (!out)
        return NULL;
    size_t w = 0;
    append_printable(out, &w, target, query ? (size_t)(query - target) + 1 : len);
    for (const char *p = query ? query + 1 : target + len; *p;) {
        size_t pair = strcspn(p, "&"), name = strcspn(p, "=&");
        if (name < pair && names_a_secret(p, name)) {
            append_printable(out, &w, p, name + 1);
            append_printable(out, &w, "REDACTED", 8);
        } else {
            append_printable(out, &w, p, pair);
        }
        p += pair;
        if (*p == '&')
            out[w++] = *p++;
    }
    out[w] = 0;
    return out;
}
