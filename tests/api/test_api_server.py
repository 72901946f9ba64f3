"""The web server as a process: static files (content types, no path traversal), persistence
(kill -9 mid-game, restart on the same database, nothing acknowledged is lost, engine moves
included), a clean shutdown on SIGINT/SIGTERM with open streams and searches, the command line.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import http.client
import os
import signal
import subprocess
import tempfile
import time

import api_harness as h  # tests/api is on the path; the name differs from tests/protocol's harness


def raw_get(server, path, method="GET"):
    """A request with the path sent exactly as written (urllib would not touch it either, but
    this makes it plain)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        conn.endheaders()
        r = conn.getresponse()
        return r.status, r.getheader("Content-Type", ""), r.read()
    finally:
        conn.close()


def test_static_files():
    base = tempfile.mkdtemp(prefix="starfish-web-")
    web = os.path.join(base, "web")
    os.makedirs(os.path.join(web, "sub"))
    files = {"index.html": b"<!doctype html><title>starfish</title>", "app.js": b"console.log(1);",
             "style.css": b"body{}", "pieces.svg": b"<svg/>", "sub/index.html": b"<p>sub</p>",
             "sub/data.json": b"{}", ".hidden": b"secret", "noext": b"x"}
    for name, data in files.items():
        with open(os.path.join(web, name), "wb") as f:
            f.write(data)
    with open(os.path.join(base, "secret.txt"), "wb") as f:
        f.write(b"outside the web directory")
    os.symlink(os.path.join(base, "secret.txt"), os.path.join(web, "link.txt"))
    s = h.Server(web=web)
    try:
        for path, name, ctype in [("/", "index.html", "text/html"), ("/index.html", "index.html", "text/html"),
                                  ("/app.js", "app.js", "text/javascript"), ("/style.css", "style.css", "text/css"),
                                  ("/pieces.svg", "pieces.svg", "image/svg+xml"),
                                  ("/sub/", "sub/index.html", "text/html"),
                                  ("/sub/data.json", "sub/data.json", "application/json"),
                                  ("/noext", "noext", "application/octet-stream")]:
            status, got_type, body = raw_get(s, path)
            assert status == 200 and body == files[name], (path, status, body)
            assert got_type.startswith(ctype), (path, got_type)
        status, got_type, body = raw_get(s, "/app.js", "HEAD")
        assert status == 200 and body == b"" and got_type.startswith("text/javascript")
        for path in ["/../secret.txt", "/%2e%2e/secret.txt", "/sub/../../secret.txt", "/sub/..%2f..%2fsecret.txt",
                     "/%2E%2E%2Fsecret.txt", "/link.txt", "/.hidden", "/sub/%2e%2e/%2e%2e/secret.txt",
                     "/missing.html", "/sub", "//etc/passwd", "/..\\secret.txt", "/%00index.html"]:
            status, _, body = raw_get(s, path)
            assert status in (400, 404), (path, status, body)
            assert b"outside the web directory" not in body and b"secret" != body, path
        assert s.request("POST", "/index.html", {}).status == 405
        assert s.request("GET", "/api/variants").status == 200
    finally:
        s.cleanup()


def test_kill9_friend_game_and_restart():
    s = h.Server()
    try:
        created = s.create("chess", opponent="friend", clock={"base_ms": 600000, "inc_ms": 5000})
        gid, white, black = created["game"]["id"], created["token"], created["invite"]
        for i, m in enumerate(["e2e4", "c7c5", "g1f3"]):
            s.move(gid, white if i % 2 == 0 else black, m)
        s.call("POST", "/api/games/%s/draw" % gid, {"token": white, "action": "offer"})
        before = s.game(gid)
        done = s.create("starvation", opponent="friend")
        s.move(done["game"]["id"], done["token"], "e2e4")
        s.call("POST", "/api/games/%s/resign" % done["game"]["id"], {"token": done["invite"]})
        s.kill9()
        s.start()
        after = s.game(gid)
        for key in ("moves", "fen", "start_fen", "side", "draw_offer", "status", "players", "player_kinds", "created"):
            assert after[key] == before[key], "%s after the restart: %r, before: %r" % (key, after[key], before[key])
        assert after["clock"]["white_ms"] == before["clock"]["white_ms"], (after["clock"], before["clock"])
        assert 0 < before["clock"]["black_ms"] - after["clock"]["black_ms"] < 60000, "Black's time ran on"
        # The same tokens still work, and the game goes on.
        g = s.move(gid, black, "d7d6")
        assert len(g["moves"]) == 4 and g["draw_offer"] == "white"
        s.error("POST", "/api/games/%s/moves" % gid, {"move": "d2d4", "token": black}, expect=409)
        # The finished game is still there, with its result and record.
        old = s.game(done["game"]["id"])
        assert (old["result"], old["reason"], h.moves_of(old)) == ("1-0", "resignation", ["e2e4"]), old
        assert '[Result "1-0"]' in s.request("GET", "/api/games/%s/pgn" % old["id"]).text
        ids = [x["id"] for x in s.call("GET", "/api/games")]
        assert ids[:2] == [done["game"]["id"], gid], ids
        # Again, right after an acknowledged move: kill -9 loses nothing.
        s.move(gid, white, "d2d4")
        s.kill9()
        s.start()
        assert h.moves_of(s.game(gid)) == ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4"]
        assert s.stop() == 0
        assert not s.sanitizer_reports(), s.sanitizer_reports()
    finally:
        s.cleanup()


def test_kill9_engine_game_and_restart():
    s = h.Server()
    try:
        created = s.create("chess", opponent="engine", color="white", skill=1)
        gid, token = created["game"]["id"], created["token"]
        s.move(gid, token, "e2e4")
        g = s.wait_game(gid, lambda x: len(x["moves"]) == 2, what="the engine's reply")
        s.kill9()
        s.start()
        after = s.game(gid)
        assert h.moves_of(after) == h.moves_of(g), "the engine's move survived kill -9"
        s.move(gid, token, after["legal"][0]["uci"])
        s.wait_game(gid, lambda x: len(x["moves"]) == 4, what="the engine's reply after the restart")
        # Killed while the engine is to move: after the restart it moves.
        created = s.create("starchess", opponent="engine", color="black", skill=20)
        gid2 = created["game"]["id"]
        s.kill9()
        s.start()
        g = s.wait_game(gid2, lambda x: len(x["moves"]) >= 1, what="the engine's first move after the restart")
        assert g["player_kinds"]["white"] == "engine" and g["moves"][0]["uci"].count("@") == 1
        assert s.move(gid2, created["token"], g["legal"][0]["uci"])["side"] == "white"
        # A flag that fell while the server was down is noticed at once.
        created = s.create("chess", opponent="friend", clock={"base_ms": 700})
        s.kill9()
        time.sleep(0.8)
        s.start()
        g = s.game(created["game"]["id"])
        assert (g["status"], g["reason"], g["result"]) == ("over", "timeout", "0-1"), g
    finally:
        s.cleanup()


def test_clean_shutdown_with_streams_and_searches():
    for sig in (signal.SIGINT, signal.SIGTERM):
        s = h.Server()
        try:
            created = s.create("chess", opponent="friend")
            stream = s.events(created["game"]["id"])
            stream.next()
            thinking = s.create("megastar", opponent="engine", color="black", skill=20)
            assert thinking["game"]["moves"] == []
            started = time.time()
            code = s.stop(sig)
            assert code == 0, "exit status %d after signal %d: %s" % (code, sig, s.stderr()[-2000:])
            assert time.time() - started < 5, "shutdown took %.1f s" % (time.time() - started)
            try:
                line = stream.resp.readline()
            except OSError:
                line = b""
            assert line in (b"", b"\r\n", b"\n"), "the stream ended with the server: %r" % line
            stream.close()
            assert not s.sanitizer_reports(), s.sanitizer_reports()
        finally:
            s.cleanup()


def test_command_line_errors():
    for args, code, expect in [(["--port", "http"], 2, "port"), (["--port", "70000"], 2, "port"),
                               (["--bogus"], 2, "unknown option"), (["--db"], 2, "needs a value"),
                               (["--evict-after", "-1"], 2, "evict-after"), (["--evict-after", "10m"], 2, "evict-after"),
                               (["--evict-after"], 2, "needs a value"),
                               (["--port", "0", "--db", "/nonexistent/dir/games.db"], 1, "/nonexistent/dir"),
                               (["--port", "0", "--host", "localhost:80"], 1, "host")]:
        with tempfile.TemporaryDirectory() as tmp:
            proc = subprocess.run([h.binary(), "serve"] + args, cwd=tmp, stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, timeout=30)
        assert proc.returncode == code, (args, proc.returncode, proc.stderr)
        assert proc.stdout == "" and proc.stderr.startswith("starfish: ") and expect in proc.stderr, (args, proc)


def test_zz_shared_server_stops_cleanly():
    """Last: the shared server (every other module's games in it) stops with status 0 and, in the
    sanitizer build, without a report."""
    s = h.shared()
    assert s.call("GET", "/api/games?limit=1") is not None
    h.stop_shared()
    assert s.proc.returncode == 0, "exit status %d: %s" % (s.proc.returncode, s.stderr()[-3000:])
    assert not s.sanitizer_reports(), s.sanitizer_reports()
