"""The web app on several instances (issue 17): two `starfish serve` processes on one
PostgreSQL database (a throw-away cluster: tests/api/api_harness.py's Postgres) behind nginx,
started from deploy/nginx.conf with the ports replaced.  No sticky sessions: a player's
requests go to whichever instance nginx picks.

Checked: moves through either instance, each seeing the other's at once; events of a move
made on one instance reach spectators of the other (median and worst latency printed; the
median must stay under 100 ms); takeback and rematch offers made on one instance and answered on
the other (two accepts at once: one rematch); of two moves sent at once to the two instances, exactly one is
made and the other answered 409; one search per engine move whatever the number of instances;
a flag fall found by the instance that is left; kill -9 of an instance under load: nothing
acknowledged is lost and the other instance continues its games (engine moves) within a few
seconds (the time printed); accounts: a session good on both instances, the Origin check behind
nginx, a logout ending the session on both, the login throttle per client behind nginx.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "api"))
import api_harness as h  # noqa: E402  (tests/api's helpers: servers, requests, PostgreSQL)

NGINX_CONF = os.path.join(h.REPO_ROOT, "deploy", "nginx.conf")


class Nginx:
    """nginx from deploy/nginx.conf, listening on a free port, in front of `ports`."""

    def __init__(self, ports):
        self.dir = tempfile.mkdtemp(prefix="starfish-nginx-")
        os.makedirs(os.path.join(self.dir, "tmp"))
        os.chmod(os.path.join(self.dir, "tmp"), 0o777)  # nginx's workers run as nobody
        self.port = h.free_port()
        with open(NGINX_CONF) as f:
            conf = f.read()
        conf, listens = re.subn(r"listen 127\.0\.0\.1:\d+;", "listen 127.0.0.1:%d;" % self.port, conf)
        upstreams = "".join("        server 127.0.0.1:%d max_fails=1 fail_timeout=2s;\n" % p for p in ports)
        conf, servers = re.subn(r"(        server 127\.0\.0\.1:\d+ [^\n]*\n)+", upstreams, conf)
        assert listens == 1 and servers == 1, "deploy/nginx.conf no longer has the lines the test replaces"
        path = os.path.join(self.dir, "nginx.conf")
        with open(path, "w") as f:
            f.write(conf)
        self.proc = subprocess.Popen(["nginx", "-p", self.dir + "/", "-c", path, "-e", os.path.join(self.dir, "error.log")],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 10
        while True:
            assert self.proc.poll() is None, "nginx exited: %s" % self.proc.stderr.read().decode()
            try:
                if Via(self.port).request("GET", "/api/variants").status == 200:
                    return
            except OSError:
                pass
            assert time.time() < deadline, "nginx does not answer"
            time.sleep(0.05)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


class Via:
    """The API through one port: nginx's or one instance's (h.Server's request helpers)."""

    def __init__(self, port):
        self.port = port

    url = h.Server.url
    request = h.Server.request
    call = h.Server.call
    create = h.Server.create
    game = h.Server.game
    move = h.Server.move
    wait_game = h.Server.wait_game
    events = h.Server.events


class Cluster:
    """Two instances on one new database, and nginx in front of them."""

    def __init__(self, instances=2, extra_args=()):
        self.db = db = h.postgres().new_database()
        # Each instance's connections named (libpq's PGAPPNAME) for the tests' look at pg_locks.
        self.servers = [h.Server(db=db, extra_args=extra_args, env={"PGAPPNAME": "starfish-%d" % i})
                        for i in range(instances)]
        self.nginx = Nginx([s.port for s in self.servers])
        self.front = Via(self.nginx.port)

    def close(self):
        self.nginx.stop()
        for s in self.servers:
            reports = s.sanitizer_reports()
            s.cleanup()
            assert not reports, reports[0]


def legal(game, i=0):
    return game["legal"][i % len(game["legal"])]["uci"]


def test_moves_through_either_instance():
    c = Cluster()
    try:
        a, b = c.servers
        created = c.front.create("chess", opponent="friend")
        gid, tokens = created["game"]["id"], {"white": created["token"], "black": created["invite"]}
        game = created["game"]
        for i in range(16):  # each move on the other instance than the last, each read on the other again
            mover, reader = (a, b) if i % 2 else (b, a)
            game = mover.move(gid, tokens[game["side"]], legal(game, i))
            seen = reader.game(gid)
            assert h.moves_of(seen) == h.moves_of(game), "instance %d is behind: %r" % (i % 2, h.moves_of(seen))
            front = c.front.game(gid)
            assert h.moves_of(front) == h.moves_of(game)
        assert len(game["moves"]) == 16
        # A resignation on one instance ends the game on both.
        a.call("POST", "/api/games/%s/resign" % gid, {"token": tokens["white"]})
        assert b.game(gid)["result"] == "0-1"
    finally:
        c.close()


def test_events_cross_instances():
    """Moves on instance A, a spectator streaming from B: the event's latency after the move's
    answer."""
    c = Cluster()
    try:
        a, b = c.servers
        created = a.create("chess", opponent="friend")
        gid, tokens = created["game"]["id"], {"white": created["token"], "black": created["invite"]}
        stream = b.events(gid)
        name, first = stream.next()
        assert name == "state" and first["moves"] == []
        arrived = {}

        def read():
            for _ in range(40):
                name, game = stream.next()
                arrived[len(game["moves"])] = time.monotonic()
                if len(game["moves"]) == 40:
                    return

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        game, answered = created["game"], {}
        for i in range(40):
            game = a.move(gid, tokens[game["side"]], legal(game, i))
            answered[len(game["moves"])] = time.monotonic()
            time.sleep(0.02)
        reader.join(timeout=10)
        stream.close()
        # Moves in quick succession may reach B as one event: most have their own.
        assert 40 in arrived and len(arrived) >= 30, "events missing: %r" % sorted(arrived)
        latencies = sorted(max(0.0, arrived[n] - answered[n]) * 1000 for n in arrived)
        median = statistics.median(latencies)
        print("  event latency across instances: median %.1f ms, max %.1f ms (%d events of 40 moves)" % (
            median, latencies[-1], len(latencies)))
        assert median < 100, "median event latency %.1f ms" % median
    finally:
        c.close()


def test_concurrent_moves_one_wins():
    c = Cluster()
    try:
        a, b = c.servers
        for trial in range(12):
            created = c.front.create("chess", opponent="friend")
            gid, token = created["game"]["id"], created["token"]
            moves = [legal(created["game"], 0), legal(created["game"], 5)]
            barrier, statuses = threading.Barrier(2), [None, None]

            def send(k, server):
                barrier.wait()
                statuses[k] = server.request("POST", "/api/games/%s/moves" % gid, {"move": moves[k], "token": token})

            threads = [threading.Thread(target=send, args=(k, s)) for k, s in enumerate((a, b))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            codes = sorted(r.status for r in statuses)
            assert codes == [200, 409], "trial %d: %r" % (trial, statuses)
            winner = moves[[r.status for r in statuses].index(200)]
            for s in (a, b):
                assert h.moves_of(s.game(gid)) == [winner], "trial %d: %r" % (trial, h.moves_of(s.game(gid)))
    finally:
        c.close()


def act(server, gid, what, token, action, expect=200):
    return server.call("POST", "/api/games/%s/%s" % (gid, what), {"token": token, "action": action}, expect=expect)


def test_offers_cross_instances():
    """Takeback and rematch offers made through A are answered through B, and the friend's
    arrival through B reaches the creator's event stream on A; two accepts of one rematch
    offer sent at once to both instances make one rematch."""
    c = Cluster()
    try:
        a, b = c.servers
        created = a.create("chess", opponent="friend")
        gid, white, black = created["game"]["id"], created["token"], created["invite"]
        stream = a.events(gid)
        assert stream.next()[1]["joined"]["black"] is False
        assert b.game(gid, black)["joined"]["black"] is True
        assert stream.until(lambda g: g["joined"]["black"]), "the arrival through B did not reach A's stream"
        stream.close()
        a.move(gid, white, "e2e4")
        act(a, gid, "takeback", white, "offer")
        assert b.game(gid)["takeback_offer"] == "white"
        g = act(b, gid, "takeback", black, "accept")
        assert h.moves_of(g) == [] and h.moves_of(a.game(gid)) == []
        for trial in range(4):
            game = c.front.create("chess", opponent="friend")
            gid, white, black = game["game"]["id"], game["token"], game["invite"]
            a.call("POST", "/api/games/%s/resign" % gid, {"token": black})
            act(a, gid, "rematch", white, "offer")
            assert b.game(gid)["rematch"]["offer"] == "white"
            barrier, answers = threading.Barrier(2), [None, None]

            def accept(k, server):
                barrier.wait()
                answers[k] = act(server, gid, "rematch", black, "accept")["rematch"]["game"]

            threads = [threading.Thread(target=accept, args=(k, s)) for k, s in enumerate((a, b))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert answers[0] and answers[0] == answers[1], "trial %d: two rematches: %r" % (trial, answers)
            for s in (a, b):
                assert s.game(gid)["rematch"] == {"offer": None, "game": answers[0]}
            assert b.game(answers[0], black)["you"] == "white"
    finally:
        c.close()


def from_address(port, source, method, path, body=None, headers=None):
    """A request to 127.0.0.1:port from the loopback address `source` (127.0.0.2, ...); returns
    (status, the connection, still open for an event stream's body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15, source_address=(source, 0))
    data = json.dumps(body).encode() if body is not None else None
    conn.request(method, path, body=data, headers=dict(headers or {}, **({"Content-Type": "application/json"}
                                                                         if data else {})))
    r = conn.getresponse()
    if r.status != 200 or "event-stream" not in r.getheader("Content-Type", ""):
        r.read()
    return r.status, conn


def create_from(port, source, headers=None):
    status, conn = from_address(port, source, "POST", "/api/games", {"variant": "chess", "opponent": "friend"}, headers)
    conn.close()
    return status


def test_limits_per_client_behind_nginx():
    """--trusted-proxy: behind nginx, the per-address limits count each client by the address
    nginx puts in X-Forwarded-For (two clients, two allowances), while a forged X-Forwarded-For
    from an address that is not a trusted proxy is not believed."""
    c = Cluster(extra_args=["--trusted-proxy", "127.0.0.1", "--max-new-games-per-minute", "2",
                            "--max-connections-per-ip", "2"])
    try:
        port, a = c.nginx.port, c.servers[0]
        # Client X (127.0.0.2) uses up its allowance on both instances (2 each: limits are an
        # instance's own), client Y (127.0.0.3) still has its own.
        made = [create_from(port, "127.0.0.2") for _ in range(8)]
        assert made.count(201) in (2, 3, 4) and made[-2:] == [429, 429], made
        assert create_from(port, "127.0.0.3") == 201, "client Y shares client X's allowance"
        # Connections: X holds event streams up to the limit (2 an instance), Y may still open one.
        gid = c.front.create("chess", opponent="friend")["game"]["id"]
        held, statuses = [], []
        for _ in range(6):
            status, conn = from_address(port, "127.0.0.2", "GET", "/api/games/%s/events" % gid)
            statuses.append(status)
            held.append(conn)
        assert statuses.count(200) in (2, 3, 4) and statuses[-1] == 429, statuses
        status, conn = from_address(port, "127.0.0.3", "GET", "/api/games/%s/events" % gid)
        held.append(conn)
        assert status == 200, "client Y refused while X holds its streams: %d" % status
        for conn in held:
            conn.close()
        # Straight to an instance from 127.0.0.4, not a trusted proxy: its X-Forwarded-For,
        # a new address each time, is ignored, and its own address runs out of games.
        forged = [create_from(a.port, "127.0.0.4", {"X-Forwarded-For": "10.0.0.%d" % i}) for i in range(4)]
        assert forged == [201, 201, 429, 429], forged
    finally:
        c.close()


def test_accounts_behind_nginx():
    """Accounts through the balancer: a session works on whichever instance a request reaches,
    a browser's Origin (nginx's own address) passes the cross-site check there (nginx passes the
    Host with its port), a logout ends the session on both at once, and the login throttle
    counts each client behind nginx by its own address, on both instances together."""
    c = Cluster(extra_args=["--trusted-proxy", "127.0.0.1"])
    try:
        port = c.nginx.port
        status, conn = from_address(port, "127.0.0.2", "POST", "/api/auth/signup",
                                    {"username": "Nginx_user", "password": "a password here"})
        conn.close()
        assert status == 201, status
        r = c.front.request("POST", "/api/auth/login", {"username": "nginx_user", "password": "a password here"})
        assert r.status == 200, r
        sid = r.headers["Set-Cookie"].split(";")[0]
        mine = {"Cookie": sid, "Origin": "http://127.0.0.1:%d" % port}
        for _ in range(4):  # both instances, round robin
            assert c.front.request("GET", "/api/account", headers=mine).json()["username"] == "Nginx_user"
            created = c.front.request("POST", "/api/games", {"variant": "chess", "opponent": "friend"}, headers=mine)
            assert created.status == 201 and created.json()["game"]["players"]["white"]["name"] == "Nginx_user"
        forged = dict(mine, Origin="http://evil.example")
        assert c.front.request("POST", "/api/games", {"variant": "chess"}, headers=forged).status == 403
        assert c.front.request("POST", "/api/auth/logout", headers=mine).status == 204
        for server in c.servers:
            assert server.request("GET", "/api/account", headers={"Cookie": sid}).status == 401
        # Client 127.0.0.3 fails five times (over both instances): refused; 127.0.0.4 is not.
        guess = {"username": "nginx_user", "password": "not it at all"}
        statuses = [from_address(port, "127.0.0.3", "POST", "/api/auth/login", guess)[0] for _ in range(6)]
        assert statuses == [401] * 5 + [429], statuses
        right = {"username": "nginx_user", "password": "a password here"}
        assert from_address(port, "127.0.0.4", "POST", "/api/auth/login", right)[0] == 429  # the name's limit
        other = {"username": "nobody_else", "password": "not it at all"}
        assert from_address(port, "127.0.0.4", "POST", "/api/auth/login", other)[0] == 401  # its own address
    finally:
        c.close()


def test_one_search_per_engine_move():
    """Engine games through the balancer: every engine move comes once, and no instance
    searched a move that the other made (the instances claim each search in the database)."""
    c = Cluster()
    try:
        games = [c.front.create("chess", opponent="engine", color="white", skill=0) for _ in range(3)]
        for ply in range(0, 8, 2):
            for created in games:
                gid = created["game"]["id"]
                game = c.front.wait_game(gid, lambda g: len(g["moves"]) == ply and g["side"] == "white",
                                         what="the engine's move")
                c.front.move(gid, created["token"], legal(game, ply))
        for created in games:
            c.front.wait_game(created["game"]["id"], lambda g: len(g["moves"]) == 8, what="the engine's last move")
        for s in c.servers:
            assert "dropped" not in s.stderr(), "a search whose move the other instance made: %s" % s.stderr()
    finally:
        c.close()


def stored_when(c, query, predicate, timeout=10):
    """Reads the database (psql, not an instance: no request reaches the instances) until the
    query's output satisfies predicate; returns the output."""
    deadline = time.monotonic() + timeout
    while True:
        out = h.postgres().sql(query, c.db).strip()
        if predicate(out):
            return out
        assert time.monotonic() < deadline, "the database still has %r for %r" % (out, query)
        time.sleep(0.05)


def claimed_by(c, instance, n, timeout=2):
    """Waits until the instance's connections hold n claims (advisory locks) in the database;
    false after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    query = ("SELECT count(*) FROM pg_locks l JOIN pg_stat_activity s ON s.pid = l.pid "
             "WHERE l.locktype = 'advisory' AND l.granted AND s.application_name = '%s'" % instance)
    while int(h.postgres().sql(query, c.db)) < n:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_kill9_under_load_others_continue():
    """kill -9 of instance A while friend games are played through nginx and engine games wait
    for A's searches: every acknowledged move is still there, and B, asked nothing about those
    games, makes the engine moves and finds the flag fall by itself (both read from the
    database, not through B)."""
    c = Cluster()
    try:
        a, b = c.servers
        friends = []
        for _ in range(4):
            created = c.front.create("chess", opponent="friend")
            friends.append((created["game"]["id"], {"white": created["token"], "black": created["invite"]}))
        acknowledged, errors, stop = {gid: [] for gid, _ in friends}, [], threading.Event()

        def play(gid, tokens):
            while not stop.is_set():
                r = c.front.request("GET", "/api/games/" + gid)
                if r.status != 200:
                    errors.append(r.status)
                    continue
                game = r.json()
                move = legal(game, len(game["moves"]))
                r = c.front.request("POST", "/api/games/%s/moves" % gid, {"move": move, "token": tokens[game["side"]]})
                if r.status == 200:
                    acknowledged[gid].append((len(game["moves"]), move))
                else:
                    errors.append(r.status)

        players = [threading.Thread(target=play, args=f, daemon=True) for f in friends]
        for t in players:
            t.start()
        time.sleep(1.0)
        # An engine game made on A, whose search A claims (skill 20: 1.5 s a move); B, which
        # hears of a new game at once, may claim it first: such a game is no test, and another
        # is made.
        for _ in range(8):
            engine = a.create("chess", opponent="engine", color="black", skill=20)["game"]["id"]
            if claimed_by(c, "starfish-0", 1, timeout=0.4):
                break
        else:
            raise AssertionError("instance A claimed none of its engine games' moves")
        flag = a.create("chess", opponent="friend", clock={"base_ms": 2500, "inc_ms": 0})
        flag_id = flag["game"]["id"]
        a.move(flag_id, flag["token"], "e2e4")  # Black's clock runs: it falls 2.5 s from now
        a.kill9()
        killed = time.monotonic()
        stored = h.postgres().sql("SELECT (SELECT count(*) FROM moves WHERE game_id = '%s') || ' ' || result FROM games "
                                  "WHERE id = '%s'" % (engine, flag_id), c.db).strip()
        assert stored == "0 *", "A's search ended, or the flag fell, before the kill: %r" % stored
        stored_when(c, "SELECT count(*) FROM moves WHERE game_id = '%s'" % engine, lambda out: out == "1")
        recovered = time.monotonic() - killed
        result = stored_when(c, "SELECT result || ' ' || coalesce(reason, '') FROM games WHERE id = '%s'" % flag_id,
                             lambda out: not out.startswith("*"))
        flagged = time.monotonic() - killed
        assert result == "1-0 timeout", result
        time.sleep(1.0)
        stop.set()
        for t in players:
            t.join(timeout=30)
        made = sum(len(v) for v in acknowledged.values())
        for gid, moves in acknowledged.items():
            stored = h.moves_of(b.game(gid))
            for ply, move in moves:
                assert ply < len(stored) and stored[ply] == move, "game %s: acknowledged move %d %s lost: %r" % (
                    gid, ply, move, stored)
        print("  kill -9 of one of two instances: %d moves acknowledged, all kept; %d requests failed meanwhile "
              "(%s); B, asked nothing about them, stored the engine move of A's search %.2f s after the kill, the flag "
              "fall %.2f s after it" % (made, len(errors), sorted(set(errors)), recovered, flagged))
        assert made > 20, "too few moves made: %d" % made
        assert recovered < 5, "the engine's moves came %.1f s after the kill" % recovered
    finally:
        c.close()
