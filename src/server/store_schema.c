#include "store_schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/types.h"

static const char *const version_1[] = {
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS games ("
    "  id          TEXT PRIMARY KEY,"
    "  variant     TEXT NOT NULL,"
    "  start_fen   TEXT NOT NULL,"
    "  white_token TEXT NOT NULL,"
    "  black_token TEXT NOT NULL,"
    "  white       TEXT NOT NULL CHECK (white IN ('human', 'engine')),"
    "  black       TEXT NOT NULL CHECK (black IN ('human', 'engine')),"
    "  skill       INTEGER,"          /* NULL without an engine */
    "  base_ms     BIGINT,"           /* NULL without a clock */
    "  inc_ms      BIGINT,"
    "  result      TEXT NOT NULL DEFAULT '*',"
    "  reason      TEXT,"
    "  draw_offer  TEXT CHECK (draw_offer IN ('white', 'black')),"
    "  created_ms  BIGINT NOT NULL,"
    "  ended_ms    BIGINT"
    ")",
    "CREATE INDEX IF NOT EXISTS games_by_created ON games (created_ms DESC)",
    "CREATE INDEX IF NOT EXISTS games_by_result ON games (result)",
    "CREATE TABLE IF NOT EXISTS moves ("
    "  game_id  TEXT NOT NULL REFERENCES games (id),"
    "  ply      INTEGER NOT NULL,"
    "  move     TEXT NOT NULL,"
    "  clock_ms BIGINT,"              /* the mover's time left after it; NULL without a clock */
    "  at_ms    BIGINT NOT NULL,"
    "  PRIMARY KEY (game_id, ply)"
    ")",
    NULL,
};

/* What a game's players have offered each other and whether each has come, stored so that
 * every server process sharing the store knows it. */
static const char *const version_2[] = {
    "ALTER TABLE games ADD COLUMN takeback_offer TEXT CHECK (takeback_offer IN ('white', 'black'))",
    "ALTER TABLE games ADD COLUMN rematch_offer TEXT CHECK (rematch_offer IN ('white', 'black'))",
    "ALTER TABLE games ADD COLUMN rematch_id TEXT",
    "ALTER TABLE games ADD COLUMN white_joined INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN black_joined INTEGER NOT NULL DEFAULT 0",
    NULL,
};

/* Accounts (a user's id is the name in lower case; the name as typed beside it), their
 * sessions and API tokens (kept as their SHA-256, never the secret), their ratings per variant
 * (Glicko-2), failed logins (the throttle), and the games' accounts, rated flag and rating
 * changes. */
static const char *const version_3[] = {
    "CREATE TABLE IF NOT EXISTS users ("
    "  id         TEXT PRIMARY KEY,"
    "  username   TEXT NOT NULL,"
    "  password   TEXT NOT NULL,"    /* Argon2id: $argon2id$v=19$m=...,t=...,p=...$salt$hash */
    "  created_ms BIGINT NOT NULL,"
    "  closed_ms  BIGINT"            /* NULL while the account is open */
    ")",
    "CREATE TABLE IF NOT EXISTS sessions ("
    "  id         TEXT PRIMARY KEY," /* SHA-256 of the session id, hexadecimal */
    "  user_id    TEXT NOT NULL REFERENCES users (id),"
    "  created_ms BIGINT NOT NULL,"
    "  used_ms    BIGINT NOT NULL"
    ")",
    "CREATE INDEX IF NOT EXISTS sessions_by_user ON sessions (user_id)",
    "CREATE TABLE IF NOT EXISTS api_tokens ("
    "  id          TEXT PRIMARY KEY,"
    "  secret      TEXT NOT NULL UNIQUE," /* SHA-256 of the token, hexadecimal */
    "  user_id     TEXT NOT NULL REFERENCES users (id),"
    "  description TEXT NOT NULL,"
    "  created_ms  BIGINT NOT NULL,"
    "  used_ms     BIGINT"
    ")",
    "CREATE INDEX IF NOT EXISTS api_tokens_by_user ON api_tokens (user_id)",
    "CREATE TABLE IF NOT EXISTS perfs ("
    "  user_id    TEXT NOT NULL REFERENCES users (id),"
    "  variant    TEXT NOT NULL,"
    "  rating     DOUBLE PRECISION NOT NULL,"
    "  rd         DOUBLE PRECISION NOT NULL,"
    "  volatility DOUBLE PRECISION NOT NULL,"
    "  games      INTEGER NOT NULL,"
    "  rated_ms   BIGINT NOT NULL," /* the end of the last rated game */
    "  PRIMARY KEY (user_id, variant)"
    ")",
    "CREATE INDEX IF NOT EXISTS perfs_by_variant ON perfs (variant, rating)",
    "CREATE TABLE IF NOT EXISTS login_failures ("
    "  user_id TEXT NOT NULL," /* the name tried, in lower case (an account or not) */
    "  address TEXT NOT NULL,"
    "  at_ms   BIGINT NOT NULL"
    ")",
    "CREATE INDEX IF NOT EXISTS login_failures_by_user ON login_failures (user_id, at_ms)",
    "CREATE INDEX IF NOT EXISTS login_failures_by_address ON login_failures (address, at_ms)",
    "ALTER TABLE games ADD COLUMN white_user TEXT REFERENCES users (id)",
    "ALTER TABLE games ADD COLUMN black_user TEXT REFERENCES users (id)",
    "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0",
    /* Each account's rating (rounded) and whether it was provisional: when the account came to
     * the game, then, at a rated game's end, before it; and the change the game made. */
    "ALTER TABLE games ADD COLUMN white_rating INTEGER",
    "ALTER TABLE games ADD COLUMN black_rating INTEGER",
    "ALTER TABLE games ADD COLUMN white_prov INTEGER",
    "ALTER TABLE games ADD COLUMN black_prov INTEGER",
    "ALTER TABLE games ADD COLUMN white_diff INTEGER",
    "ALTER TABLE games ADD COLUMN black_diff INTEGER",
    "CREATE INDEX IF NOT EXISTS games_by_white_user ON games (white_user, created_ms)",
    "CREATE INDEX IF NOT EXISTS games_by_black_user ON games (black_user, created_ms)",
    NULL,
};

/* Challenges (a challenge's id becomes its game's), correspondence games (days a move), bot
 * accounts. */
static const char *const version_4[] = {
    "CREATE TABLE IF NOT EXISTS challenges ("
    "  id                TEXT PRIMARY KEY,"
    "  challenger        TEXT NOT NULL REFERENCES users (id),"
    "  dest_user         TEXT REFERENCES users (id)," /* NULL: an open challenge */
    "  variant           TEXT NOT NULL,"
    "  rated             INTEGER NOT NULL,"
    "  clock_limit_s     INTEGER,"                   /* NULL: no clock */
    "  clock_increment_s INTEGER,"
    "  days              INTEGER,"                   /* correspondence: days a move */
    "  color             TEXT NOT NULL CHECK (color IN ('white', 'black', 'random')),"
    "  fen               TEXT,"
    "  status            TEXT NOT NULL CHECK (status IN ('created', 'canceled', 'declined', 'accepted')),"
    "  decline_reason    TEXT,"
    "  created_ms        BIGINT NOT NULL"
    ")",
    "CREATE INDEX IF NOT EXISTS challenges_by_dest ON challenges (dest_user, status)",
    "CREATE INDEX IF NOT EXISTS challenges_by_challenger ON challenges (challenger, status)",
    "ALTER TABLE games ADD COLUMN days_per_turn INTEGER",
    "ALTER TABLE users ADD COLUMN bot INTEGER NOT NULL DEFAULT 0",
    NULL,
};

/* Seeks: an account looking for an opponent (a real-time seek lives while its request is open:
 * its instance renews alive_ms; a correspondence seek has none and stays until paired or
 * canceled); accounts online (an event stream open). */
static const char *const version_5[] = {
    "CREATE TABLE IF NOT EXISTS seeks ("
    "  id                TEXT PRIMARY KEY,"
    "  user_id           TEXT NOT NULL REFERENCES users (id),"
    "  variant           TEXT NOT NULL,"
    "  rated             INTEGER NOT NULL,"
    "  clock_limit_s     INTEGER,"
    "  clock_increment_s INTEGER,"
    "  days              INTEGER,"
    "  color             TEXT NOT NULL CHECK (color IN ('white', 'black', 'random')),"
    "  rating            INTEGER NOT NULL," /* the seeker's, in the variant, when it sought */
    "  rating_min        INTEGER,"          /* the opponents it accepts; NULL: any */
    "  rating_max        INTEGER,"
    "  created_ms        BIGINT NOT NULL,"
    "  alive_ms          BIGINT"
    ")",
    "CREATE INDEX IF NOT EXISTS seeks_by_variant ON seeks (variant, created_ms)",
    /* When an event stream of the account was last seen open (renewed by its instance). */
    "ALTER TABLE users ADD COLUMN online_ms BIGINT",
    NULL,
};

/* Tournaments: arenas and round robins, their players, the games' tournament and berserks, and
 * the leases by which one instance at a time does a job (pairing the tournaments). */
static const char *const version_6[] = {
    "CREATE TABLE IF NOT EXISTS tournaments ("
    "  id                TEXT PRIMARY KEY,"
    "  name              TEXT NOT NULL,"
    "  system            TEXT NOT NULL CHECK (system IN ('arena', 'robin')),"
    "  variant           TEXT NOT NULL,"
    "  clock_limit_s     INTEGER NOT NULL,"
    "  clock_increment_s INTEGER NOT NULL,"
    "  minutes           INTEGER,"          /* an arena's length; NULL for a round robin */
    "  rated             INTEGER NOT NULL,"
    "  berserkable       INTEGER NOT NULL,"
    "  min_rating        INTEGER,"          /* entry conditions in the variant; NULL: none */
    "  max_rating        INTEGER,"
    "  min_rated_games   INTEGER,"
    "  bots_allowed      INTEGER NOT NULL,"
    "  description       TEXT,"
    "  created_by        TEXT REFERENCES users (id)," /* NULL: the server's schedule */
    "  schedule          TEXT,"             /* the schedule entry that made it, or NULL */
    "  created_ms        BIGINT NOT NULL,"
    "  starts_ms         BIGINT NOT NULL,"
    "  finishes_ms       BIGINT,"           /* an arena's end; a round robin's once over */
    "  status            TEXT NOT NULL CHECK (status IN ('created', 'started', 'finished')),"
    "  round             INTEGER NOT NULL DEFAULT 0" /* a round robin's round in play (0-based) */
    ")",
    "CREATE INDEX IF NOT EXISTS tournaments_by_status ON tournaments (status, starts_ms)",
    "CREATE UNIQUE INDEX IF NOT EXISTS tournaments_by_schedule ON tournaments (schedule, starts_ms)",
    "CREATE TABLE IF NOT EXISTS tournament_players ("
    "  tournament_id TEXT NOT NULL REFERENCES tournaments (id),"
    "  user_id       TEXT NOT NULL REFERENCES users (id),"
    "  seat          INTEGER NOT NULL," /* a round robin's player number (0-based); the order of joining */
    "  joined_ms     BIGINT NOT NULL,"
    "  withdrawn     INTEGER NOT NULL DEFAULT 0," /* not paired until it joins again */
    "  PRIMARY KEY (tournament_id, user_id)"
    ")",
    "ALTER TABLE games ADD COLUMN tournament_id TEXT REFERENCES tournaments (id)",
    "ALTER TABLE games ADD COLUMN white_berserk INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN black_berserk INTEGER NOT NULL DEFAULT 0",
    "CREATE INDEX IF NOT EXISTS games_by_tournament ON games (tournament_id)",
    "CREATE TABLE IF NOT EXISTS leases ("
    "  name     TEXT PRIMARY KEY," /* the job */
    "  holder   TEXT NOT NULL,"    /* the instance doing it */
    "  until_ms BIGINT NOT NULL"   /* unless renewed by then, another may take it */
    ")",
    NULL,
};

/* When each player of a game was last seen with a stream of the game open (renewed by the
 * instance that holds the stream): who has left a game, on whichever instance. */
static const char *const version_7[] = {
    "CREATE TABLE IF NOT EXISTS game_presence ("
    "  game_id TEXT NOT NULL REFERENCES games (id),"
    "  side    INTEGER NOT NULL CHECK (side IN (0, 1))," /* 0 white, 1 black */
    "  seen_ms BIGINT NOT NULL,"
    "  PRIMARY KEY (game_id, side)"
    ")",
    NULL,
};

const Migration schema_migrations[SCHEMA_VERSION] = {
    {1, "games, moves and the schema version", version_1},
    {2, "takeback and rematch offers, the players' arrival", version_2},
    {3, "accounts, sessions, tokens, ratings; the games' accounts", version_3},
    {4, "challenges, correspondence, bot accounts", version_4},
    {5, "seeks, accounts online", version_5},
    {6, "tournaments, berserks, leases", version_6},
    {7, "players' presence in their games", version_7},
};

static const char *const games_columns[] = {"id",        "variant", "start_fen",  "white_token", "black_token",
                                            "white",     "black",   "skill",      "base_ms",     "inc_ms",
                                            "result",    "reason",  "draw_offer", "created_ms",  "ended_ms",
                                            "takeback_offer", "rematch_offer", "rematch_id", "white_joined",
                                            "black_joined", "white_user", "black_user", "rated", "white_rating",
                                            "black_rating", "white_prov", "black_prov", "white_diff", "black_diff",
                                            "days_per_turn", "tournament_id", "white_berserk", "black_berserk",
                                            NULL};
static const char *const moves_columns[] = {"game_id", "ply", "move", "clock_ms", "at_ms", NULL};
static const char *const version_columns[] = {"version", NULL};
static const char *const users_columns[] = {"id",        "username", "password", "created_ms",
                                            "closed_ms", "bot",      "online_ms", NULL};
static const char *const sessions_columns[] = {"id", "user_id", "created_ms", "used_ms", NULL};
static const char *const tokens_columns[] = {"id", "secret", "user_id", "description", "created_ms", "used_ms", NULL};
static const char *const perfs_columns[] = {"user_id", "variant", "rating", "rd", "volatility", "games", "rated_ms",
                                            NULL};
static const char *const failures_columns[] = {"user_id", "address", "at_ms", NULL};
static const char *const challenges_columns[] = {"id", "challenger", "dest_user", "variant", "rated", "clock_limit_s",
                                                 "clock_increment_s", "days", "color", "fen", "status",
                                                 "decline_reason", "created_ms", NULL};
static const char *const seeks_columns[] = {"id", "user_id", "variant", "rated", "clock_limit_s", "clock_increment_s",
                                            "days", "color", "rating", "rating_min", "rating_max", "created_ms",
                                            "alive_ms", NULL};
static const char *const tournaments_columns[] = {
    "id",         "name",        "system",   "variant",      "clock_limit_s", "clock_increment_s", "minutes",
    "rated",      "berserkable", "min_rating", "max_rating", "min_rated_games", "bots_allowed", "description", "created_by",
    "schedule",   "created_ms",  "starts_ms", "finishes_ms",  "status",        "round",             NULL};
static const char *const tournament_players_columns[] = {"tournament_id", "user_id", "seat", "joined_ms", "withdrawn",
                                                         NULL};
static const char *const leases_columns[] = {"name", "holder", "until_ms", NULL};
static const char *const presence_columns[] = {"game_id", "side", "seen_ms", NULL};

const TableColumns schema_tables[] = {
    {"games", games_columns},       {"moves", moves_columns},   {"schema_version", version_columns},
    {"users", users_columns},       {"sessions", sessions_columns}, {"api_tokens", tokens_columns},
    {"perfs", perfs_columns},       {"login_failures", failures_columns}, {"challenges", challenges_columns},
    {"seeks", seeks_columns},       {"tournaments", tournaments_columns},
    {"tournament_players", tournament_players_columns}, {"leases", leases_columns},
    {"game_presence", presence_columns},
};
const size_t schema_table_count = sizeof schema_tables / sizeof schema_tables[0];

/* Reads the schema version into *version (0: no schema_version table); false with err set
 * when the database cannot be used. */
static bool read_version(const SchemaAccess *a, int *version, char *err, size_t errlen)
{
    int has = 0, rows = 0;
    if (!a->query_int(a->db, a->count_tables_sql, "schema_version", NULL, &has) ||
        (has && !a->query_int(a->db, "SELECT count(*) FROM schema_version", NULL, NULL, &rows))) {
        snprintf(err, errlen, "cannot read %s: %s", a->name, a->error(a->db));
        return false;
    }
    *version = 0;
    if (has && (rows != 1 || !a->query_int(a->db, "SELECT version FROM schema_version", NULL, NULL, version))) {
        snprintf(err, errlen, "%s cannot be used: its table schema_version has %d rows, not 1", a->name, rows);
        return false;
    }
    if (*version > SCHEMA_VERSION) {
        snprintf(err, errlen, "%s has schema version %d, newer than this starfish's (%d): use a newer starfish",
                 a->name, *version, SCHEMA_VERSION);
        return false;
    }
    return true;
}

/* A database without a version is new or from before versioning, or someone else's: then it
 * has tables and no `games`. */
static bool is_foreign(const SchemaAccess *a, char *err, size_t errlen)
{
    int games = 0, others = 0;
    if (!a->query_int(a->db, a->count_tables_sql, "games", NULL, &games) ||
        !a->query_int(a->db, a->count_others_sql, NULL, NULL, &others))
        return false;
    if (games || !others)
        return false;
    snprintf(err, errlen, "%s is not a starfish database: it has tables, and no table games", a->name);
    return true;
}

static bool apply(const SchemaAccess *a, const Migration *m, char *err, size_t errlen)
{
    for (const char *const *sql = m->sql; *sql; sql++)
        if (!a->exec(a->db, *sql)) {
            snprintf(err, errlen, "cannot bring %s to schema version %d (%s): %s", a->name, m->version, m->what,
                     a->error(a->db));
            return false;
        }
    char record[96];
    snprintf(record, sizeof record, "DELETE FROM schema_version; INSERT INTO schema_version VALUES (%d)", m->version);
    if (a->exec(a->db, record))
        return true;
    snprintf(err, errlen, "cannot record schema version %d in %s: %s", m->version, a->name, a->error(a->db));
    return false;
}

/* Every table of the schema has every column it must have. */
static bool check_columns(const SchemaAccess *a, char *err, size_t errlen)
{
    for (size_t t = 0; t < schema_table_count; t++) {
        const TableColumns *tc = &schema_tables[t];
        for (const char *const *col = tc->columns; *col; col++) {
            int found = 0;
            if (!a->query_int(a->db, a->count_columns_sql, tc->table, *col, &found)) {
                snprintf(err, errlen, "cannot read %s: %s", a->name, a->error(a->db));
                return false;
            }
            if (!found) {
                snprintf(err, errlen, "%s cannot be used: table %s has no column %s", a->name, tc->table, *col);
                return false;
            }
        }
    }
    return true;
}

bool schema_migrate(const SchemaAccess *a, char *err, size_t errlen)
{
    int version = 0;
    bool ok = read_version(a, &version, err, errlen) && !(version == 0 && is_foreign(a, err, errlen));
    for (int v = version; ok && v < SCHEMA_VERSION; v++)
        ok = apply(a, &schema_migrations[v], err, errlen);
    return ok && check_columns(a, err, errlen);
}

const char *schema_side_text(int side)
{
    return side == WHITE ? "white" : side == BLACK ? "black" : NULL;
}

int schema_side_of(const char *text)
{
    if (!text)
        return -1;
    return strcmp(text, "white") == 0 ? WHITE : strcmp(text, "black") == 0 ? BLACK : -1;
}

bool schema_grow_array(void *array, int *cap, int n, size_t size)
{
    void **p = array;
    if (n < *cap)
        return true;
    int more = *cap ? *cap * 2 : 64;
    void *grown = realloc(*p, size * (size_t)more);
    if (!grown)
        return false;
    *p = grown;
    *cap = more;
    return true;
}
