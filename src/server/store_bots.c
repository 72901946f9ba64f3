#include "store_bots.h"

#include <stdio.h>
#include <string.h>

StoreResult store_user_make_bot(Store *s, const char *id)
{
    long changes = 0;
    StoreResult result = store_change(s,
                                      "UPDATE users SET bot = 1 WHERE id = $1 AND bot = 0 AND closed_ms IS NULL "
                                      "AND NOT EXISTS (SELECT 1 FROM games WHERE white_user = $1 OR black_user = $1)",
                                      1, &id, &changes);
    return result == STORE_OK && changes != 1 ? STORE_CONFLICT : result;
}

StoreResult store_house_bot(Store *s, UserRow *u)
{
    char created[SQL_NUMBER_MAX];
    const char *params[] = {u->id, u->username, u->password, sql_int_param(created, true, u->created_ms)};
    StoreResult result = store_change(s,
                                      "INSERT INTO users (id, username, password, created_ms, bot) "
                                      "VALUES ($1, $2, $3, $4, 2) ON CONFLICT (id) DO NOTHING",
                                      4, params, NULL);
    if (result != STORE_OK)
        return result;
    int found = store_user_get(s, u->id, u);
    return found > 0 ? STORE_OK : STORE_FAILED;
}

typedef struct Online {
    const char *const *ids;
    int n;
    int64_t now;
} Online;

static StoreResult work_online(Sql *sql, void *ctx)
{
    const Online *o = ctx;
    char now[SQL_NUMBER_MAX];
    sql_int_param(now, true, o->now);
    StoreResult result = STORE_OK;
    for (int i = 0; i < o->n && result == STORE_OK; i++) {
        const char *params[] = {o->ids[i], now};
        result = store_result(sql_exec(sql, "UPDATE users SET online_ms = $2 WHERE id = $1", 2, params));
    }
    return result;
}

StoreResult store_users_online(Store *s, const char *const *ids, int n, int64_t now)
{
    return n == 0 ? STORE_OK : s->ops->transact(s, true, work_online, &(Online){ids, n, now});
}

bool store_bots_online(Store *s, int64_t since, int limit, UserRow **rows, int *n)
{
    char after[SQL_NUMBER_MAX], most[SQL_NUMBER_MAX];
    const char *params[] = {sql_int_param(after, true, since), sql_int_param(most, true, limit)};
    StoreQuery q = {"SELECT " USER_COLUMNS " FROM users WHERE closed_ms IS NULL "
                    "AND (bot = 2 OR (bot = 1 AND online_ms >= $1)) ORDER BY bot DESC, id LIMIT $2",
                    2, params, {0}};
    return store_read_rows(s, &q, rows, n, sizeof **rows, store_read_user);
}
