/*
 * The PostgreSQL backend of the game store (libpq): the same tables as SQLite's, in a
 * database that any number of server processes share.  Besides the store's operations it
 * tells each process of the changes the others make (LISTEN/NOTIFY) and lets one process at
 * a time claim a game's engine move (advisory locks).
 */
#ifndef STARFISH_SERVER_STORE_PG_H
#define STARFISH_SERVER_STORE_PG_H

#include <stdbool.h>

#include "store.h"

/* Does --db name a PostgreSQL database (a postgresql:// or postgres:// URI, or a libpq
 * connection string of key=value words) rather than an SQLite file? */
bool store_pg_wanted(const char *db);
/* Connects with the libpq connection string or URI (`pool` connections for the requests, one
 * for the claims), brings the database to the current schema; NULL with err set when it
 * cannot be used. */
Store *store_pg_open(const char *conninfo, int pool, char *err, size_t errlen);

#endif
