/*
 * Backups of the game store, taken while the server runs, and their restoration:
 *
 *   starfish backup --db FILE|URI --out FILE
 *   starfish restore --from FILE --db FILE|URI [--force]
 *
 * An SQLite store is copied with SQLite's online backup API in one step: one read
 * transaction, so the copy is the database as it was at one moment (WAL mode: the server's
 * writes go on meanwhile), every change either in it whole or not at all.  A PostgreSQL store
 * is dumped by pg_dump (custom format; one snapshot as well).  Either is written to FILE.tmp,
 * checked (SQLite's integrity check and the schema version; pg_restore --list), flushed to
 * disk and renamed to FILE, so that FILE is never half a backup.  FILE may hold strftime
 * conversions (backups/starfish-%Y%m%d.backup) for backups on a timer.
 *
 * A restore checks the backup the same way and copies it into the store, which the server
 * must not be using (stop it first): into an SQLite file by the backup API again, into a
 * PostgreSQL database by pg_restore in one transaction.  A store that holds games is only
 * replaced with --force.
 */
#ifndef STARFISH_SERVER_BACKUP_H
#define STARFISH_SERVER_BACKUP_H

#include "../util/options.h"

extern const Command backup_command, restore_command;
int backup_main(int argc, char **argv);
int restore_main(int argc, char **argv);

#endif
