/*
 * Accounts in the store, on any backend (sql.h): users, sessions, tokens, the login throttle,
 * ratings, and the reads of profiles and leaderboards.
 */
#include "store_accounts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/types.h"
#include "store_schema.h"

#define DAY_MS (24LL * 3600 * 1000)

/* Copies a text cell into a fixed buffer of the struct. */
#define COPY(field, r, row, col) sql_copy(field, sizeof field, r, row, col)

/* ---- Users ---------------------------------------------------------------------------------- */

void store_read_user(const SqlRows *r, int row, void *out)
{
    UserRow *u = out;
    memset(u, 0, sizeof *u);
    COPY(u->id, r, row, 0);
    COPY(u->username, r, row, 1);
    COPY(u->password, r, row, 2);
    u->created_ms = sql_int(r, row, 3);
    u->closed_ms = sql_int(r, row, 4);
    u->bot = (BotKind)sql_int(r, row, 5);
    u->online_ms = sql_int(r, row, 6);
}

StoreResult store_user_insert(Store *s, const UserRow *u)
{
    char created[SQL_NUMBER_MAX];
    const char *params[] = {u->id, u->username, u->password, sql_int_param(created, true, u->created_ms)};
    long changes = 0;
    StoreResult result = store_change(
        s, "INSERT INTO users (id, username, password, created_ms) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING",
        4, params, &changes);
    return result == STORE_OK && changes != 1 ? STORE_CONFLICT : result;
}

int store_user_get(Store *s, const char *id, UserRow *u)
{
    StoreQuery q = {"SELECT " USER_COLUMNS " FROM users WHERE id = $1", 1, &id, {0}};
    if (!store_query(s, &q))
        return -1;
    int found = q.rows.rows > 0;
    if (found)
        store_read_user(&q.rows, 0, u);
    sql_free(&q.rows);
    return found;
}

bool store_user_list(Store *s, UserRow **rows, int *n)
{
    StoreQuery q = {"SELECT " USER_COLUMNS " FROM users ORDER BY created_ms, id", 0, NULL, {0}};
    return store_read_rows(s, &q, rows, n, sizeof **rows, store_read_user);
}

typedef struct Account {
    const char *id, *hash, *keep;
    int64_t now;
} Account;

/* Runs an UPDATE of the account's row: STORE_CONFLICT when it changes none (no such open
 * account). */
static StoreResult update_account(Sql *sql, const char *text, int n, const char *const *params)
{
    SqlRows r = {0};
    StoreResult result = store_result(sql->run(sql, text, n, params, &r));
    sql_free(&r);
    return result == STORE_OK && r.changes != 1 ? STORE_CONFLICT : result;
}

static StoreResult work_set_password(Sql *sql, void *ctx)
{
    const Account *a = ctx;
    const char *params[] = {a->id, a->hash}, *keep[] = {a->id, a->keep};
    StoreResult result =
        update_account(sql, "UPDATE users SET password = $2 WHERE id = $1 AND closed_ms IS NULL", 2, params);
    if (result == STORE_OK && a->keep)
        result = store_result(sql_exec(sql, "DELETE FROM sessions WHERE user_id = $1 AND id <> $2", 2, keep));
    return result;
}

StoreResult store_user_set_password(Store *s, const char *id, const char *hash, const char *keep)
{
    return s->ops->transact(s, true, work_set_password, &(Account){.id = id, .hash = hash, .keep = keep});
}

static StoreResult work_close(Sql *sql, void *ctx)
{
    const Account *a = ctx;
    char now[SQL_NUMBER_MAX];
    const char *params[] = {a->id, sql_int_param(now, true, a->now)};
    StoreResult result =
        update_account(sql, "UPDATE users SET closed_ms = $2 WHERE id = $1 AND closed_ms IS NULL", 2, params);
    if (result == STORE_OK)
        result = store_result(sql_exec(sql, "DELETE FROM sessions WHERE user_id = $1", 1, params));
    if (result == STORE_OK)
        result = store_result(sql_exec(sql, "DELETE FROM api_tokens WHERE user_id = $1", 1, params));
    return result;
}

StoreResult store_user_close(Store *s, const char *id, int64_t now)
{
    return s->ops->transact(s, true, work_close, &(Account){.id = id, .now = now});
}

/* ---- Sessions and tokens -------------------------------------------------------------------- */

StoreResult store_session_insert(Store *s, const char *digest, const char *user_id, int64_t now)
{
    char at[SQL_NUMBER_MAX];
    const char *params[] = {digest, user_id, sql_int_param(at, true, now)};
    return store_change(s, "INSERT INTO sessions (id, user_id, created_ms, used_ms) VALUES ($1, $2, $3, $3)", 3, params,
                        NULL);
}

/* The account holding a session or token (open accounts only): 1 found, 0 not, -1 error. */
static int holder(Store *s, const char *text, const char *digest, Holder *h)
{
    StoreQuery q = {text, 1, &digest, {0}};
    if (!store_query(s, &q))
        return -1;
    int found = q.rows.rows > 0;
    if (found) {
        COPY(h->user_id, &q.rows, 0, 0);
        COPY(h->username, &q.rows, 0, 1);
        h->used_ms = sql_int(&q.rows, 0, 2);
        h->bot = (BotKind)sql_int(&q.rows, 0, 3);
    }
    sql_free(&q.rows);
    return found;
}

int store_session_get(Store *s, const char *digest, Holder *h)
{
    return holder(s,
                  "SELECT u.id, u.username, x.used_ms, u.bot FROM sessions x JOIN users u ON u.id = x.user_id "
                  "WHERE x.id = $1 AND u.closed_ms IS NULL",
                  digest, h);
}

int store_token_get(Store *s, const char *digest, Holder *h)
{
    return holder(s,
                  "SELECT u.id, u.username, x.used_ms, u.bot FROM api_tokens x JOIN users u ON u.id = x.user_id "
                  "WHERE x.secret = $1 AND u.closed_ms IS NULL",
                  digest, h);
}

StoreResult store_session_touch(Store *s, const char *digest, int64_t now)
{
    char at[SQL_NUMBER_MAX];
    const char *params[] = {digest, sql_int_param(at, true, now)};
    return store_change(s, "UPDATE sessions SET used_ms = $2 WHERE id = $1", 2, params, NULL);
}

StoreResult store_token_touch(Store *s, const char *digest, int64_t now)
{
    char at[SQL_NUMBER_MAX];
    const char *params[] = {digest, sql_int_param(at, true, now)};
    return store_change(s, "UPDATE api_tokens SET used_ms = $2 WHERE secret = $1", 2, params, NULL);
}

StoreResult store_session_delete(Store *s, const char *digest)
{
    long changes = 0;
    StoreResult result = store_change(s, "DELETE FROM sessions WHERE id = $1", 1, &digest, &changes);
    return result == STORE_OK && changes == 0 ? STORE_CONFLICT : result;
}

StoreResult store_sessions_expire(Store *s, int64_t before)
{
    char at[SQL_NUMBER_MAX];
    const char *param = sql_int_param(at, true, before);
    return store_change(s, "DELETE FROM sessions WHERE used_ms < $1", 1, &param, NULL);
}

StoreResult store_token_insert(Store *s, const char *id, const char *digest, const char *user_id,
                               const char *description, int64_t now)
{
    char at[SQL_NUMBER_MAX];
    const char *params[] = {id, digest, user_id, description, sql_int_param(at, true, now)};
    StoreResult result = store_change(
        s, "INSERT INTO api_tokens (id, secret, user_id, description, created_ms) VALUES ($1, $2, $3, $4, $5)", 5,
        params, NULL);
    return result;
}

static void read_token(const SqlRows *r, int row, void *out)
{
    TokenRow *t = out;
    COPY(t->id, r, row, 0);
    COPY(t->description, r, row, 1);
    t->created_ms = sql_int(r, row, 2);
    t->used_ms = sql_int(r, row, 3);
}

bool store_tokens_of(Store *s, const char *user_id, TokenRow **rows, int *n)
{
    StoreQuery q = {"SELECT id, description, created_ms, used_ms FROM api_tokens WHERE user_id = $1 "
                    "ORDER BY created_ms DESC, id",
                    1, &user_id, {0}};
    return store_read_rows(s, &q, rows, n, sizeof **rows, read_token);
}

StoreResult store_token_delete(Store *s, const char *user_id, const char *id)
{
    const char *params[] = {user_id, id};
    long changes = 0;
    StoreResult result = store_change(s, "DELETE FROM api_tokens WHERE user_id = $1 AND id = $2", 2, params, &changes);
    return result == STORE_OK && changes == 0 ? STORE_CONFLICT : result;
}

/* ---- The login throttle --------------------------------------------------------------------- */

StoreResult store_login_failed(Store *s, const char *user_id, const char *address, int64_t now)
{
    char at[SQL_NUMBER_MAX];
    const char *params[] = {user_id, address, sql_int_param(at, true, now)};
    return store_change(s, "INSERT INTO login_failures (user_id, address, at_ms) VALUES ($1, $2, $3)", 3, params,
                        NULL);
}

StoreResult store_login_forget(Store *s, int64_t before)
{
    char at[SQL_NUMBER_MAX];
    const char *param = sql_int_param(at, true, before);
    return store_change(s, "DELETE FROM login_failures WHERE at_ms < $1", 1, &param, NULL);
}

int64_t store_nth_failure(Store *s, bool by_address, const char *value, int limit, int64_t since)
{
    char since_text[SQL_NUMBER_MAX], limit_text[SQL_NUMBER_MAX];
    const char *params[] = {value, sql_int_param(since_text, true, since), sql_int_param(limit_text, true, limit)};
    StoreQuery q = {by_address ? "SELECT at_ms FROM login_failures WHERE address = $1 AND at_ms >= $2 "
                                 "ORDER BY at_ms DESC LIMIT $3"
                               : "SELECT at_ms FROM login_failures WHERE user_id = $1 AND at_ms >= $2 "
                                 "ORDER BY at_ms DESC LIMIT $3",
                    3, params, {0}};
    if (!store_query(s, &q))
        return -1;
    int64_t at = q.rows.rows == limit ? sql_int(&q.rows, limit - 1, 0) : 0;
    sql_free(&q.rows);
    return at;
}

/* ---- Ratings -------------------------------------------------------------------------------- */

Glicko perf_now(const PerfRow *p, int64_t now)
{
    int days = p->games && now > p->rated_ms ? (int)((now - p->rated_ms) / DAY_MS) : 0;
    return glicko_idle(p->glicko, days);
}

static void read_perf(const SqlRows *r, int row, int col, PerfRow *p)
{
    memset(p, 0, sizeof *p);
    COPY(p->variant, r, row, col);
    p->glicko = (Glicko){sql_real(r, row, col + 1), sql_real(r, row, col + 2), sql_real(r, row, col + 3)};
    p->games = (int)sql_int(r, row, col + 4);
    p->rated_ms = sql_int(r, row, col + 5);
}

#define PERF_COLUMNS "variant, rating, rd, volatility, games, rated_ms"

static void read_perf_row(const SqlRows *r, int row, void *out)
{
    read_perf(r, row, 0, out);
}

bool store_perfs(Store *s, const char *user_id, PerfRow **rows, int *n)
{
    StoreQuery q = {"SELECT " PERF_COLUMNS " FROM perfs WHERE user_id = $1 AND games > 0 ORDER BY variant", 1, &user_id,
                    {0}};
    return store_read_rows(s, &q, rows, n, sizeof **rows, read_perf_row);
}

static void read_top(const SqlRows *r, int row, void *out)
{
    TopRow *t = out;
    COPY(t->user_id, r, row, 0);
    COPY(t->username, r, row, 1);
    read_perf(r, row, 2, &t->perf);
}

bool store_top(Store *s, const char *variant, double max_rd, TopRow **rows, int *n)
{
    char rd[SQL_NUMBER_MAX];
    const char *params[] = {variant, sql_real_param(rd, max_rd)};
    StoreQuery q = {"SELECT u.id, u.username, p.variant, p.rating, p.rd, p.volatility, p.games, p.rated_ms "
                    "FROM perfs p JOIN users u ON u.id = p.user_id "
                    "WHERE p.variant = $1 AND p.rd <= $2 AND p.games > 0 AND u.closed_ms IS NULL "
                    "ORDER BY p.rating DESC, u.id",
                    2, params, {0}};
    return store_read_rows(s, &q, rows, n, sizeof **rows, read_top);
}

/* An account's rating in the variant, its row locked for the rest of the transaction (made
 * first, at the start values, where it has none: so that a second game of a new player waits
 * for the first). */
static StoreResult lock_perf(Sql *sql, const char *user_id, const char *variant, PerfRow *p)
{
    char rating[SQL_NUMBER_MAX], rd[SQL_NUMBER_MAX], volatility[SQL_NUMBER_MAX];
    Glicko start = glicko_start();
    const char *params[] = {user_id, variant, sql_real_param(rating, start.rating), sql_real_param(rd, start.rd),
                            sql_real_param(volatility, start.volatility)};
    StoreResult result = store_result(sql_exec(
        sql,
        "INSERT INTO perfs (user_id, variant, rating, rd, volatility, games, rated_ms) VALUES ($1, $2, $3, $4, $5, 0, 0) "
        "ON CONFLICT (user_id, variant) DO NOTHING",
        5, params));
    char text[200];
    snprintf(text, sizeof text, "SELECT " PERF_COLUMNS " FROM perfs WHERE user_id = $1 AND variant = $2%s",
             sql->lock_rows);
    SqlRows r = {0};
    if (result == STORE_OK && (result = store_result(sql->run(sql, text, 2, params, &r))) == STORE_OK) {
        if (r.rows == 1)
            read_perf(&r, 0, 0, p);
        else
            result = STORE_FAILED;
    }
    sql_free(&r);
    return result;
}

static StoreResult save_perf(Sql *sql, const char *user_id, const PerfRow *p)
{
    char rating[SQL_NUMBER_MAX], rd[SQL_NUMBER_MAX], volatility[SQL_NUMBER_MAX], games[SQL_NUMBER_MAX],
        at[SQL_NUMBER_MAX];
    const char *params[] = {user_id,
                            p->variant,
                            sql_real_param(rating, p->glicko.rating),
                            sql_real_param(rd, p->glicko.rd),
                            sql_real_param(volatility, p->glicko.volatility),
                            sql_int_param(games, true, p->games),
                            sql_int_param(at, true, p->rated_ms)};
    return store_result(sql_exec(sql,
                                 "UPDATE perfs SET rating = $3, rd = $4, volatility = $5, games = $6, rated_ms = $7 "
                                 "WHERE user_id = $1 AND variant = $2",
                                 7, params));
}

/* The seats' ratings before the game, provisional or not, and the change, on the game's row. */
static StoreResult save_seats(Sql *sql, const char *game_id, const SeatRow *seat)
{
    char rating[2][SQL_NUMBER_MAX], diff[2][SQL_NUMBER_MAX];
    const char *params[] = {game_id,
                            sql_int_param(rating[WHITE], true, seat[WHITE].rating),
                            seat[WHITE].prov ? "1" : "0",
                            sql_int_param(diff[WHITE], true, seat[WHITE].diff),
                            sql_int_param(rating[BLACK], true, seat[BLACK].rating),
                            seat[BLACK].prov ? "1" : "0",
                            sql_int_param(diff[BLACK], true, seat[BLACK].diff)};
    return store_result(sql_exec(sql,
                                 "UPDATE games SET white_rating = $2, white_prov = $3, white_diff = $4, "
                                 "black_rating = $5, black_prov = $6, black_diff = $7 WHERE id = $1",
                                 7, params));
}

StoreResult store_rate_game(Sql *sql, const char *game_id, RatedEnd *r)
{
    /* The rows are locked in the order of the accounts' ids, so that two games between the same
     * players ending at once on two instances cannot deadlock. */
    int first = strcmp(r->seat[WHITE].user, r->seat[BLACK].user) <= 0 ? WHITE : BLACK;
    PerfRow perf[2];
    StoreResult result = STORE_OK;
    for (int i = 0; i < 2 && result == STORE_OK; i++) {
        int side = i ? first ^ 1 : first;
        result = lock_perf(sql, r->seat[side].user, r->variant, &perf[side]);
    }
    if (result != STORE_OK)
        return result;
    Glicko before[2] = {perf_now(&perf[WHITE], r->at_ms), perf_now(&perf[BLACK], r->at_ms)};
    double scores[2] = {r->score, 1 - r->score};
    for (int side = 0; side < 2; side++) {
        Glicko after = glicko_update(before[side], &before[side ^ 1], &scores[side], 1);
        SeatRow *seat = &r->seat[side];
        seat->rating = (int)lround(before[side].rating);
        seat->prov = glicko_provisional(before[side]);
        seat->diff = (int)lround(after.rating) - seat->rating;
        seat->has_diff = true;
        perf[side].glicko = after;
        perf[side].games++;
        perf[side].rated_ms = r->at_ms;
    }
    for (int side = 0; side < 2 && result == STORE_OK; side++)
        result = save_perf(sql, r->seat[side].user, &perf[side]);
    return result == STORE_OK ? save_seats(sql, game_id, r->seat) : result;
}

/* ---- Profiles ------------------------------------------------------------------------------- */

bool store_user_counts(Store *s, const char *user_id, UserCounts *c)
{
    memset(c, 0, sizeof *c);
    StoreQuery q = {"SELECT count(*), coalesce(sum(rated), 0), "
                    "coalesce(sum(CASE WHEN (white_user = $1 AND result = '1-0') OR (black_user = $1 AND result = '0-1') "
                    "THEN 1 ELSE 0 END), 0), "
                    "coalesce(sum(CASE WHEN (white_user = $1 AND result = '0-1') OR (black_user = $1 AND result = '1-0') "
                    "THEN 1 ELSE 0 END), 0), "
                    "coalesce(sum(CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END), 0) "
                    "FROM games WHERE (white_user = $1 OR black_user = $1) AND result <> 'aborted'",
                    1, &user_id, {0}};
    StoreQuery playing = {"SELECT id FROM games WHERE (white_user = $1 OR black_user = $1) AND result = '*' "
                          "ORDER BY created_ms DESC, id LIMIT 1",
                          1, &user_id, {0}};
    bool ok = store_query(s, &q) && q.rows.rows == 1 && store_query(s, &playing);
    if (ok) {
        c->all = (int)sql_int(&q.rows, 0, 0);
        c->rated = (int)sql_int(&q.rows, 0, 1);
        c->win = (int)sql_int(&q.rows, 0, 2);
        c->loss = (int)sql_int(&q.rows, 0, 3);
        c->draw = (int)sql_int(&q.rows, 0, 4);
        if (playing.rows.rows == 1)
            COPY(c->playing, &playing.rows, 0, 0);
    }
    sql_free(&q.rows);
    sql_free(&playing.rows);
    return ok;
}

static void read_point(const SqlRows *r, int row, void *out)
{
    RatingPoint *p = out;
    COPY(p->variant, r, row, 0);
    p->at_ms = sql_int(r, row, 1);
    p->rating = (int)sql_int(r, row, 2);
}

bool store_rating_points(Store *s, const char *user_id, RatingPoint **rows, int *n)
{
    StoreQuery q = {"SELECT variant, ended_ms, CASE WHEN white_user = $1 THEN white_rating + white_diff "
                    "ELSE black_rating + black_diff END FROM games "
                    "WHERE (white_user = $1 OR black_user = $1) AND rated = 1 AND white_diff IS NOT NULL "
                    "ORDER BY ended_ms, id",
                    1, &user_id, {0}};
    return store_read_rows(s, &q, rows, n, sizeof **rows, read_point);
}
