#include "sql.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

SqlStatus sql_exec(Sql *sql, const char *text, int n, const char *const *params)
{
    return sql->run(sql, text, n, params, NULL);
}

bool sql_notify(Sql *sql, const char *id)
{
    return !sql->notify || sql->notify(sql, id);
}

void sql_free(SqlRows *r)
{
    for (int i = 0; i < r->ncells; i++)
        free(r->cell[i]);
    free(r->cell);
    r->cell = NULL;
    r->rows = r->ncells = r->cap = 0;
}

bool sql_rows_add(SqlRows *r, const char *text, size_t len)
{
    if (r->ncells == r->cap) {
        int more = r->cap ? r->cap * 2 : 16;
        char **grown = realloc(r->cell, sizeof *grown * (size_t)more);
        if (!grown)
            return false;
        r->cell = grown;
        r->cap = more;
    }
    char *copy = NULL;
    if (text) {
        if (!(copy = malloc(len + 1)))
            return false;
        memcpy(copy, text, len);
        copy[len] = 0;
    }
    r->cell[r->ncells++] = copy;
    r->rows = r->cols ? r->ncells / r->cols : 0;
    return true;
}

const char *sql_text(const SqlRows *r, int row, int col)
{
    return r->cell[row * r->cols + col];
}

bool sql_null(const SqlRows *r, int row, int col)
{
    return sql_text(r, row, col) == NULL;
}

int64_t sql_int(const SqlRows *r, int row, int col)
{
    const char *t = sql_text(r, row, col);
    return t ? strtoll(t, NULL, 10) : 0;
}

double sql_real(const SqlRows *r, int row, int col)
{
    const char *t = sql_text(r, row, col);
    return t ? strtod(t, NULL) : 0;
}

void sql_copy(char *out, size_t len, const SqlRows *r, int row, int col)
{
    const char *t = sql_text(r, row, col);
    snprintf(out, len, "%s", t ? t : "");
}

const char *sql_int_param(char buf[SQL_NUMBER_MAX], bool present, int64_t value)
{
    if (!present)
        return NULL;
    snprintf(buf, SQL_NUMBER_MAX, "%" PRId64, value);
    return buf;
}

/* %.17g: the text reads back as the same double. */
const char *sql_real_param(char buf[SQL_NUMBER_MAX], double value)
{
    snprintf(buf, SQL_NUMBER_MAX, "%.17g", value);
    return buf;
}
