#!/usr/bin/env python3
"""A bounded load test of `starfish serve` on loopback.

Default: creates --games friend games spread over every variant, then for each game runs a
thread that makes random legal moves for both players in turn (from the `legal` list of the
answer to the last move, each player on a connection of its own: nobody polls), and
--spectators threads per game following the game's Server-Sent Events stream.  Stops after
--moves moves per game or --seconds, whichever comes first.  Then runs `wrk` (Debian's
package) against a game's state URL for a throughput figure.  Reports move round-trip latency
(median, 99th percentile), requests per second and errors.

--streams N (`make load-test-streams`: 50,000): holds N event streams open at once, spread
over --stream-games games, while players move in --players of them (tools/load_streams.py:
what it reports and when it fails); with --instances K (the make target: 3) first on one
server as far as its open-file limit allows, then on K instances sharing a throw-away
PostgreSQL database.  Traffic stays on loopback (127.0.0.x).

--port N: the default test against a server already running on 127.0.0.1:N, or a load balancer
in front of several (docs/deploy.md), instead of a server of its own (no thread count then).
"""
import argparse
import gc
import http.client
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANTS = ["chess", "starvation", "square-says", "square-says-reversed", "starchess", "starchess-ludii", "megastar"]
MAX_THREADS = 16
P99_LIMIT_MS = 50


def raise_file_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


class Server:
    def __init__(self, binary, extra=(), db=None):
        """`starfish serve` on a free port: on a SQLite file of its own, or on `db` (a
        PostgreSQL URL that other instances may share)."""
        self.dir = tempfile.mkdtemp(prefix="starfish-load-")
        self.proc = subprocess.Popen([binary, "serve", "--port", "0", "--db", db or os.path.join(self.dir, "load.db"),
                                      "--web", os.path.join(ROOT, "web")] + list(extra), stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, preexec_fn=raise_file_limit)
        line = self.proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not m:
            raise SystemExit(f"the server did not start: {line!r}")
        self.port = int(m.group(1))

    def threads(self):
        return len(os.listdir(f"/proc/{self.proc.pid}/task"))

    def rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            return int(next(l for l in f if l.startswith("VmRSS:")).split()[1])

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=60)
        shutil.rmtree(self.dir, ignore_errors=True)


class Running:
    """A server (or a balancer) that runs already: its port only."""

    def __init__(self, port):
        self.port = port

    def threads(self):
        return "?"

    def stop(self):
        pass


def request(port, method, path, body=None, conn=None):
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = json.dumps(body).encode() if body is not None else None
    conn.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
    resp = conn.getresponse()
    payload = resp.read()
    if own:
        conn.close()
    return resp.status, json.loads(payload) if payload else None


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latencies = []
        self.errors = []
        self.events = 0
        self.sent = {}  # (game id, moves played after the move) -> when the move was sent (time.monotonic)

    def add(self, seconds):
        with self.lock:
            self.latencies.append(seconds)

    def error(self, text):
        with self.lock:
            self.errors.append(text)

    def report(self, elapsed):
        lat = sorted(self.latencies)
        p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else 0
        if lat:
            print(f"move round trip: median {statistics.median(lat) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
                  f"max {lat[-1] * 1000:.1f} ms; {len(lat)} moves, {len(lat) / elapsed:.0f} moves/s")
        print(f"errors: {len(self.errors)}")
        for e in self.errors[:10]:
            print("  " + e)
        return p99


def players(port, game_id, tokens, moves, deadline, stats, rng, pace):
    """Both sides of one game, each through a keep-alive connection of its own, taking turns: the
    answer to a move says whose turn it is next and what is legal, so nobody polls.  A move at
    most every `pace` seconds, until each side made `moves` moves, the game ended or the
    deadline."""
    conns = {colour: http.client.HTTPConnection("127.0.0.1", port, timeout=30) for colour in tokens}
    status, g = request(port, "GET", f"/api/games/{game_id}", conn=conns["white"])
    made = 0
    next_move = time.perf_counter()
    while status == 200 and g["status"] == "ongoing" and made < 2 * moves and time.time() < deadline:
        time.sleep(max(0.0, next_move - time.perf_counter()))
        next_move = time.perf_counter() + pace
        colour = g["side"]
        move = rng.choice(g["legal"])["uci"]
        start = time.perf_counter()
        status, answer = request(port, "POST", f"/api/games/{game_id}/moves", {"move": move, "token": tokens[colour]},
                                 conns[colour])
        stats.add(time.perf_counter() - start)
        if status != 200:
            stats.error(f"move {move} in {game_id}: {status} {answer}")
        else:
            stats.sent[(game_id, len(answer["moves"]))] = start
        g = answer
        made += 1
    for conn in conns.values():
        conn.close()


def spectator(port, game_id, deadline, stats):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", f"/api/games/{game_id}/events")
        resp = conn.getresponse()
        while time.time() < deadline:
            line = resp.fp.readline()
            if not line:
                break
            if line.startswith(b"event: "):
                with stats.lock:
                    stats.events += 1
    except (TimeoutError, OSError):
        pass  # a quiet stream times out at the end of the run
    finally:
        conn.close()


def create_games(port, count, rng_variants=True):
    games = []
    for i in range(count):
        status, created = request(port, "POST", "/api/games",
                                  {"variant": VARIANTS[i % len(VARIANTS)] if rng_variants else "chess",
                                   "opponent": "friend", "color": "white"})
        if status != 201:
            raise SystemExit(f"creating a game failed: {status} {created}")
        games.append((created["game"]["id"], created["token"], created["invite"]))
    return games


def play(port, games, moves, seconds, stats, pace):
    """Each game played by both its players (a thread a game, a move at most every `pace`
    seconds) until each made `moves` moves or the time is up; returns the time taken."""
    deadline = time.time() + seconds
    rng = random.Random(1)
    threads = [threading.Thread(target=players, args=(port, game_id, {"white": white, "black": black}, moves, deadline,
                                                       stats, random.Random(rng.random()), pace), daemon=True)
               for game_id, white, black in games]
    # Python's cycle collector stops every thread of this process while it runs, 100-300 ms once
    # the heap has grown: all ten games' moves then measured that pause, not the server.
    gc.disable()
    started = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=max(0.1, deadline - time.time() + 10))
    elapsed = time.time() - started
    gc.enable()
    return elapsed


def games_and_spectators(args, server):
    stats = Stats()
    games = create_games(server.port, args.games)
    deadline = time.time() + args.seconds
    spectators = [threading.Thread(target=spectator, args=(server.port, g[0], deadline, stats), daemon=True)
                  for g in games for _ in range(args.spectators)]
    for t in spectators:
        t.start()
    elapsed = play(server.port, games, args.moves, args.seconds, stats, args.pace)
    print(f"games {args.games}, spectators {args.games * args.spectators}, server threads {server.threads()}")
    stats.report(elapsed)
    print(f"events delivered to spectators: {stats.events}")
    wrk = shutil.which("wrk")
    if wrk and games:
        out = subprocess.run([wrk, "-t2", "-c32", "-d10s", f"http://127.0.0.1:{server.port}/api/games/{games[0][0]}"],
                             capture_output=True, text=True, timeout=60).stdout
        rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
        non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        print(f"wrk GET game state, 32 connections, 10 s: {rps.group(1) if rps else '?'} requests/s, "
              f"non-2xx {non2xx.group(1) if non2xx else 0}")
    return 1 if stats.errors else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--spectators", type=int, default=2, help="per game")
    parser.add_argument("--moves", type=int, default=30, help="per player and game")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--pace", type=float, default=0.04, help="seconds between two moves of a game, at least")
    parser.add_argument("--streams", type=int, default=0, help="hold this many event streams instead (load_streams.py)")
    parser.add_argument("--stream-games", type=int, default=100, help="games the streams watch")
    parser.add_argument("--players", type=int, default=10, help="of those games, how many are played meanwhile")
    parser.add_argument("--instances", type=int, default=1,
                        help="with --streams: hold them on this many instances sharing a PostgreSQL database, after "
                        "one server at the open-file limit (load_streams.py)")
    parser.add_argument("--binary", default=os.path.join(ROOT, "starfish"))
    parser.add_argument("--port", type=int, help="test the server or balancer on 127.0.0.1:PORT (no --streams)")
    args = parser.parse_args()
    raise_file_limit()
    if args.port and args.streams:
        parser.error("--streams starts a server of its own: not with --port")
    if args.instances < 1 or (args.instances > 1 and not args.streams):
        parser.error("--instances N (N >= 1) goes with --streams")
    if args.streams:
        import load_streams  # which imports this module's helpers
        return load_streams.main(args)
    server = Running(args.port) if args.port else Server(args.binary)
    try:
        return games_and_spectators(args, server)
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
