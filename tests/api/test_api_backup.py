"""Backups while the server runs: `starfish backup` under a load of moves, `starfish restore`
into a new store, and a server on the restored store that has every move acknowledged before
the backup began, each game's moves a prefix of what was acknowledged (a moment's copy: no
move without the moves before it); on SQLite (the online backup API) and on PostgreSQL
(pg_dump).  And the refusals: no store, a store with games without --force, a backup of the
other kind, a file that is no backup.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import os
import random
import subprocess
import tempfile
import threading
import time

import api_harness as h  # tests/api is on the path; the name differs from tests/protocol's harness

PLAYERS = 4          # games played at once, each by a thread that moves for both sides
LOAD_BEFORE_S = 1.0  # moves before the backup starts, and after it ends
MOVE_PAUSE_S = 0.005


def starfish(*args):
    proc = subprocess.run([h.binary()] + list(args), capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout + proc.stderr


class Load:
    """Threads that play random legal moves in friend games (a new game when one ends),
    noting each move the server acknowledged (200) with the time the answer came."""

    def __init__(self, server):
        self.server, self.stop, self.acked, self.errors = server, threading.Event(), [], []
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.play, args=(i,)) for i in range(PLAYERS)]
        for t in self.threads:
            t.start()

    def play(self, seed):
        rnd = random.Random(seed)
        try:
            while not self.stop.is_set():
                created = self.server.create("chess", opponent="friend")
                game, tokens = created["game"], {"white": created["token"], "black": created["invite"]}
                while game["status"] == "ongoing" and game["legal"] and not self.stop.is_set():
                    move = rnd.choice(game["legal"])["uci"]
                    ply = len(game["moves"])
                    game = self.server.move(game["id"], tokens[game["side"]], move)
                    with self.lock:
                        self.acked.append((game["id"], ply, move, time.time()))
                    time.sleep(MOVE_PAUSE_S)
        except Exception as e:  # the test fails on it below
            self.errors.append(repr(e))

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join(timeout=30)
        assert not self.errors, "the load failed: %r" % self.errors[:3]


def backup_under_load(db, backup):
    """Runs the load on a server on db, takes the backup in the middle; returns (the moves
    acknowledged, when the backup began)."""
    server = h.Server(db=db)
    try:
        load = Load(server)
        time.sleep(LOAD_BEFORE_S)
        began = time.time()
        code, out = starfish("backup", "--db", db, "--out", backup)
        assert code == 0, "backup: %s" % out
        time.sleep(LOAD_BEFORE_S)
        load.finish()
        assert server.stop() == 0
    finally:
        server.cleanup()
    return load.acked, began


def check_restored(db, acked, began):
    """A server on the restored store: every move acknowledged before the backup began is
    there, and each game's moves are the first of those acknowledged."""
    by_game = {}
    for game, ply, move, at in sorted(acked, key=lambda a: (a[0], a[1])):
        by_game.setdefault(game, []).append((move, at))
    before = sum(1 for *_, at in acked if at < began)
    assert before > 50 and len(acked) > before, "too little load around the backup: %d moves before, %d in all" % (
        before, len(acked))
    server = h.Server(db=db)
    try:
        found = 0
        for game, moves in by_game.items():
            restored = h.moves_of(server.game(game)) if moves[0][1] < began else None
            if restored is None:
                continue
            assert restored == [m for m, _ in moves[:len(restored)]], "game %s: not a prefix of its moves" % game
            needed = sum(1 for _, at in moves if at < began)
            assert len(restored) >= needed, "game %s: %d moves acknowledged before the backup, %d restored" % (
                game, needed, len(restored))
            found += len(restored)
        assert found >= before
    finally:
        server.cleanup()


@h.sqlite_only
def test_sqlite_backup_under_load_restores_every_acknowledged_move():
    folder = tempfile.mkdtemp(prefix="starfish-backup-")
    db, backup, restored = (os.path.join(folder, n) for n in ("games.db", "games.backup", "restored.db"))
    acked, began = backup_under_load(db, backup)
    assert not os.path.exists(backup + ".tmp")
    code, out = starfish("restore", "--from", backup, "--db", restored)
    assert code == 0 and "games" in out, out
    check_restored(restored, acked, began)


@h.postgresql_only
def test_postgresql_backup_under_load_restores_every_acknowledged_move():
    folder = tempfile.mkdtemp(prefix="starfish-backup-")
    db, backup, restored = h.postgres().new_database(), os.path.join(folder, "games.backup"), h.postgres().new_database()
    acked, began = backup_under_load(db, backup)
    code, out = starfish("restore", "--from", backup, "--db", restored)
    assert code == 0, out
    check_restored(restored, acked, began)


@h.sqlite_only
def test_backup_and_restore_refusals():
    folder = tempfile.mkdtemp(prefix="starfish-backup-")
    db, backup = os.path.join(folder, "games.db"), os.path.join(folder, "b-%Y.backup")
    code, out = starfish("backup", "--db", os.path.join(folder, "none.db"), "--out", backup)
    assert code == 1 and "starfish: backup:" in out and not os.listdir(folder), (code, out, os.listdir(folder))
    server = h.Server(db=db)
    server.create("chess", opponent="friend")
    server.cleanup()
    code, out = starfish("backup", "--db", db, "--out", backup)
    named = os.path.join(folder, time.strftime("b-%Y.backup"))
    assert code == 0 and os.path.exists(named), (code, out)
    code, out = starfish("restore", "--from", named, "--db", db)
    assert code == 1 and "holds 1 games: --force" in out, (code, out)
    code, out = starfish("restore", "--from", named, "--db", db, "--force")
    assert code == 0, out
    code, out = starfish("restore", "--from", named, "--db", "postgresql://nobody@127.0.0.1:1/none")
    assert code == 1 and "SQLite backup goes into an SQLite file" in out, (code, out)
    code, out = starfish("restore", "--from", os.path.join(h.REPO_ROOT, "README.md"), "--db", db)
    assert code == 1 and "not a backup" in out, (code, out)
    code, out = starfish("backup", "--db", db)
    assert code == 2 and "--out" in out, (code, out)
