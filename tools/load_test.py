#!/usr/bin/env python3
"""A bounded load test of `starfish serve` on loopback.

Starts its own server (temporary database, a free port), creates --games friend games spread
over every variant, then for each game runs two player threads that alternately make random
legal moves (from the state's `legal` list) and --spectators threads per game following the
game's Server-Sent Events stream.  Stops after --moves moves per game or --seconds, whichever
comes first.  Then runs `wrk` (Debian's package) against a game's state URL for a throughput
figure.  Reports move round-trip latency (median, 99th percentile), requests per second and
errors.  Traffic goes to 127.0.0.1 only.
"""
import argparse
import http.client
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANTS = ["chess", "starvation", "square-says", "square-says-reversed", "starchess", "starchess-ludii", "megastar"]


class Server:
    def __init__(self, binary):
        self.dir = tempfile.mkdtemp(prefix="starfish-load-")
        self.proc = subprocess.Popen([binary, "serve", "--port", "0", "--db", os.path.join(self.dir, "load.db"),
                                      "--web", os.path.join(ROOT, "web")], stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not m:
            raise SystemExit(f"the server did not start: {line!r}")
        self.port = int(m.group(1))

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


def request(port, method, path, body=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = json.dumps(body).encode() if body is not None else None
    conn.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
    resp = conn.getresponse()
    payload = resp.read()
    conn.close()
    return resp.status, json.loads(payload) if payload else None


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latencies = []
        self.errors = []
        self.events = 0

    def add(self, seconds):
        with self.lock:
            self.latencies.append(seconds)

    def error(self, text):
        with self.lock:
            self.errors.append(text)


def player(port, game_id, token, colour, moves, deadline, stats, rng):
    made = 0
    while made < moves and time.time() < deadline:
        status, g = request(port, "GET", f"/api/games/{game_id}")
        if status != 200:
            stats.error(f"GET {game_id}: {status}")
            return
        if g["status"] != "ongoing":
            return
        if g["side"] != colour:
            time.sleep(0.005)
            continue
        move = rng.choice(g["legal"])["uci"]
        start = time.perf_counter()
        status, answer = request(port, "POST", f"/api/games/{game_id}/moves", {"move": move, "token": token})
        stats.add(time.perf_counter() - start)
        if status != 200:
            stats.error(f"move {move} in {game_id}: {status} {answer}")
            return
        made += 1


def spectator(port, game_id, deadline, stats):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", f"/api/games/{game_id}/events")
        resp = conn.getresponse()
        while time.time() < deadline:
            line = resp.fp.readline()
            if not line:
                break
            if line.startswith(b"event: state"):
                with stats.lock:
                    stats.events += 1
    except (TimeoutError, OSError):
        pass  # a quiet stream times out at the end of the run
    finally:
        conn.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--spectators", type=int, default=2, help="per game")
    parser.add_argument("--moves", type=int, default=30, help="per player and game")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--binary", default=os.path.join(ROOT, "starfish"))
    args = parser.parse_args()
    server = Server(args.binary)
    stats = Stats()
    rng = random.Random(1)
    try:
        games = []
        for i in range(args.games):
            status, created = request(server.port, "POST", "/api/games",
                                      {"variant": VARIANTS[i % len(VARIANTS)], "opponent": "friend", "color": "white"})
            if status != 201:
                raise SystemExit(f"creating a game failed: {status} {created}")
            games.append((created["game"]["id"], created["token"], created["invite"]))
        deadline = time.time() + args.seconds
        threads = []
        started = time.time()
        for game_id, white, black in games:
            for _ in range(args.spectators):
                threads.append(threading.Thread(target=spectator, args=(server.port, game_id, deadline, stats)))
            for token, colour in ((white, "white"), (black, "black")):
                threads.append(threading.Thread(target=player, args=(server.port, game_id, token, colour, args.moves,
                                                                     deadline, stats, random.Random(rng.random()))))
        for t in threads:
            t.daemon = True
            t.start()
        for t in threads:
            t.join(timeout=max(0.1, deadline - time.time() + 10))
        elapsed = time.time() - started
        lat = sorted(stats.latencies)
        print(f"games {args.games}, spectators {args.games * args.spectators}, moves {len(lat)} in {elapsed:.1f} s")
        if lat:
            p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
            print(f"move round trip: median {statistics.median(lat) * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
                  f"max {lat[-1] * 1000:.1f} ms; {len(lat) / elapsed:.0f} moves/s")
        print(f"state events delivered to spectators: {stats.events}")
        print(f"errors: {len(stats.errors)}")
        for e in stats.errors[:10]:
            print("  " + e)
        wrk = shutil.which("wrk")
        if wrk and games:
            out = subprocess.run([wrk, "-t2", "-c32", "-d10s", f"http://127.0.0.1:{server.port}/api/games/{games[0][0]}"],
                                 capture_output=True, text=True, timeout=60).stdout
            rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
            non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
            print(f"wrk GET game state, 32 connections, 10 s: {rps.group(1) if rps else '?'} requests/s, "
                  f"non-2xx {non2xx.group(1) if non2xx else 0}")
        return 1 if stats.errors else 0
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
