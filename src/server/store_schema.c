#include "store_schema.h"

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

const Migration schema_migrations[SCHEMA_VERSION] = {
    {1, "games, moves and the schema version", version_1},
};

static const char *const games_columns[] = {"id",        "variant", "start_fen",  "white_token", "black_token",
                                            "white",     "black",   "skill",      "base_ms",     "inc_ms",
                                            "result",    "reason",  "draw_offer", "created_ms",  "ended_ms",
                                            NULL};
static const char *const moves_columns[] = {"game_id", "ply", "move", "clock_ms", "at_ms", NULL};
static const char *const version_columns[] = {"version", NULL};

const TableColumns schema_tables[] = {
    {"games", games_columns},
    {"moves", moves_columns},
    {"schema_version", version_columns},
};
const size_t schema_table_count = sizeof schema_tables / sizeof schema_tables[0];
