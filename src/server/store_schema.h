/*
 * The store's schema, shared by every backend: the migrations that build it step by step, in
 * SQL that SQLite and PostgreSQL both read (TEXT, BIGINT, CHECK, PRIMARY KEY, REFERENCES,
 * IF NOT EXISTS), and the columns each table must have.
 *
 * A backend keeps the version its database has reached in the table schema_version (one
 * row).  At start it reads the version (a database with no schema_version table is version
 * 0: new, or from before versioning, whose tables migration 1 then leaves as they are),
 * refuses a newer one, applies the migrations after it and checks every table's columns, all
 * in one transaction: a database it cannot use is left as it was.  schema_migrate does that
 * for every backend, through the backend's SchemaAccess.
 */
#ifndef STARFISH_SERVER_STORE_SCHEMA_H
#define STARFISH_SERVER_STORE_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

#define SCHEMA_VERSION 7

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

/* How schema_migrate reaches a backend's database.  Queries take their parameters as $1, $2
 * (text), which SQLite and PostgreSQL both read. */
typedef struct SchemaAccess {
    void *db;
    const char *name; /* the file or the database, for messages */
    /* Runs statements that return no rows. */
    bool (*exec)(void *db, const char *sql);
    /* Runs a query returning one integer, with its parameters (none, one or two: NULL for
     * those it lacks); false on an error. */
    bool (*query_int)(void *db, const char *sql, const char *arg1, const char *arg2, int *out);
    const char *(*error)(void *db); /* the last error's text */
    const char *count_tables_sql;   /* $1: a table's name -> 1 when it exists, else 0 */
    const char *count_others_sql;   /* -> how many tables the database has (its own) */
    const char *count_columns_sql;  /* $1: table, $2: column -> 1 when it has it, else 0 */
} SchemaAccess;

/* Brings the database to SCHEMA_VERSION and checks it, inside a transaction the caller has
 * begun (and commits only on true); false with err set when the database cannot be used. */
bool schema_migrate(const SchemaAccess *a, char *err, size_t errlen);

/* Stored forms every backend shares: a side as text ("white", "black"; NULL for none, -1)
 * and back (-1 for NULL or anything else). */
const char *schema_side_text(int side);
int schema_side_of(const char *text);
/* Makes room for one more element in the malloc'ed array *array of *cap elements that holds
 * n (realloc); false when memory runs out. */
bool schema_grow_array(void *array, int *cap, int n, size_t size);

#endif
