"""The store: its schema checked at start against its version (a `schema_version` table,
migrations), databases the server cannot use refused with a message naming the problem,
exit status 1 and the file untouched; and a full disk or a read-only database while the
server runs: changes fail with 503 and {"error"}, the games in memory stay as stored, and
everything works again when space returns.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import os
import sqlite3
import tempfile

import api_harness as h  # tests/api is on the path; the name differs from tests/protocol's harness

# The schema as the server wrote it before versioning (at 1cfde4f): such a database is version 1.
UNVERSIONED = """
CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT NOT NULL, start_fen TEXT NOT NULL,
  white_token TEXT NOT NULL, black_token TEXT NOT NULL,
  white TEXT NOT NULL CHECK (white IN ('human', 'engine')), black TEXT NOT NULL CHECK (black IN ('human', 'engine')),
  skill INTEGER, base_ms INTEGER, inc_ms INTEGER, result TEXT NOT NULL DEFAULT '*', reason TEXT,
  draw_offer TEXT CHECK (draw_offer IN ('white', 'black')), created_ms INTEGER NOT NULL, ended_ms INTEGER);
CREATE INDEX games_by_created ON games (created_ms DESC);
CREATE INDEX games_by_result ON games (result);
CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games (id), ply INTEGER NOT NULL, move TEXT NOT NULL,
  clock_ms INTEGER, at_ms INTEGER NOT NULL, PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
INSERT INTO games VALUES ('Legacy01', 'chess', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 'human', 'human', NULL, NULL, NULL,
  '*', NULL, NULL, 1700000000000, NULL);
INSERT INTO moves VALUES ('Legacy01', 0, 'e2e4', NULL, 1700000001000);
"""


def make_db(path, script):
    db = sqlite3.connect(path)
    db.executescript(script)
    db.commit()
    db.close()


def refused(path, expect):
    with open(path, "rb") as f:
        before = f.read()
    status, output = h.start_once(path)
    assert status == 1, "%s: exit status %d: %s" % (path, status, output)
    assert output.startswith("starfish: ") and expect in output and path in output, output
    with open(path, "rb") as f:
        assert f.read() == before, "%s was changed" % path


@h.sqlite_only
def test_databases_that_cannot_be_used():
    with tempfile.TemporaryDirectory() as tmp:
        for column in ("draw_offer", "ended_ms", "white_token"):
            path = os.path.join(tmp, "no-%s.db" % column)
            make_db(path, UNVERSIONED + "ALTER TABLE games DROP COLUMN %s;" % column)
            refused(path, "table games has no column %s" % column)
        path = os.path.join(tmp, "no-clock.db")
        make_db(path, UNVERSIONED + "ALTER TABLE moves DROP COLUMN clock_ms;")
        refused(path, "table moves has no column clock_ms")
        path = os.path.join(tmp, "newer.db")
        make_db(path, UNVERSIONED + "CREATE TABLE schema_version (version INTEGER NOT NULL);"
                                    "INSERT INTO schema_version VALUES (99);")
        refused(path, "schema version 99, newer")
        path = os.path.join(tmp, "two-versions.db")
        make_db(path, UNVERSIONED + "CREATE TABLE schema_version (version INTEGER NOT NULL);"
                                    "INSERT INTO schema_version VALUES (1), (1);")
        refused(path, "schema_version has 2 rows")
        path = os.path.join(tmp, "other.db")
        make_db(path, "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine');")
        refused(path, "not a starfish database")
        for name, data in (("text.db", b"these are my notes, not a database\n" * 40),
                           ("png.db", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8)):
            path = os.path.join(tmp, name)
            with open(path, "wb") as f:
                f.write(data)
            refused(path, "is not an SQLite database")


@h.sqlite_only
def test_unversioned_database_is_migrated_and_served():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "old.db")
        make_db(path, UNVERSIONED)
        s = h.Server(db=path)
        try:
            g = s.game("Legacy01", "w" * 32)
            assert h.moves_of(g) == ["e2e4"] and g["you"] == "white", g
            assert len(s.move("Legacy01", "b" * 32, "e7e5")["moves"]) == 2
            assert s.stop() == 0
        finally:
            s.cleanup()
        db = sqlite3.connect(path)
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(7,)]
        assert db.execute("SELECT count(*) FROM moves").fetchone() == (2,)
        db.close()


@h.sqlite_only
def test_new_database_has_the_current_schema():
    s = h.shared()
    db = sqlite3.connect("file:%s?mode=ro" % s.db, uri=True)
    try:
        assert db.execute("SELECT version FROM schema_version").fetchall() == [(7,)]
        columns = {r[1] for r in db.execute("PRAGMA table_info(games)")}
        assert {"draw_offer", "ended_ms", "white_token", "takeback_offer", "rematch_id", "black_joined", "white_user",
                "black_user", "rated", "white_diff"} <= columns, columns
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"users", "sessions", "api_tokens", "perfs", "login_failures", "challenges", "seeks", "tournaments",
                "tournament_players", "leases"} <= tables, tables
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        db.close()


def check_writes_fail_and_recover(kind):
    s = h.Server(env=h.faults_env(kind))
    faults = h.Faults(s)
    try:
        created = s.create("chess", opponent="friend")
        gid, white, black = created["game"]["id"], created["token"], created["invite"]
        s.move(gid, white, "e2e4")
        before = s.game(gid)
        faults.short()
        for method, path, body in (("POST", "/api/games/%s/moves" % gid, {"move": "e7e5", "token": black}),
                                   ("POST", "/api/games/%s/draw" % gid, {"action": "offer", "token": black}),
                                   ("POST", "/api/games/%s/resign" % gid, {"token": black}),
                                   ("POST", "/api/games", {"variant": "chess", "opponent": "friend"})):
            s.error(method, path, body, expect=503)
        after = s.game(gid)
        for key in ("moves", "fen", "status", "draw_offer", "side"):
            assert after[key] == before[key], "%s: %s changed to %r" % (kind, key, after[key])
        assert s.call("GET", "/api/health")["games_in_memory"] == 1
        faults.back()  # space returns: the same requests succeed
        assert len(s.move(gid, black, "e7e5")["moves"]) == 2
        assert s.create("chess", opponent="friend")["game"]["id"]
        shown = s.game(gid)
        s.restart()
        assert h.moves_of(s.game(gid)) == h.moves_of(shown) == ["e2e4", "e7e5"]
        assert s.stop() == 0
    finally:
        s.cleanup()


@h.sqlite_only
def test_full_disk_while_running():
    if "asan" not in h.binary():  # the sanitizer's runtime must be loaded first: no shim there
        check_writes_fail_and_recover("disk-full")


@h.sqlite_only
def test_read_only_database_while_running():
    if "asan" not in h.binary():
        check_writes_fail_and_recover("read-only")
