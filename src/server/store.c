/* What the store's files share: reads and changes of one statement on any backend. */
#include "store.h"

#include <stdlib.h>

#include "store_schema.h"

StoreResult store_result(SqlStatus status)
{
    return status == SQL_OK ? STORE_OK : STORE_FAILED;
}

static StoreResult work_query(Sql *sql, void *ctx)
{
    StoreQuery *q = ctx;
    return store_result(sql->run(sql, q->text, q->n, q->params, &q->rows));
}

bool store_query(Store *s, StoreQuery *q)
{
    return s->ops->transact(s, false, work_query, q) == STORE_OK;
}

typedef struct OneChange {
    const char *text;
    int n;
    const char *const *params;
    long changes;
} OneChange;

static StoreResult work_change(Sql *sql, void *ctx)
{
    OneChange *c = ctx;
    SqlRows r = {0};
    StoreResult result = store_result(sql->run(sql, c->text, c->n, c->params, &r));
    c->changes = r.changes;
    sql_free(&r);
    return result;
}

StoreResult store_change(Store *s, const char *text, int n, const char *const *params, long *changes)
{
    OneChange c = {text, n, params, 0};
    StoreResult result = s->ops->transact(s, true, work_change, &c);
    if (changes)
        *changes = c.changes;
    return result;
}

bool store_read_rows(Store *s, StoreQuery *q, void *rows, int *n, size_t size,
                     void (*read)(const SqlRows *r, int row, void *out))
{
    void **array = rows;
    *array = NULL;
    *n = 0;
    if (!store_query(s, q))
        return false;
    int cap = 0;
    bool ok = true;
    for (int i = 0; ok && i < q->rows.rows; i++)
        if ((ok = schema_grow_array(array, &cap, *n, size)))
            read(&q->rows, i, (char *)*array + size * (size_t)(*n)++);
    sql_free(&q->rows);
    if (!ok) {
        free(*array);
        *array = NULL;
        *n = 0;
    }
    return ok;
}
