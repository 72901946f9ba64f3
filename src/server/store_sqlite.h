/*
 * The SQLite backend of the game store (WAL mode): tables `games` and `moves`.  One
 * connection, serialised by the store's own mutex.
 */
#ifndef STARFISH_SERVER_STORE_SQLITE_H
#define STARFISH_SERVER_STORE_SQLITE_H

#include "store.h"

/* Opens (or creates) the database at path (kept: it names the store in messages); NULL with
 * err set when it cannot be used. */
Store *store_sqlite_open(const char *path, char *err, size_t errlen);

#endif
