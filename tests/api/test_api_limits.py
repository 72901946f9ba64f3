"""Bounded resources: a fixed number of server threads whatever the number of connections
(event streams, stalled half-requests, analyses waiting for the engine), stalled clients cut
off after --timeout, and the per-address limits --max-connections-per-ip and
--max-new-games-per-minute and --max-signups-per-hour answered with 429 and {"error"}, behind a
trusted proxy for the client that X-Forwarded-For names.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import http.client
import json
import os
import socket
import subprocess
import threading
import time

import accounts as a
import api_harness as h  # tests/api is on the path; the name differs from tests/protocol's harness

MAX_THREADS = 16


def threads_of(server):
    return len(os.listdir("/proc/%d/task" % server.proc.pid))


def open_stream(server, gid):
    """A raw event stream: the socket, once its first event has come."""
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    s.sendall(b"GET /api/games/%s/events HTTP/1.1\r\nHost: x\r\n\r\n" % gid.encode())
    got = b""
    while b"event: state" not in got:
        chunk = s.recv(65536)
        assert chunk, "the stream closed"
        got += chunk
    return s


def health_on_new_connection(server):
    """A new connection asks for GET /api/health: (socket, status, JSON body or None, closed)."""
    c = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    c.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
    status, _, body, closed = h.read_response(c)
    return c, status, json.loads(body) if body else None, closed


def test_threads_stay_bounded():
    s = h.Server()
    try:
        gid = s.create("chess", opponent="friend")["game"]["id"]
        streams = [open_stream(s, gid) for _ in range(300)]
        stalled = []
        for _ in range(200):
            c = socket.create_connection(("127.0.0.1", s.port), timeout=10)
            c.sendall(b"GET /api/hea")
            stalled.append(c)
        # Analyses that wait for the engine (more than it has threads) hold no HTTP thread.
        results = []

        def analyse():
            results.append(s.request("POST", "/api/analysis", {"variant": "chess", "movetime_ms": 1500}).status)

        waiting = [threading.Thread(target=analyse) for _ in range(8)]
        for t in waiting:
            t.start()
        time.sleep(0.3)
        started = time.time()
        assert s.call("GET", "/api/health")["event_streams"] == 300
        assert time.time() - started < 1, "the server answered slowly while analyses waited"
        count = threads_of(s)
        assert count <= MAX_THREADS, "%d threads" % count
        created = s.create("chess", opponent="friend")
        s.move(created["game"]["id"], created["token"], "e2e4")
        for t in waiting:
            t.join(60)
        assert results == [200] * 8, results
        for c in streams + stalled:
            c.close()
        assert threads_of(s) <= MAX_THREADS
        # Once (make test, PostgreSQL) it stopped with another status, not seen again in 4 runs:
        # the status and the server's last words say what happened, if it comes back.
        status = s.stop()
        assert status == 0, "the server stopped with status %s: %s" % (status, s.stderr()[-2000:])
    finally:
        s.cleanup()


def test_stalled_clients_are_cut_off():
    s = h.Server(extra_args=["--timeout", "2"])
    try:
        half = socket.create_connection(("127.0.0.1", s.port), timeout=10)
        half.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"vari")
        idle = socket.create_connection(("127.0.0.1", s.port), timeout=10)
        started = time.time()
        for c in (half, idle):
            c.settimeout(10)
            assert c.recv(65536) == b"", "a stalled connection answered"
        waited = time.time() - started
        assert 1.5 <= waited <= 6, "stalled connections closed after %.1f s (--timeout 2)" % waited
        # An event stream that merely waits for events is not stalled.
        gid = s.create("chess", opponent="friend")["game"]["id"]
        stream = s.events(gid)
        stream.next()
        time.sleep(3)
        created = s.create("chess", opponent="friend")
        assert s.call("GET", "/api/health")["event_streams"] == 1
        stream.close()
        assert created
        assert s.stop() == 0
    finally:
        s.cleanup()


def test_connections_per_address():
    s = h.Server(extra_args=["--max-connections-per-ip", "4"])
    try:
        held = []
        for _ in range(4):
            c, status, body, closed = health_on_new_connection(s)
            assert status == 200 and not closed, (status, body)
            held.append(c)
        extra, status, body, closed = health_on_new_connection(s)
        assert status == 429 and "too many connections" in body["error"] and closed, (status, body, closed)
        held.pop().close()
        time.sleep(0.3)
        again, status, _, _ = health_on_new_connection(s)
        assert status == 200
        for c in held + [again, extra]:
            c.close()
        assert s.stop() == 0
    finally:
        s.cleanup()


def test_new_games_per_address():
    s = h.Server(extra_args=["--max-new-games-per-minute", "3"])
    try:
        for _ in range(2):
            s.create("chess", opponent="friend")
        s.call("POST", "/api/import", {"variant": "chess", "fen": "8/8/8/4k3/8/8/4K3/7Q w - - 0 1",
                                      "opponent": "friend"}, expect=201)
        r = s.request("POST", "/api/games", {"variant": "chess", "opponent": "friend"})
        assert r.status == 429 and "too many new games" in r.json()["error"], r
        assert 1 <= int(r.headers["Retry-After"]) <= 20, r.headers["Retry-After"]
        s.error("POST", "/api/import", {"variant": "chess", "fen": "8/8/8/4k3/8/8/4K3/7Q w - - 0 1"}, expect=429)
        s.error("POST", "/api/games", {"variant": "nope"}, expect=400)  # a bad request is a bad request
        assert len(s.call("GET", "/api/games")) == 3
        assert s.stop() == 0
    finally:
        s.cleanup()


def from_address(server, source, method, path, body=None, forwarded=None, conn=None):
    """A request from the loopback address `source` (127.0.0.N), with X-Forwarded-For when
    given, on a new connection or `conn`: (status, the connection, left open for an event
    stream)."""
    conn = conn or http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(source, 0))
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if forwarded:
        headers["X-Forwarded-For"] = forwarded
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    r = conn.getresponse()
    if "event-stream" not in r.getheader("Content-Type", ""):
        r.read()
    return r.status, conn


def test_signups_per_address():
    """--max-signups-per-hour: every attempt counts, made or refused (names are not to be tried
    at leisure); past the allowance 429 with Retry-After; another client behind the proxy has
    its own; logging in is not touched."""
    s = h.Server(extra_args=["--trusted-proxy", "127.0.0.9", "--max-signups-per-hour", "2"])
    try:
        def signup(name, forwarded):
            conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=10, source_address=("127.0.0.9", 0))
            conn.request("POST", "/api/auth/signup", body=json.dumps({"username": name, "password": "a long secret"}),
                         headers={"Content-Type": "application/json", "X-Forwarded-For": forwarded})
            r = conn.getresponse()
            body, retry = json.loads(r.read() or b"{}"), r.getheader("Retry-After")
            conn.close()
            return r.status, body, retry

        name = a.fresh_name()
        assert signup(name, "10.3.3.1")[0] == 201
        assert signup(name.upper(), "10.3.3.1")[0] == 409, "the name is taken"
        status, body, retry = signup(a.fresh_name(), "10.3.3.1")
        assert status == 429 and "too many accounts created from this address (at most 2 an hour)" in body["error"], body
        assert 1700 <= int(retry) <= 1801, retry  # half an hour: one use refilled at 2 an hour
        assert signup(a.fresh_name(), "10.3.3.2")[0] == 201, "another client behind the proxy"
        assert a.login(s, name, "a long secret").account()["username"] == name
    finally:
        s.cleanup()


def test_trusted_proxy_limits_each_forwarded_client():
    """--trusted-proxy: requests from the proxy's address count for the client X-Forwarded-For
    names (its last address), its open requests as its connections; the header from any other
    address is ignored; a value that is not an address is refused at start."""
    s = h.Server(extra_args=["--trusted-proxy", "127.0.0.9,::1", "--max-new-games-per-minute", "2",
                             "--max-connections-per-ip", "2"])
    try:
        new = {"variant": "chess", "opponent": "friend"}

        def create(source, forwarded=None):
            status, conn = from_address(s, source, "POST", "/api/games", new, forwarded)
            conn.close()
            return status

        made = [create("127.0.0.9", "10.1.1.1") for _ in range(3)]
        assert made == [201, 201, 429], made
        assert create("127.0.0.9", "10.1.1.2") == 201, "another client behind the proxy"
        assert create("127.0.0.9", "10.1.1.7, 10.1.1.1") == 429, "an address the client wrote before its own believed"
        conn = None  # one connection: the limit on connections applies to it
        statuses = []
        for i in range(3):
            status, conn = from_address(s, "127.0.0.8", "POST", "/api/games", new, "10.1.1.%d" % i, conn)
            statuses.append(status)
        conn.close()
        assert statuses == [201, 201, 429], "X-Forwarded-For believed from an address that is not a trusted proxy"
        gid = s.create("chess", opponent="friend")["game"]["id"]
        held = []
        for forwarded, expect in (("10.2.2.1", 200), ("10.2.2.1", 200), ("10.2.2.1", 429), ("10.2.2.2", 200)):
            status, conn = from_address(s, "127.0.0.9", "GET", "/api/games/%s/events" % gid, forwarded=forwarded)
            held.append(conn)
            assert status == expect, "%s's stream: %d, expected %d" % (forwarded, status, expect)
        for conn in held:
            conn.close()
    finally:
        s.cleanup()
    for bad in ("nonsense", "127.0.0.1,", "300.1.2.3"):
        proc = subprocess.run([h.binary(), "serve", "--port", "0", "--trusted-proxy", bad], capture_output=True,
                              text=True, timeout=30, stdin=subprocess.DEVNULL)
        assert proc.returncode == 2 and "is not an IPv4 or IPv6 address" in proc.stderr, (bad, proc.returncode,
                                                                                             proc.stderr)
