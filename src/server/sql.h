/*
 * SQL that both stores read, behind one small interface: a statement with text parameters
 * ($1, $2, ..., which SQLite and PostgreSQL both read) and its answer as rows of text.  The queries of games, moves, accounts and ratings are written once
 * against it (store_games.c, store_accounts.c); each backend (store_sqlite.c, store_pg.c)
 * runs the statements and the transactions around them.
 *
 * Parameters are text, typed by the database from where they stand: PostgreSQL infers each
 * parameter's type from its column, and SQLite converts a text operand to a number where it
 * meets a column of numeric affinity (so write `column = $1`, not `lower(column) = $1`, for a
 * number).  Numbers come back as text: sql_int and sql_real read them.
 */
#ifndef STARFISH_SERVER_SQL_H
#define STARFISH_SERVER_SQL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum SqlStatus {
    SQL_OK,
    SQL_FAILED,    /* the database refused the statement, or memory ran out */
    SQL_DUPLICATE, /* a unique key refused a row */
} SqlStatus;

/* A statement's answer: rows x cols texts in row-major order, NULL for SQL NULL (each
 * malloc'ed, as is the array). */
typedef struct SqlRows {
    int rows, cols;
    char **cell;
    int ncells, cap; /* the backend's, while it fills the rows */
    long changes;    /* the rows an INSERT, UPDATE or DELETE changed */
} SqlRows;

typedef struct Sql Sql;
struct Sql {
    void *db;
    /* After a SELECT of rows that the transaction will change: " FOR UPDATE" where other
     * processes may change them meanwhile (PostgreSQL), "" where one writer does (SQLite). */
    const char *lock_rows;
    /* Runs one statement with n text parameters (NULL: SQL NULL); its rows in *out unless
     * out is NULL.  On anything but SQL_OK, *out holds no rows. */
    SqlStatus (*run)(Sql *sql, const char *text, int n, const char *const *params, SqlRows *out);
    /* Tells the other processes sharing the database that game `id` changed, at commit
     * (NULL where no process shares it). */
    bool (*notify)(Sql *sql, const char *id);
};

/* Runs a statement whose rows are not wanted. */
SqlStatus sql_exec(Sql *sql, const char *text, int n, const char *const *params);
/* sql->notify, where there is one; false when it failed. */
bool sql_notify(Sql *sql, const char *id);
void sql_free(SqlRows *r);

/* A cell: its text (NULL for SQL NULL), as a number (0 for NULL), as a real. */
const char *sql_text(const SqlRows *r, int row, int col);
bool sql_null(const SqlRows *r, int row, int col);
int64_t sql_int(const SqlRows *r, int row, int col);
double sql_real(const SqlRows *r, int row, int col);
/* Copies a cell's text into out ("" for NULL). */
void sql_copy(char *out, size_t len, const SqlRows *r, int row, int col);

/* A number as a parameter's text in buf, or NULL (SQL NULL) when not `present`. */
#define SQL_NUMBER_MAX 32
const char *sql_int_param(char buf[SQL_NUMBER_MAX], bool present, int64_t value);
const char *sql_real_param(char buf[SQL_NUMBER_MAX], double value);

/* For a backend filling *r (zeroed, then its cols set): appends the next cell, a copy of
 * len bytes of text (NULL: SQL NULL), and counts the rows; false when memory runs out. */
bool sql_rows_add(SqlRows *r, const char *text, size_t len);

#endif
