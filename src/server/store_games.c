/*
 * Games and moves in the store, on any backend (sql.h): the queries, written once, and the
 * rule that decides between concurrent changes.  Every change to a game is a transaction that
 * first takes the game's row (UPDATE ... WHERE result = '*'), then checks its number of
 * moves, so that of two processes changing one game the second waits for the first and then
 * finds the game changed (STORE_CONFLICT); it ends by telling the other processes
 * (sql_notify), which PostgreSQL delivers at commit.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/types.h"
#include "store.h"
#include "store_accounts.h"
#include "store_schema.h"

/* The columns of a game's row, in the order read_game_row reads them, then its seats' (each
 * account's name read from the account: SEATS_FROM joins them). */
#define SEAT_COLUMNS                                                                                                   \
    "g.rated, g.white_user, wu.username, wu.closed_ms, g.white_rating, g.white_prov, g.white_diff, wu.bot, "          \
    "g.black_user, bu.username, bu.closed_ms, g.black_rating, g.black_prov, g.black_diff, bu.bot"
#define SEAT_NCOLUMNS 15
#define SEATS_FROM "games g LEFT JOIN users wu ON wu.id = g.white_user LEFT JOIN users bu ON bu.id = g.black_user"
#define GAME_COLUMNS                                                                                                   \
    "g.id, g.variant, g.start_fen, g.white_token, g.black_token, g.white, g.black, g.skill, g.base_ms, g.inc_ms, "    \
    "g.result, g.reason, g.draw_offer, g.created_ms, g.ended_ms, g.takeback_offer, g.rematch_offer, g.rematch_id, "   \
    "g.white_joined, g.black_joined, g.days_per_turn, g.tournament_id, g.white_berserk, g.black_berserk, "         \
    SEAT_COLUMNS
#define GAME_NCOLUMNS (24 + SEAT_NCOLUMNS)

static bool is_engine(const SqlRows *r, int row, int col)
{
    const char *text = sql_text(r, row, col);
    return text && strcmp(text, "engine") == 0;
}

/* The rated flag and the seats, from column `col` on (SEAT_COLUMNS). */
static void read_seats(const SqlRows *r, int row, int col, bool *rated, SeatRow seat[2])
{
    *rated = sql_int(r, row, col++) != 0;
    for (int side = 0; side < 2; side++, col += 7) {
        SeatRow *s = &seat[side];
        memset(s, 0, sizeof *s);
        sql_copy(s->user, sizeof s->user, r, row, col);
        sql_copy(s->name, sizeof s->name, r, row, col + 1);
        s->closed = !sql_null(r, row, col + 2);
        s->rating = (int)sql_int(r, row, col + 3);
        s->prov = sql_int(r, row, col + 4) != 0;
        s->has_diff = !sql_null(r, row, col + 5);
        s->diff = (int)sql_int(r, row, col + 5);
        s->bot = (BotKind)sql_int(r, row, col + 6);
    }
}

static void read_game_row(const SqlRows *r, int row, GameRow *g)
{
    memset(g, 0, sizeof *g);
    sql_copy(g->id, sizeof g->id, r, row, 0);
    sql_copy(g->variant, sizeof g->variant, r, row, 1);
    sql_copy(g->start_fen, sizeof g->start_fen, r, row, 2);
    sql_copy(g->token[WHITE], sizeof g->token[WHITE], r, row, 3);
    sql_copy(g->token[BLACK], sizeof g->token[BLACK], r, row, 4);
    g->engine[WHITE] = is_engine(r, row, 5);
    g->engine[BLACK] = is_engine(r, row, 6);
    g->skill = sql_null(r, row, 7) ? -1 : (int)sql_int(r, row, 7);
    g->has_clock = !sql_null(r, row, 8);
    g->base_ms = sql_int(r, row, 8);
    g->inc_ms = sql_int(r, row, 9);
    sql_copy(g->result, sizeof g->result, r, row, 10);
    sql_copy(g->reason, sizeof g->reason, r, row, 11);
    g->draw_offer = schema_side_of(sql_text(r, row, 12));
    g->created_ms = sql_int(r, row, 13);
    g->ended_ms = sql_int(r, row, 14);
    g->takeback_offer = schema_side_of(sql_text(r, row, 15));
    g->rematch_offer = schema_side_of(sql_text(r, row, 16));
    sql_copy(g->rematch_id, sizeof g->rematch_id, r, row, 17);
    g->joined[WHITE] = sql_int(r, row, 18) != 0;
    g->joined[BLACK] = sql_int(r, row, 19) != 0;
    g->days = (int)sql_int(r, row, 20);
    sql_copy(g->tournament, sizeof g->tournament, r, row, 21);
    g->berserk[WHITE] = sql_int(r, row, 22) != 0;
    g->berserk[BLACK] = sql_int(r, row, 23) != 0;
    read_seats(r, row, 24, &g->rated, g->seat);
}

/* A seat's columns as parameters: the account (NULL for none), its rating and prov (NULL
 * without an account) and the change (NULL before a rated end). */
typedef struct SeatParams {
    char rating[SQL_NUMBER_MAX], diff[SQL_NUMBER_MAX];
    const char *user, *rating_p, *prov, *diff_p;
} SeatParams;

static void seat_params(const SeatRow *s, SeatParams *p)
{
    bool seated = s->user[0] != 0;
    p->user = seated ? s->user : NULL;
    p->rating_p = sql_int_param(p->rating, seated, s->rating);
    p->prov = seated ? (s->prov ? "1" : "0") : NULL;
    p->diff_p = sql_int_param(p->diff, seated && s->has_diff, s->diff);
}

/* ---- Changes ------------------------------------------------------------------------------ */

static SqlStatus insert_move(Sql *sql, const char *id, int ply, const MoveRow *m)
{
    char ply_text[SQL_NUMBER_MAX], clock[SQL_NUMBER_MAX], at[SQL_NUMBER_MAX];
    const char *params[] = {id, sql_int_param(ply_text, true, ply), m->move,
                            sql_int_param(clock, m->clock_ms >= 0, m->clock_ms), sql_int_param(at, true, m->at_ms)};
    return sql_exec(sql, "INSERT INTO moves (game_id, ply, move, clock_ms, at_ms) VALUES ($1, $2, $3, $4, $5)", 5,
                    params);
}

/* Runs an UPDATE of one game's row: STORE_CONFLICT when its condition leaves no row. */
static StoreResult update_one(Sql *sql, const char *text, int n, const char *const *params)
{
    SqlRows r = {0};
    SqlStatus status = sql->run(sql, text, n, params, &r);
    sql_free(&r);
    return status != SQL_OK ? STORE_FAILED : r.changes == 1 ? STORE_OK : STORE_CONFLICT;
}

/* Takes the row of a game still going, or finished with the result that the state keeps
 * (waiting for another process's change to it to end), and sets its state, then checks that
 * it has `plies` moves.  A berserk is never undone: a state without one the row has was read
 * before another process's berserk (which adds no move to count), and is refused. */
static StoreResult take_game(Sql *sql, const char *id, int plies, const GameState *s)
{
    char ended[SQL_NUMBER_MAX];
    SeatParams w, b;
    seat_params(&s->seat[WHITE], &w);
    seat_params(&s->seat[BLACK], &b);
    const char *params[] = {id,
                            s->result,
                            s->reason,
                            sql_int_param(ended, s->ended_ms > 0, s->ended_ms),
                            schema_side_text(s->draw_offer),
                            schema_side_text(s->takeback_offer),
                            schema_side_text(s->rematch_offer),
                            s->joined[WHITE] ? "1" : "0",
                            s->joined[BLACK] ? "1" : "0",
                            w.user, w.rating_p, w.prov, w.diff_p,
                            b.user, b.rating_p, b.prov, b.diff_p,
                            s->berserk[WHITE] ? "1" : "0",
                            s->berserk[BLACK] ? "1" : "0"};
    StoreResult result =
        update_one(sql,
                   "UPDATE games SET result = $2, reason = $3, ended_ms = $4, draw_offer = $5, takeback_offer = $6, "
                   "rematch_offer = $7, white_joined = $8, black_joined = $9, white_user = $10, white_rating = $11, "
                   "white_prov = $12, white_diff = $13, black_user = $14, black_rating = $15, black_prov = $16, "
                   "black_diff = $17, white_berserk = $18, black_berserk = $19 "
                   "WHERE id = $1 AND (result = '*' OR (result = $2 AND ended_ms IS NOT DISTINCT FROM $4)) "
                   "AND (white_user IS NULL OR white_user IS NOT DISTINCT FROM $10) "
                   "AND (black_user IS NULL OR black_user IS NOT DISTINCT FROM $14) "
                   "AND white_berserk <= $18 AND black_berserk <= $19",
                   19, params);
    if (result != STORE_OK)
        return result;
    /* A statement of its own, so that it sees the moves committed while it waited for the row. */
    SqlRows r = {0};
    if (sql->run(sql, "SELECT count(*) FROM moves WHERE game_id = $1", 1, params, &r) != SQL_OK || r.rows != 1)
        result = STORE_FAILED;
    else
        result = sql_int(&r, 0, 0) == plies ? STORE_OK : STORE_CONFLICT;
    sql_free(&r);
    if (result == STORE_OK && s->rate)
        result = store_rate_game(sql, id, s->rate);
    return result;
}

/* Ends a change of game id: the other processes are told (at commit). */
static StoreResult told(Sql *sql, const char *id, StoreResult result)
{
    return result == STORE_OK && !sql_notify(sql, id) ? STORE_FAILED : result;
}

typedef struct Change {
    const char *id;
    int plies, from;
    const MoveRow *move;
    const GameState *state;
} Change;

static StoreResult work_move(Sql *sql, void *ctx)
{
    const Change *c = ctx;
    StoreResult result = take_game(sql, c->id, c->plies, c->state);
    if (result == STORE_OK) {
        SqlStatus status = insert_move(sql, c->id, c->plies, c->move);
        result = status == SQL_DUPLICATE ? STORE_CONFLICT : store_result(status);
    }
    return told(sql, c->id, result);
}

static StoreResult work_state(Sql *sql, void *ctx)
{
    const Change *c = ctx;
    return told(sql, c->id, take_game(sql, c->id, c->plies, c->state));
}

static StoreResult work_take_back(Sql *sql, void *ctx)
{
    const Change *c = ctx;
    char from[SQL_NUMBER_MAX];
    const char *params[] = {c->id, sql_int_param(from, true, c->from)};
    StoreResult result = take_game(sql, c->id, c->plies, c->state);
    if (result == STORE_OK)
        result = store_result(sql_exec(sql, "DELETE FROM moves WHERE game_id = $1 AND ply >= $2", 2, params));
    return told(sql, c->id, result);
}

StoreResult store_append_move(Store *s, const char *id, int ply, const MoveRow *m, const GameState *st)
{
    return s->ops->transact(s, true, work_move, &(Change){.id = id, .plies = ply, .move = m, .state = st});
}

StoreResult store_set_state(Store *s, const char *id, int plies, const GameState *st)
{
    return s->ops->transact(s, true, work_state, &(Change){.id = id, .plies = plies, .state = st});
}

StoreResult store_take_back(Store *s, const char *id, int plies, int from, const GameState *st)
{
    return s->ops->transact(s, true, work_take_back, &(Change){.id = id, .plies = plies, .from = from, .state = st});
}

static SqlStatus insert_game_row(Sql *sql, const GameRow *g)
{
    char skill[SQL_NUMBER_MAX], base[SQL_NUMBER_MAX], inc[SQL_NUMBER_MAX], created[SQL_NUMBER_MAX],
        ended[SQL_NUMBER_MAX], days[SQL_NUMBER_MAX];
    SeatParams w, b;
    seat_params(&g->seat[WHITE], &w);
    seat_params(&g->seat[BLACK], &b);
    const char *params[] = {g->id,
                            g->variant,
                            g->start_fen,
                            g->token[WHITE],
                            g->token[BLACK],
                            g->engine[WHITE] ? "engine" : "human",
                            g->engine[BLACK] ? "engine" : "human",
                            sql_int_param(skill, g->skill >= 0, g->skill),
                            sql_int_param(base, g->has_clock, g->base_ms),
                            sql_int_param(inc, g->has_clock, g->inc_ms),
                            g->result,
                            g->reason[0] ? g->reason : NULL,
                            schema_side_text(g->draw_offer),
                            sql_int_param(created, true, g->created_ms),
                            sql_int_param(ended, g->ended_ms > 0, g->ended_ms),
                            g->joined[WHITE] ? "1" : "0",
                            g->joined[BLACK] ? "1" : "0",
                            g->rated ? "1" : "0",
                            w.user, w.rating_p, w.prov,
                            b.user, b.rating_p, b.prov,
                            sql_int_param(days, g->days > 0, g->days),
                            g->tournament[0] ? g->tournament : NULL};
    return sql_exec(sql,
                    "INSERT INTO games (id, variant, start_fen, white_token, black_token, white, black, skill, base_ms, "
                    "inc_ms, result, reason, draw_offer, created_ms, ended_ms, white_joined, black_joined, rated, "
                    "white_user, white_rating, white_prov, black_user, black_rating, black_prov, days_per_turn, "
                    "tournament_id) "
                    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, "
                    "$21, $22, $23, $24, $25, $26)",
                    26, params);
}

/* Makes `id` the rematch of game `of` (told to the other processes), unless it has one. */
static StoreResult set_rematch(Sql *sql, const char *of, const char *id)
{
    const char *params[] = {of, id};
    StoreResult result = update_one(
        sql, "UPDATE games SET rematch_id = $2, rematch_offer = NULL WHERE id = $1 AND rematch_id IS NULL", 2, params);
    return told(sql, of, result);
}

typedef struct NewGame {
    const GameRow *g;
    const MoveRow *moves;
    int n;
    const char *rematch_of;
    bool from_challenge;
} NewGame;

/* The open challenge with the game's id, accepted: STORE_CONFLICT when it is no longer open. */
static StoreResult accept_challenge(Sql *sql, const char *id)
{
    return update_one(sql, "UPDATE challenges SET status = 'accepted' WHERE id = $1 AND status = 'created'", 1, &id);
}

static StoreResult work_insert(Sql *sql, void *ctx)
{
    const NewGame *w = ctx;
    SqlStatus status = insert_game_row(sql, w->g);
    for (int i = 0; status == SQL_OK && i < w->n; i++)
        status = insert_move(sql, w->g->id, i, &w->moves[i]);
    StoreResult result = store_result(status);
    if (result == STORE_OK && w->rematch_of)
        result = set_rematch(sql, w->rematch_of, w->g->id);
    if (result == STORE_OK && w->from_challenge)
        result = accept_challenge(sql, w->g->id);
    return told(sql, w->g->id, result);
}

StoreResult store_insert_game(Store *s, const GameRow *g, const MoveRow *moves, int n, const char *rematch_of,
                              bool from_challenge)
{
    return s->ops->transact(s, true, work_insert, &(NewGame){g, moves, n, rematch_of, from_challenge});
}

/* ---- Reading ------------------------------------------------------------------------------ */

bool store_id_taken(Store *s, const char *id)
{
    StoreQuery q = {"SELECT 1 FROM games WHERE id = $1", 1, &id, {0}};
    bool taken = !store_query(s, &q) || q.rows.rows > 0;
    sql_free(&q.rows);
    return taken;
}

/* The game and its moves in one statement, so in one snapshot: a row per move (one with NULL
 * moves for a game without any). */
int store_load(Store *s, const char *id, GameRow *g, MoveRow **moves, int *n)
{
    *moves = NULL;
    *n = 0;
    StoreQuery q = {"SELECT " GAME_COLUMNS ", m.move, m.clock_ms, m.at_ms FROM " SEATS_FROM
               " LEFT JOIN moves m ON m.game_id = g.id WHERE g.id = $1 ORDER BY m.ply",
               1, &id, {0}};
    if (!store_query(s, &q))
        return -1;
    SqlRows *r = &q.rows;
    int found = r->rows > 0;
    if (found)
        read_game_row(r, 0, g);
    if (found && !sql_null(r, 0, GAME_NCOLUMNS)) {
        *moves = calloc((size_t)r->rows, sizeof **moves);
        found = *moves ? 1 : -1;
        for (int i = 0; *moves && i < r->rows; i++) {
            MoveRow *m = &(*moves)[(*n)++];
            sql_copy(m->move, sizeof m->move, r, i, GAME_NCOLUMNS);
            m->clock_ms = sql_null(r, i, GAME_NCOLUMNS + 1) ? -1 : sql_int(r, i, GAME_NCOLUMNS + 1);
            m->at_ms = sql_int(r, i, GAME_NCOLUMNS + 2);
        }
    }
    sql_free(r);
    return found;
}

static void read_id(const SqlRows *r, int row, void *out)
{
    sql_copy(out, sizeof(StoreId), r, row, 0);
}

bool store_load_unfinished(Store *s, StoreId **ids, int *n)
{
    StoreQuery q = {"SELECT id FROM games WHERE result = '*' ORDER BY created_ms", 0, NULL, {0}};
    return store_read_rows(s, &q, ids, n, sizeof **ids, read_id);
}

static void read_list_row(const SqlRows *r, int i, void *out)
{
    ListRow *row = out;
    sql_copy(row->id, sizeof row->id, r, i, 0);
    sql_copy(row->variant, sizeof row->variant, r, i, 1);
    sql_copy(row->result, sizeof row->result, r, i, 2);
    sql_copy(row->reason, sizeof row->reason, r, i, 3);
    row->created_ms = sql_int(r, i, 4);
    row->engine[WHITE] = is_engine(r, i, 5);
    row->engine[BLACK] = is_engine(r, i, 6);
    row->moves = (int)sql_int(r, i, 7);
    read_seats(r, i, 8, &row->rated, row->seat);
}

bool store_list(Store *s, const ListQuery *lq, ListRow **rows, int *n)
{
    char limit[SQL_NUMBER_MAX], until[SQL_NUMBER_MAX];
    const char *params[] = {sql_int_param(limit, true, lq->limit), lq->user ? lq->user : "",
                            sql_int_param(until, true, lq->until_ms ? lq->until_ms : INT64_MAX)};
    StoreQuery q = {"SELECT g.id, g.variant, g.result, g.reason, g.created_ms, g.white, g.black, "
                    "(SELECT count(*) FROM moves m WHERE m.game_id = g.id), " SEAT_COLUMNS
                    " FROM " SEATS_FROM " WHERE ($2 = '' OR g.white_user = $2 OR g.black_user = $2) "
                    "AND g.created_ms < $3 ORDER BY g.created_ms DESC, g.id DESC LIMIT $1",
                    3, params, {0}};
    return store_read_rows(s, &q, rows, n, sizeof **rows, read_list_row);
}

bool store_count_games(Store *s, int64_t *n)
{
    StoreQuery q = {"SELECT count(*) FROM games", 0, NULL, {0}};
    bool counted = store_query(s, &q) && q.rows.rows == 1;
    if (counted)
        *n = sql_int(&q.rows, 0, 0);
    sql_free(&q.rows);
    return counted;
}

bool store_games_playing(Store *s, const char *user_id, StoreId **ids, int *n)
{
    StoreQuery q = {"SELECT id FROM games WHERE (white_user = $1 OR black_user = $1) AND result = '*' "
                    "ORDER BY created_ms, id",
                    1, &user_id, {0}};
    return store_read_rows(s, &q, ids, n, sizeof **ids, read_id);
}

int store_tv_game(Store *s, const char *variant, int64_t since, TvRow *tv)
{
    char after[SQL_NUMBER_MAX];
    const char *params[] = {variant, sql_int_param(after, true, since)};
    StoreQuery q = {"SELECT g.id, " SEAT_COLUMNS " FROM " SEATS_FROM " WHERE g.variant = $1 AND g.result = '*' "
                    "AND g.base_ms IS NOT NULL AND g.days_per_turn IS NULL AND g.created_ms >= $2 "
                    "ORDER BY CASE WHEN COALESCE(g.white_rating, 0) > COALESCE(g.black_rating, 0) "
                    "THEN COALESCE(g.white_rating, 0) ELSE COALESCE(g.black_rating, 0) END DESC, "
                    "g.created_ms DESC, g.id LIMIT 1",
                    2, params, {0}};
    if (!store_query(s, &q))
        return -1;
    int found = q.rows.rows > 0;
    if (found) {
        bool rated;
        SeatRow seat[2];
        sql_copy(tv->id, sizeof tv->id, &q.rows, 0, 0);
        read_seats(&q.rows, 0, 1, &rated, seat);
        tv->side = seat[BLACK].rating > seat[WHITE].rating ? BLACK : WHITE;
        tv->seat = seat[tv->side];
    }
    sql_free(&q.rows);
    return found;
}
