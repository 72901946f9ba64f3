/*
 * The store's schema, shared by every backend: the migrations that build it step by step, in
 * SQL that SQLite and PostgreSQL both read (TEXT, BIGINT, CHECK, PRIMARY KEY, REFERENCES,
 * IF NOT EXISTS), and the columns each table must have.
 *
 * A backend keeps the version its database has reached in the table schema_version (one
 * row).  At start it reads the version (a database with no schema_version table is version
 * 0: new, or from before versioning, whose tables migration 1 then leaves as they are),
 * refuses a newer one, applies the migrations after it and checks every table's columns, all
 * in one transaction: a database it cannot use is left as it was.
 */
#ifndef STARFISH_SERVER_STORE_SCHEMA_H
#define STARFISH_SERVER_STORE_SCHEMA_H

#include <stddef.h>

#define SCHEMA_VERSION 1

typedef struct Migration {
    int version;             /* the version it leads to: 1, 2, ... */
    const char *what;        /* for messages */
    const char *const *sql;  /* its statements, NULL-terminated */
} Migration;

typedef struct TableColumns {
    const char *table;
    const char *const *columns; /* NULL-terminated */
} TableColumns;

/* The migrations, in order (schema_migrations[i].version == i + 1). */
extern const Migration schema_migrations[SCHEMA_VERSION];
/* The tables of the current version and the columns each must have. */
extern const TableColumns schema_tables[];
extern const size_t schema_table_count;

#endif
