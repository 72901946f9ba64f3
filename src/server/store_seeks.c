#include "store_seeks.h"

#include <string.h>

#define COPY(field, r, row, col) sql_copy(field, sizeof field, r, row, col)

/* A seek's columns, in the order read_seek reads them (the seeker's name from its account). */
#define SEEK_COLUMNS                                                                                                   \
    "k.id, k.user_id, u.username, k.variant, k.rated, k.clock_limit_s, k.clock_increment_s, k.days, k.color, "       \
    "k.rating, k.rating_min, k.rating_max, k.created_ms, k.alive_ms"
/* The same, of the row a DELETE ... RETURNING took out (the name read after). */
#define TAKEN_COLUMNS                                                                                                  \
    "id, user_id, user_id, variant, rated, clock_limit_s, clock_increment_s, days, color, rating, rating_min, "      \
    "rating_max, created_ms, alive_ms"
/* Alive: correspondence, or renewed since $2 (the second parameter of the queries that take). */
#define ALIVE "(alive_ms IS NULL OR alive_ms >= $2)"

static void read_seek(const SqlRows *r, int row, void *out)
{
    SeekRow *k = out;
    memset(k, 0, sizeof *k);
    COPY(k->id, r, row, 0);
    COPY(k->user, r, row, 1);
    COPY(k->username, r, row, 2);
    COPY(k->variant, r, row, 3);
    k->rated = sql_int(r, row, 4) != 0;
    k->has_clock = !sql_null(r, row, 5);
    k->limit_s = (int)sql_int(r, row, 5);
    k->increment_s = (int)sql_int(r, row, 6);
    k->days = (int)sql_int(r, row, 7);
    COPY(k->color, r, row, 8);
    k->rating = (int)sql_int(r, row, 9);
    k->rating_min = (int)sql_int(r, row, 10);
    k->rating_max = (int)sql_int(r, row, 11);
    k->created_ms = sql_int(r, row, 12);
    k->alive_ms = sql_int(r, row, 13);
}

StoreResult store_seek_insert(Store *s, const SeekRow *k)
{
    char limit[SQL_NUMBER_MAX], inc[SQL_NUMBER_MAX], days[SQL_NUMBER_MAX], rating[SQL_NUMBER_MAX],
        lo[SQL_NUMBER_MAX], hi[SQL_NUMBER_MAX], created[SQL_NUMBER_MAX], alive[SQL_NUMBER_MAX];
    const char *params[] = {k->id,
                            k->user,
                            k->variant,
                            k->rated ? "1" : "0",
                            sql_int_param(limit, k->has_clock, k->limit_s),
                            sql_int_param(inc, k->has_clock, k->increment_s),
                            sql_int_param(days, k->days > 0, k->days),
                            k->color,
                            sql_int_param(rating, true, k->rating),
                            sql_int_param(lo, k->rating_min > 0, k->rating_min),
                            sql_int_param(hi, k->rating_max > 0, k->rating_max),
                            sql_int_param(created, true, k->created_ms),
                            sql_int_param(alive, k->alive_ms > 0, k->alive_ms)};
    return store_change(s,
                        "INSERT INTO seeks (id, user_id, variant, rated, clock_limit_s, clock_increment_s, days, color, "
                        "rating, rating_min, rating_max, created_ms, alive_ms) "
                        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
                        13, params, NULL);
}

/* Runs a DELETE ... RETURNING of one seek (one statement, committed alone): 1 (in *taken,
 * its seeker's name read), 0 or -1. */
static int take(Store *s, const char *text, int n, const char *const *params, SeekRow *taken)
{
    StoreQuery q = {text, n, params, {0}};
    if (!store_query(s, &q))
        return -1;
    int found = q.rows.rows > 0;
    if (found)
        read_seek(&q.rows, 0, taken);
    sql_free(&q.rows);
    if (!found)
        return 0;
    const char *user = taken->user;
    StoreQuery name = {"SELECT username FROM users WHERE id = $1", 1, &user, {0}};
    if (store_query(s, &name) && name.rows.rows == 1)
        COPY(taken->username, &name.rows, 0, 0);
    sql_free(&name.rows);
    return 1;
}

int store_seek_take_match(Store *s, const SeekRow *k, int64_t alive_since, SeekRow *match)
{
    char since[SQL_NUMBER_MAX], limit[SQL_NUMBER_MAX], inc[SQL_NUMBER_MAX], days[SQL_NUMBER_MAX],
        rating[SQL_NUMBER_MAX], lo[SQL_NUMBER_MAX], hi[SQL_NUMBER_MAX];
    const char *params[] = {k->user,
                            sql_int_param(since, true, alive_since),
                            k->variant,
                            k->rated ? "1" : "0",
                            sql_int_param(limit, k->has_clock, k->limit_s),
                            sql_int_param(inc, k->has_clock, k->increment_s),
                            sql_int_param(days, k->days > 0, k->days),
                            k->color,
                            sql_int_param(rating, true, k->rating),
                            sql_int_param(lo, true, k->rating_min > 0 ? k->rating_min : 0),
                            sql_int_param(hi, true, k->rating_max > 0 ? k->rating_max : 1000000)};
    return take(s,
                "DELETE FROM seeks WHERE id = (SELECT id FROM seeks WHERE user_id <> $1 AND " ALIVE " AND variant = $3 "
                "AND rated = $4 AND clock_limit_s IS NOT DISTINCT FROM $5 AND clock_increment_s IS NOT DISTINCT FROM $6 "
                "AND days IS NOT DISTINCT FROM $7 AND (color = 'random' OR $8 = 'random' OR color <> $8) "
                "AND (rating_min IS NULL OR rating_min <= $9) AND (rating_max IS NULL OR rating_max >= $9) "
                "AND rating >= $10 AND rating <= $11 ORDER BY created_ms, id LIMIT 1) RETURNING " TAKEN_COLUMNS,
                11, params, match);
}

int store_seek_take(Store *s, const char *id, const char *not_user, int64_t alive_since, SeekRow *match)
{
    char since[SQL_NUMBER_MAX];
    const char *params[] = {id, sql_int_param(since, true, alive_since), not_user};
    return take(s, "DELETE FROM seeks WHERE id = $1 AND " ALIVE " AND user_id <> $3 RETURNING " TAKEN_COLUMNS, 3,
                params, match);
}

int store_seek_remove(Store *s, const char *id, const char *user_id)
{
    const char *params[] = {id, user_id};
    long changes = 0;
    StoreResult result = store_change(s, "DELETE FROM seeks WHERE id = $1 AND user_id = $2", 2, params, &changes);
    return result != STORE_OK ? -1 : changes > 0;
}

StoreResult store_seek_touch(Store *s, const char *id, int64_t now)
{
    char at[SQL_NUMBER_MAX];
    const char *params[] = {id, sql_int_param(at, true, now)};
    return store_change(s, "UPDATE seeks SET alive_ms = $2 WHERE id = $1", 2, params, NULL);
}

StoreResult store_seeks_expire(Store *s, int64_t before, long *expired)
{
    char at[SQL_NUMBER_MAX];
    const char *param = sql_int_param(at, true, before);
    return store_change(s, "DELETE FROM seeks WHERE alive_ms IS NOT NULL AND alive_ms < $1", 1, &param, expired);
}

bool store_seek_waits(Store *s, const char *id)
{
    StoreQuery q = {"SELECT 1 FROM seeks WHERE id = $1", 1, &id, {0}};
    bool waits = !store_query(s, &q) || q.rows.rows > 0;
    sql_free(&q.rows);
    return waits;
}

bool store_seeks(Store *s, int64_t alive_since, SeekRow **rows, int *n)
{
    char since[SQL_NUMBER_MAX];
    const char *param = sql_int_param(since, true, alive_since);
    StoreQuery q = {"SELECT " SEEK_COLUMNS " FROM seeks k JOIN users u ON u.id = k.user_id "
                    "WHERE k.alive_ms IS NULL OR k.alive_ms >= $1 ORDER BY k.created_ms, k.id",
                    1, &param, {0}};
    return store_read_rows(s, &q, rows, n, sizeof **rows, read_seek);
}
