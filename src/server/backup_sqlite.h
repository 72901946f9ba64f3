/* The SQLite side of backups (backup.h): copies by the online backup API, and their checks. */
#ifndef STARFISH_SERVER_BACKUP_SQLITE_H
#define STARFISH_SERVER_BACKUP_SQLITE_H

#include <stdbool.h>
#include <stddef.h>

/* What a copy holds, as its check found it. */
typedef struct BackupContents {
    int version; /* the schema's */
    long long games, moves;
} BackupContents;

/* Copies the database at `db` (which must exist) into the new file `out`, then checks the
 * copy; false with err set (and no `out` left) when either fails. */
bool sqlite_backup(const char *db, const char *out, BackupContents *contents, char *err, size_t errlen);
/* The games in the database at `db` (0 when it is new or has no games table), or -1. */
long long sqlite_games(const char *db, char *err, size_t errlen);
/* Checks the backup `from`, then copies it over the database at `db` (made if need be). */
bool sqlite_restore(const char *from, const char *db, BackupContents *contents, char *err, size_t errlen);

#endif
