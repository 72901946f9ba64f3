#include "store_presence.h"

#include "sql.h"

typedef struct Marks {
    const PresenceMark *marks;
    int n;
} Marks;

static StoreResult work_note(Sql *sql, void *ctx)
{
    const Marks *m = ctx;
    StoreResult result = STORE_OK;
    for (int i = 0; i < m->n && result == STORE_OK; i++) {
        char side[SQL_NUMBER_MAX], seen[SQL_NUMBER_MAX];
        const char *params[] = {m->marks[i].game_id, sql_int_param(side, true, m->marks[i].side),
                                sql_int_param(seen, true, m->marks[i].seen_ms)};
        result = store_result(sql_exec(sql,
                                       "INSERT INTO game_presence (game_id, side, seen_ms) VALUES ($1, $2, $3) "
                                       "ON CONFLICT (game_id, side) DO UPDATE SET seen_ms = $3",
                                       3, params));
    }
    return result;
}

StoreResult store_presence_note(Store *s, const PresenceMark *marks, int n)
{
    return n == 0 ? STORE_OK : s->ops->transact(s, true, work_note, &(Marks){marks, n});
}

bool store_presence_read(Store *s, const char *game_id, int64_t seen_ms[2])
{
    seen_ms[0] = seen_ms[1] = -1;
    StoreQuery q = {"SELECT side, seen_ms FROM game_presence WHERE game_id = $1", 1, &game_id, {0}};
    if (!store_query(s, &q))
        return false;
    for (int row = 0; row < q.rows.rows; row++) {
        int64_t side = sql_int(&q.rows, row, 0);
        if (side == 0 || side == 1)
            seen_ms[side] = sql_int(&q.rows, row, 1);
    }
    sql_free(&q.rows);
    return true;
}
