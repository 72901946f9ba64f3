"""The PostgreSQL store itself (run in the suite's PostgreSQL pass only): the schema built by
the shared migrations and its version recorded; databases the server cannot use refused with
exit status 1, a message naming the problem and the database left as it was; a server that
cannot connect says so.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""

import api_harness as h  # tests/api is on the path; the name differs from tests/protocol's harness


def tables(pg, db):
    """The database's tables and their columns."""
    return pg.sql("SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' "
                  "ORDER BY 1, 2", db)


@h.postgresql_only
def test_new_database_gets_the_schema():
    s = h.Server()
    pg = h.postgres()
    assert pg.sql("SELECT version FROM schema_version", s.db).split() == ["7"]
    tables = pg.sql("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'", s.db).split()
    assert sorted(tables) == ["api_tokens", "challenges", "game_presence", "games", "leases", "login_failures", "moves",
                              "perfs", "schema_version", "seeks", "sessions", "tournament_players", "tournaments",
                              "users"], tables
    created = s.create("chess", opponent="friend")
    s.move(created["game"]["id"], created["token"], "e2e4")
    assert pg.sql("SELECT ply, move FROM moves", s.db).split() == ["0|e2e4"]
    s.cleanup()


@h.postgresql_only
def test_databases_that_cannot_be_used():
    pg = h.postgres()
    newer = pg.new_database()
    pg.sql("CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (99)", newer)
    other = pg.new_database()
    pg.sql("CREATE TABLE invoices (id INTEGER PRIMARY KEY)", other)
    for db, expect in ((newer, "schema version 99, newer"), (other, "not a starfish database")):
        before = tables(pg, db)
        status, output = h.start_once(db)
        assert status == 1, "%s: exit status %d: %s" % (db, status, output)
        assert output.startswith("starfish: ") and expect in output and db in output, output
        assert tables(pg, db) == before, "%s was changed" % db
    assert pg.sql("SELECT version FROM schema_version", newer).split() == ["99"]


@h.postgresql_only
def test_no_database_server():
    status, output = h.start_once("postgresql://postgres@127.0.0.1:%d/starfish" % h.free_port())
    assert status == 1 and output.startswith("starfish: cannot connect to the database: "), (status, output)
    assert output.count("\n") == 1, "one line: %r" % output
