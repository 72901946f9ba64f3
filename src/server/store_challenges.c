#include "store_challenges.h"

#include <string.h>

#define COPY(field, r, row, col) sql_copy(field, sizeof field, r, row, col)

/* The columns of a challenge, in the order read_challenge reads them (the accounts' names read
 * from the accounts). */
#define CHALLENGE_COLUMNS                                                                                              \
    "c.id, c.challenger, cu.username, c.dest_user, du.username, c.variant, c.rated, c.clock_limit_s, "               \
    "c.clock_increment_s, c.days, c.color, c.fen, c.status, c.decline_reason, c.created_ms, cu.bot, du.bot"
#define CHALLENGES_FROM "challenges c JOIN users cu ON cu.id = c.challenger LEFT JOIN users du ON du.id = c.dest_user"

static void read_challenge(const SqlRows *r, int row, void *out)
{
    ChallengeRow *c = out;
    memset(c, 0, sizeof *c);
    COPY(c->id, r, row, 0);
    COPY(c->challenger, r, row, 1);
    COPY(c->challenger_name, r, row, 2);
    COPY(c->dest, r, row, 3);
    COPY(c->dest_name, r, row, 4);
    COPY(c->variant, r, row, 5);
    c->rated = sql_int(r, row, 6) != 0;
    c->has_clock = !sql_null(r, row, 7);
    c->limit_s = (int)sql_int(r, row, 7);
    c->increment_s = (int)sql_int(r, row, 8);
    c->days = (int)sql_int(r, row, 9);
    COPY(c->color, r, row, 10);
    COPY(c->fen, r, row, 11);
    COPY(c->status, r, row, 12);
    COPY(c->decline_reason, r, row, 13);
    c->created_ms = sql_int(r, row, 14);
    c->challenger_bot = (BotKind)sql_int(r, row, 15);
    c->dest_bot = (BotKind)sql_int(r, row, 16);
}

StoreResult store_challenge_insert(Store *s, const ChallengeRow *c)
{
    char limit[SQL_NUMBER_MAX], inc[SQL_NUMBER_MAX], days[SQL_NUMBER_MAX], created[SQL_NUMBER_MAX];
    const char *params[] = {c->id,
                            c->challenger,
                            c->dest[0] ? c->dest : NULL,
                            c->variant,
                            c->rated ? "1" : "0",
                            sql_int_param(limit, c->has_clock, c->limit_s),
                            sql_int_param(inc, c->has_clock, c->increment_s),
                            sql_int_param(days, c->days > 0, c->days),
                            c->color,
                            c->fen[0] ? c->fen : NULL,
                            sql_int_param(created, true, c->created_ms)};
    long changes = 0;
    StoreResult result = store_change(
        s,
        "INSERT INTO challenges (id, challenger, dest_user, variant, rated, clock_limit_s, clock_increment_s, days, "
        "color, fen, status, created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'created', $11) "
        "ON CONFLICT (id) DO NOTHING",
        11, params, &changes);
    return result == STORE_OK && changes != 1 ? STORE_CONFLICT : result;
}

bool store_challenge_id_taken(Store *s, const char *id)
{
    StoreQuery q = {"SELECT 1 FROM challenges WHERE id = $1", 1, &id, {0}};
    bool taken = !store_query(s, &q) || q.rows.rows > 0;
    sql_free(&q.rows);
    return taken;
}

int store_challenge_get(Store *s, const char *id, ChallengeRow *c)
{
    StoreQuery q = {"SELECT " CHALLENGE_COLUMNS " FROM " CHALLENGES_FROM " WHERE c.id = $1", 1, &id, {0}};
    if (!store_query(s, &q))
        return -1;
    int found = q.rows.rows > 0;
    if (found)
        read_challenge(&q.rows, 0, c);
    sql_free(&q.rows);
    return found;
}

bool store_challenges_of(Store *s, const char *user_id, ChallengeRow **rows, int *n)
{
    StoreQuery q = {"SELECT " CHALLENGE_COLUMNS " FROM " CHALLENGES_FROM
                    " WHERE (c.challenger = $1 OR c.dest_user = $1) AND c.status = 'created' "
                    "ORDER BY c.created_ms DESC, c.id",
                    1, &user_id, {0}};
    return store_read_rows(s, &q, rows, n, sizeof **rows, read_challenge);
}

StoreResult store_challenge_end(Store *s, const char *id, const char *status, const char *reason)
{
    const char *params[] = {id, status, reason};
    long changes = 0;
    StoreResult result = store_change(
        s, "UPDATE challenges SET status = $2, decline_reason = $3 WHERE id = $1 AND status = 'created'", 3, params,
        &changes);
    return result == STORE_OK && changes != 1 ? STORE_CONFLICT : result;
}
