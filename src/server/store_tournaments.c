#include "store_tournaments.h"

#include <string.h>

#define COPY(field, r, row, col) sql_copy(field, sizeof field, r, row, col)

/* A tournament's columns, in the order read_tournament reads them, and how many joined. */
#define TOURNAMENT_COLUMNS                                                                                             \
    "t.id, t.name, t.system, t.variant, t.clock_limit_s, t.clock_increment_s, t.minutes, t.rated, t.berserkable, "   \
    "t.bots_allowed, t.min_rating, t.max_rating, t.min_rated_games, t.description, t.created_by, t.schedule, "       \
    "t.created_ms, t.starts_ms, t.finishes_ms, t.status, t.round, "                                                  \
    "(SELECT count(*) FROM tournament_players p WHERE p.tournament_id = t.id)"

static void read_tournament(const SqlRows *r, int row, void *out)
{
    TournamentRow *t = out;
    memset(t, 0, sizeof *t);
    COPY(t->id, r, row, 0);
    COPY(t->name, r, row, 1);
    COPY(t->system, r, row, 2);
    COPY(t->variant, r, row, 3);
    t->limit_s = (int)sql_int(r, row, 4);
    t->increment_s = (int)sql_int(r, row, 5);
    t->minutes = (int)sql_int(r, row, 6);
    t->rated = sql_int(r, row, 7) != 0;
    t->berserkable = sql_int(r, row, 8) != 0;
    t->bots_allowed = sql_int(r, row, 9) != 0;
    t->min_rating = (int)sql_int(r, row, 10);
    t->max_rating = (int)sql_int(r, row, 11);
    t->min_rated_games = (int)sql_int(r, row, 12);
    COPY(t->description, r, row, 13);
    COPY(t->created_by, r, row, 14);
    COPY(t->schedule, r, row, 15);
    t->created_ms = sql_int(r, row, 16);
    t->starts_ms = sql_int(r, row, 17);
    t->finishes_ms = sql_int(r, row, 18);
    COPY(t->status, r, row, 19);
    t->round = (int)sql_int(r, row, 20);
    t->players = (int)sql_int(r, row, 21);
}

typedef struct NewTournament {
    const TournamentRow *t;
    const char *const *players;
    int n;
} NewTournament;

static StoreResult work_insert(Sql *sql, void *ctx)
{
    const NewTournament *w = ctx;
    const TournamentRow *t = w->t;
    char limit[SQL_NUMBER_MAX], inc[SQL_NUMBER_MAX], minutes[SQL_NUMBER_MAX], lo[SQL_NUMBER_MAX], hi[SQL_NUMBER_MAX],
        games[SQL_NUMBER_MAX], created[SQL_NUMBER_MAX], starts[SQL_NUMBER_MAX], finishes[SQL_NUMBER_MAX];
    const char *params[] = {t->id,
                            t->name,
                            t->system,
                            t->variant,
                            sql_int_param(limit, true, t->limit_s),
                            sql_int_param(inc, true, t->increment_s),
                            sql_int_param(minutes, t->minutes > 0, t->minutes),
                            t->rated ? "1" : "0",
                            t->berserkable ? "1" : "0",
                            t->bots_allowed ? "1" : "0",
                            sql_int_param(lo, t->min_rating > 0, t->min_rating),
                            sql_int_param(hi, t->max_rating > 0, t->max_rating),
                            sql_int_param(games, t->min_rated_games > 0, t->min_rated_games),
                            t->description[0] ? t->description : NULL,
                            t->created_by[0] ? t->created_by : NULL,
                            t->schedule[0] ? t->schedule : NULL,
                            sql_int_param(created, true, t->created_ms),
                            sql_int_param(starts, true, t->starts_ms),
                            sql_int_param(finishes, t->finishes_ms > 0, t->finishes_ms),
                            t->status};
    SqlStatus status = sql_exec(sql,
                                "INSERT INTO tournaments (id, name, system, variant, clock_limit_s, clock_increment_s, "
                                "minutes, rated, berserkable, bots_allowed, min_rating, max_rating, min_rated_games, "
                                "description, created_by, schedule, created_ms, starts_ms, finishes_ms, status) VALUES "
                                "($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, "
                                "$20)",
                                20, params);
    for (int i = 0; status == SQL_OK && i < w->n; i++) {
        char seat[SQL_NUMBER_MAX];
        const char *player[] = {t->id, w->players[i], sql_int_param(seat, true, i), created};
        status = sql_exec(sql,
                          "INSERT INTO tournament_players (tournament_id, user_id, seat, joined_ms) "
                          "VALUES ($1, $2, $3, $4)",
                          4, player);
    }
    return status == SQL_DUPLICATE ? STORE_CONFLICT : store_result(status);
}

StoreResult store_tournament_insert(Store *s, const TournamentRow *t, const char *const *players, int n)
{
    return s->ops->transact(s, true, work_insert, &(NewTournament){t, players, n});
}

int store_tournament_get(Store *s, const char *id, TournamentRow *t)
{
    StoreQuery q = {"SELECT " TOURNAMENT_COLUMNS " FROM tournaments t WHERE t.id = $1", 1, &id, {0}};
    if (!store_query(s, &q))
        return -1;
    int found = q.rows.rows > 0;
    if (found)
        read_tournament(&q.rows, 0, t);
    sql_free(&q.rows);
    return found;
}

bool store_tournaments_list(Store *s, const char *status, int limit, TournamentRow **rows, int *n)
{
    char most[SQL_NUMBER_MAX];
    const char *params[] = {status, sql_int_param(most, true, limit)};
    bool finished = strcmp(status, "finished") == 0;
    StoreQuery q = {finished ? "SELECT " TOURNAMENT_COLUMNS " FROM tournaments t WHERE t.status = $1 "
                               "ORDER BY t.finishes_ms DESC, t.id LIMIT $2"
                             : "SELECT " TOURNAMENT_COLUMNS " FROM tournaments t WHERE t.status = $1 "
                               "ORDER BY t.starts_ms, t.id LIMIT $2",
                    2, params, {0}};
    return store_read_rows(s, &q, rows, n, sizeof **rows, read_tournament);
}

static void read_entrant(const SqlRows *r, int row, void *out)
{
    EntrantRow *e = out;
    memset(e, 0, sizeof *e);
    COPY(e->user, r, row, 0);
    COPY(e->name, r, row, 1);
    e->bot = (BotKind)sql_int(r, row, 2);
    e->seat = (int)sql_int(r, row, 3);
    e->joined_ms = sql_int(r, row, 4);
    e->withdrawn = sql_int(r, row, 5) != 0;
    e->online_ms = sql_int(r, row, 6);
    e->rating = (int)(sql_real(r, row, 7) + 0.5);
    e->rated_games = (int)sql_int(r, row, 8);
}

bool store_tournament_entrants(Store *s, const char *id, EntrantRow **rows, int *n)
{
    StoreQuery q = {"SELECT p.user_id, u.username, u.bot, p.seat, p.joined_ms, p.withdrawn, u.online_ms, "
                    "COALESCE(f.rating, 1500), COALESCE(f.games, 0) "
                    "FROM tournament_players p JOIN users u ON u.id = p.user_id "
                    "LEFT JOIN perfs f ON f.user_id = p.user_id "
                    "AND f.variant = (SELECT variant FROM tournaments WHERE id = $1) "
                    "WHERE p.tournament_id = $1 ORDER BY p.seat, p.joined_ms, p.user_id",
                    1, &id, {0}};
    return store_read_rows(s, &q, rows, n, sizeof **rows, read_entrant);
}

static void read_tour_game(const SqlRows *r, int row, void *out)
{
    TourGameRow *g = out;
    memset(g, 0, sizeof *g);
    COPY(g->id, r, row, 0);
    COPY(g->user[0], r, row, 1);
    COPY(g->user[1], r, row, 2);
    COPY(g->result, r, row, 3);
    g->plies = (int)sql_int(r, row, 4);
    g->berserk[0] = sql_int(r, row, 5) != 0;
    g->berserk[1] = sql_int(r, row, 6) != 0;
    g->rating[0] = (int)sql_int(r, row, 7);
    g->rating[1] = (int)sql_int(r, row, 8);
    g->created_ms = sql_int(r, row, 9);
    g->ended_ms = sql_int(r, row, 10);
}

bool store_tournament_games(Store *s, const char *id, TourGameRow **rows, int *n)
{
    StoreQuery q = {"SELECT g.id, g.white_user, g.black_user, g.result, "
                    "(SELECT count(*) FROM moves m WHERE m.game_id = g.id), g.white_berserk, g.black_berserk, "
                    "g.white_rating, g.black_rating, g.created_ms, g.ended_ms FROM games g WHERE g.tournament_id = $1 "
                    "ORDER BY CASE WHEN g.result = '*' THEN 1 ELSE 0 END, g.ended_ms, g.created_ms, g.id",
                    1, &id, {0}};
    return store_read_rows(s, &q, rows, n, sizeof **rows, read_tour_game);
}

StoreResult store_tournament_join(Store *s, const char *id, const char *user, int64_t now)
{
    char at[SQL_NUMBER_MAX];
    const char *params[] = {id, user, sql_int_param(at, true, now)};
    return store_change(s,
                        "INSERT INTO tournament_players (tournament_id, user_id, seat, joined_ms) VALUES ($1, $2, "
                        "(SELECT count(*) FROM tournament_players WHERE tournament_id = $1), $3) "
                        "ON CONFLICT (tournament_id, user_id) DO UPDATE SET withdrawn = 0",
                        3, params, NULL);
}

StoreResult store_tournament_withdraw(Store *s, const char *id, const char *user)
{
    const char *params[] = {id, user};
    long changes = 0;
    StoreResult result = store_change(
        s, "UPDATE tournament_players SET withdrawn = 1 WHERE tournament_id = $1 AND user_id = $2", 2, params, &changes);
    return result == STORE_OK && changes != 1 ? STORE_CONFLICT : result;
}

StoreResult store_tournament_advance(Store *s, const char *id, const char *from, int round, const char *to,
                                     int next_round, int64_t finishes_ms)
{
    char was[SQL_NUMBER_MAX], next[SQL_NUMBER_MAX], end[SQL_NUMBER_MAX];
    const char *params[] = {id, from, sql_int_param(was, true, round), to, sql_int_param(next, true, next_round),
                            sql_int_param(end, finishes_ms > 0, finishes_ms)};
    long changes = 0;
    StoreResult result = store_change(s,
                                      "UPDATE tournaments SET status = $4, round = $5, "
                                      "finishes_ms = COALESCE($6, finishes_ms) "
                                      "WHERE id = $1 AND status = $2 AND round = $3",
                                      6, params, &changes);
    return result == STORE_OK && changes != 1 ? STORE_CONFLICT : result;
}

int store_lease(Store *s, const char *name, const char *holder, int64_t now, int64_t until)
{
    char at[SQL_NUMBER_MAX], end[SQL_NUMBER_MAX];
    const char *params[] = {name, holder, sql_int_param(at, true, now), sql_int_param(end, true, until)};
    long changes = 0;
    StoreResult result = store_change(s,
                                      "INSERT INTO leases (name, holder, until_ms) VALUES ($1, $2, $4) "
                                      "ON CONFLICT (name) DO UPDATE SET holder = $2, until_ms = $4 "
                                      "WHERE leases.holder = $2 OR leases.until_ms < $3",
                                      4, params, &changes);
    return result != STORE_OK ? -1 : changes == 1;
}
