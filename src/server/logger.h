/*
 * The server's log: one JSON object a line (JSON lines), on standard error, which the journal
 * keeps under systemd, or appended to a file (--log FILE), opened again on SIGHUP after
 * logrotate has moved it.  Every line has "ts" (UTC, RFC 3339 with milliseconds), "level"
 * (debug, info, warn or error) and "event", then the event's fields; docs/deploy.md lists
 * them.  No line carries a secret: requests are logged without headers (cookies,
 * Authorization) or bodies, and with the values of their secret query parameters (token=...)
 * replaced by "REDACTED".
 */
#ifndef STARFISH_SERVER_LOGGER_H
#define STARFISH_SERVER_LOGGER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum LogLevel { LOG_LEVEL_DEBUG, LOG_LEVEL_INFO, LOG_LEVEL_WARN, LOG_LEVEL_ERROR } LogLevel;

/* "debug", "info", "warn" or "error"; false for any other name. */
bool logger_level_named(const char *name, LogLevel *level);
/* Logs lines of `least` and above to the file (NULL: standard error); false with err set
 * when the file cannot be opened. */
bool logger_open(const char *path, LogLevel least, char *err, size_t errlen);
/* Opens the file again (after logrotate moved it); a failure keeps the old one. */
void logger_reopen(void);
void logger_close(void);
/* Would a line of this level be written? */
bool logger_wants(LogLevel level);
/* Writes one line: the event and the fields of `fields` (an object, taken over; NULL for
 * none), each line written whole, so that threads' lines never mix. */
void logger_event(LogLevel level, const char *event, json_t *fields);

/* The request target with the value of every query parameter whose name speaks of a secret
 * (token, password, secret, key, session, auth, code) replaced by REDACTED, and every byte
 * that is not printable ASCII written %XX; malloc'ed, NULL when memory runs out. */
char *logger_redacted_target(const char *target);

#endif
