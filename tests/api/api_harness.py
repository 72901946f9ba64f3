"""Helpers that drive `starfish serve` over real HTTP, with urllib only.

The binary is $STARFISH_BIN (a relative path is tried from the current directory, then from
the repository root), else ./starfish at the repository root.  A server runs as
`starfish serve --port 0 --db TMP/games.db --web DIR` in a temporary directory (port 0: the
server picks a free port and prints it on its one line `starfish: serving http://...`); the
harness waits until it answers and stops it at exit.

With STARFISH_TEST_DB=postgresql the servers use PostgreSQL instead: one throw-away cluster
(initdb in a temporary directory, on a loopback port; see Postgres) and a new database for
each server; tests marked @sqlite_only (they look into the SQLite file) are left out.

It is called `api_harness`, not `harness`, because tests/run.py imports
tests/protocol/harness.py as `harness` in the same process.
"""
import atexit
import glob
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/
from testbin import REPO_ROOT, binary, time_scale, wait_for  # noqa: E402,F401  (used by the tests as h.*)
WEB_DIR = os.path.join(REPO_ROOT, "web")
START_TIMEOUT = 30  # seconds; the sanitizer build starts slower
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "SUMMARY: UndefinedBehavior",
                   "WARNING: ThreadSanitizer")

VARIANTS = ["chess", "starvation", "square-says", "square-says-reversed", "starchess", "starchess-ludii", "megastar"]


_running = []


def backend():
    """The store the tests' servers use: "sqlite" or "postgresql" ($STARFISH_TEST_DB)."""
    return os.environ.get("STARFISH_TEST_DB", "sqlite")


def sqlite_only(fn):
    """Marks a test that reads or breaks the SQLite file itself: tests/run.py leaves it out
    when the servers use PostgreSQL."""
    fn.only_on = "sqlite"
    return fn


def postgresql_only(fn):
    """Marks a test of the PostgreSQL store itself: tests/run.py runs it only when the
    servers use PostgreSQL."""
    fn.only_on = "postgresql"
    return fn


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Postgres:
    """A throw-away PostgreSQL cluster: `initdb` into a temporary directory (as the user
    postgres when the tests run as root: PostgreSQL refuses root), `pg_ctl start` on a free
    loopback port, trust authentication, no fsync (the tests kill servers, never the
    database).  new_database() gives each server a database of its own."""

    def __init__(self):
        self.bin = subprocess.check_output(["pg_config", "--bindir"], text=True).strip()
        if not os.path.exists(os.path.join(self.bin, "initdb")):  # pg_config of libpq-dev alone
            self.bin = sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1]
        self.dir = tempfile.mkdtemp(prefix="starfish-pg-")
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            shutil.chown(self.dir, "postgres")
        self.port = free_port()
        self.databases = 0
        data = os.path.join(self.dir, "data")
        self._run("initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
        self._run("pg_ctl", "-D", data, "-l", os.path.join(self.dir, "log"), "-w", "start", "-o",
                  "-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300"
                  % (self.port, self.dir))
        self.data = data

    def _run(self, tool, *args):
        proc = subprocess.run(self.as_user + [os.path.join(self.bin, tool)] + list(args), capture_output=True,
                              text=True, timeout=120, stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, "%s failed: %s" % (tool, proc.stderr or proc.stdout)

    def url(self, database):
        return "postgresql://postgres@127.0.0.1:%d/%s" % (self.port, database)

    def sql(self, statement, url=None):
        """Runs SQL through psql on a database (its URL; default: postgres); returns the output
        (unaligned, tuples only)."""
        proc = subprocess.run(["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url or self.url("postgres"),
                               "-c", statement], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, "psql %r: %s" % (statement, proc.stderr)
        return proc.stdout

    def new_database(self):
        self.databases += 1
        name = "starfish_%d" % self.databases
        self.sql("CREATE DATABASE %s" % name)
        return self.url(name)

    def stop(self):
        if self.data:
            subprocess.run(self.as_user + [os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-m", "immediate",
                                           "stop"], capture_output=True, timeout=60)
            self.data = None
        shutil.rmtree(self.dir, ignore_errors=True)


_postgres = []


def stored_rows(server, query):
    """The rows a query reads from a server's store (SQLite's tuples, or psql's lines), to
    compare before and after."""
    if server.db.startswith("postgresql:"):
        return postgres().sql(query, server.db).splitlines()
    db = sqlite3.connect("file:%s?mode=ro" % server.db, uri=True)
    try:
        return db.execute(query).fetchall()
    finally:
        db.close()


def postgres():
    """The cluster of this test run, started when first asked for."""
    if not _postgres:
        _postgres.append(Postgres())
    return _postgres[0]


def start_once(db, extra_args=()):
    """Runs `starfish serve` on the database (with extra_args) until it says what it does (then
    stops it); returns (exit status, its first line of output and its stderr)."""
    proc = subprocess.Popen([binary(), "serve", "--port", "0", "--db", db, "--web", WEB_DIR] + list(extra_args),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    if line.startswith("starfish: serving"):
        proc.terminate()
    out, err = proc.communicate(timeout=30)
    return proc.returncode, line + err


class Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = headers
        self.body = body  # bytes

    @property
    def text(self):
        return self.body.decode("utf-8", errors="replace")

    def json(self):
        return json.loads(self.body)

    def __repr__(self):
        return "<%d %s>" % (self.status, self.text[:300])


class Server:
    """One `starfish serve` process (restartable on the same database)."""

    def __init__(self, db=None, web=WEB_DIR, extra_args=(), env=None):
        self.dir = tempfile.mkdtemp(prefix="starfish-api-")
        if db is None and backend() == "postgresql":
            db = postgres().new_database()
        self.db = db or os.path.join(self.dir, "games.db")
        self.web = web
        self.extra_args = list(extra_args)
        self.env = dict(os.environ, **(env or {}))
        self.binary = binary()
        self.proc = None
        self.runs = 0
        self.start()
        _running.append(self)

    # -- process --------------------------------------------------------------------------
    def start(self):
        assert self.proc is None or self.proc.poll() is not None, "the server is running already"
        self.runs += 1
        self.out_path = os.path.join(self.dir, "stdout.%d" % self.runs)
        self.err_path = os.path.join(self.dir, "stderr.%d" % self.runs)
        with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen(
                [self.binary, "serve", "--port", "0", "--db", self.db, "--web", self.web] + self.extra_args,
                cwd=REPO_ROOT, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=self.env)
        deadline = time.time() + START_TIMEOUT
        self.port = None
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError("the server exited with status %d at start: %s"
                                     % (self.proc.returncode, self.stderr()))
            with open(self.out_path) as f:
                line = f.readline()
            m = re.match(r"starfish: serving http://127\.0\.0\.1:(\d+) \(db (.*)\)\n", line)
            if m:
                assert m.group(2) == self.db, "the start line names the db %r, expected %r" % (m.group(2), self.db)
                self.port = int(m.group(1))
                break
            time.sleep(0.02)
        assert self.port, "the server printed no start line within %d s: %r" % (START_TIMEOUT, self.stdout())
        while time.time() < deadline:  # it answers
            try:
                if self.request("GET", "/api/variants").status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise AssertionError("the server does not answer on port %d" % self.port)

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def kill9(self):
        """kill -9: no chance to clean up."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self, sig=signal.SIGTERM, timeout=15):
        """A clean shutdown; returns the exit status."""
        if not self.running():
            return self.proc.returncode if self.proc else 0
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError("the server did not stop within %d s of signal %d" % (timeout, sig))

    def restart(self):
        if self.running():
            self.stop()
        self.start()

    def stdout(self):
        with open(self.out_path, errors="replace") as f:
            return f.read()

    def stderr(self):
        with open(self.err_path, errors="replace") as f:
            return f.read()

    def sanitizer_reports(self):
        """Sanitizer reports in every run's stderr so far."""
        found = []
        for run in range(1, self.runs + 1):
            path = os.path.join(self.dir, "stderr.%d" % run)
            if os.path.exists(path):
                with open(path, errors="replace") as f:
                    text = f.read()
                if any(mark in text for mark in SANITIZER_MARKS):
                    found.append(text[-4000:])
        return found

    def cleanup(self):
        if self.running():
            self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    # -- HTTP -----------------------------------------------------------------------------
    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.port, path)

    def request(self, method, path, body=None, raw=None, headers=None, timeout=30):
        """Sends a request; body is JSON-encoded, raw is sent as it is.  Never raises on 4xx/5xx."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        req = urllib.request.Request(self.url(path), data=data, method=method, headers=dict(headers or {}))
        if data is not None and not req.has_header("Content-type"):  # urllib capitalizes header names
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return Response(resp.status, resp.headers, resp.read())
        except urllib.error.HTTPError as e:
            return Response(e.code, e.headers, e.read())

    def call(self, method, path, body=None, expect=200, **kw):
        """A request that must answer `expect` with JSON; returns the decoded JSON."""
        r = self.request(method, path, body, **kw)
        assert r.status == expect, "%s %s %r: expected %d, got %d: %s" % (method, path, body, expect, r.status, r.text)
        assert r.headers.get("Content-Type", "").startswith("application/json"), \
            "%s %s: content type %r" % (method, path, r.headers.get("Content-Type"))
        return r.json()

    def error(self, method, path, body=None, expect=400, raw=None, contains=None):
        """A request that must fail with `expect` and {"error": "..."}; returns the message."""
        r = self.request(method, path, body, raw=raw)
        assert r.status == expect, "%s %s %r: expected %d, got %d: %s" % (
            method, path, body if raw is None else raw[:80], expect, r.status, r.text)
        data = r.json()
        assert isinstance(data, dict) and isinstance(data.get("error"), str) and data["error"], \
            "an error needs {\"error\": \"...\"}: %r" % (data,)
        if contains:
            assert contains in data["error"], "expected %r in the error %r" % (contains, data["error"])
        return data["error"]

    # -- games ----------------------------------------------------------------------------
    def create(self, variant="chess", opponent="friend", color="white", expect=201, path="/api/games", **options):
        body = {"variant": variant, "opponent": opponent, "color": color}
        body.update(options)
        return self.call("POST", path, body, expect=expect)

    def game(self, game_id, token=None):
        return self.call("GET", "/api/games/%s%s" % (game_id, "?token=" + token if token else ""))

    def move(self, game_id, token, move, expect=200):
        return self.call("POST", "/api/games/%s/moves" % game_id, {"move": move, "token": token}, expect=expect)

    def wait_game(self, game_id, predicate, timeout=15, what="the condition"):
        """Polls GET until predicate(game) holds; returns the game."""
        deadline = time.time() + timeout
        while True:
            g = self.game(game_id)
            if predicate(g):
                return g
            assert time.time() < deadline, "game %s: %s did not happen within %d s: %r" % (
                game_id, what, timeout, {k: g[k] for k in ("moves", "status", "result", "reason", "clock")})
            time.sleep(0.05)

    def events(self, game_id, timeout=15, token=None, headers=None):
        return EventStream(self, game_id, timeout, token, headers)


def apply_patch(game, patch):
    """GAME after a `patch` event, as docs/api.md says a client applies it (and the web page's
    live.js does): the moves added, the fields that changed, the clock's figures; `fen` is the
    last move's, and `legal` after moves or at the end is what the patch says, else []."""
    patch = dict(patch)
    n, moves = patch.pop("n"), patch.pop("moves", [])
    assert len(game["moves"]) + len(moves) == n, "patch out of step: %d moves + %d != %d" % (
        len(game["moves"]), len(moves), n)
    g = dict(game, moves=game["moves"] + moves)
    if moves:
        g["fen"] = moves[-1]["fen"]
    if moves or patch.get("status") == "over":
        g["legal"] = []
    clock = patch.pop("clock", None)
    if clock is not None:
        g["clock"] = dict(game["clock"], **clock)
    g.update(patch)
    return g


class EventStream:
    """GET /api/games/ID/events (with a player's token or headers: a player's stream), read
    event by event; patches are applied to the game of the stream's first state."""

    def __init__(self, server, game_id, timeout, token=None, headers=None):
        path = "/api/games/%s/events" % game_id + ("?token=%s" % token if token else "")
        req = urllib.request.Request(server.url(path), headers=dict(headers or {}))
        self.resp = urllib.request.urlopen(req, timeout=timeout)
        assert self.resp.status == 200, "events: status %d" % self.resp.status
        ctype = self.resp.headers.get("Content-Type", "")
        assert ctype.startswith("text/event-stream"), "events: content type %r" % ctype
        self.comments = 0
        self.game = None
        self.raw = None  # the last event: (name, data as sent, its bytes on the wire)

    def read(self):
        """The next event as (name, data decoded as JSON, its size in bytes as sent: "event:"
        and "data:" lines and the blank line); comments (keep-alives) are counted."""
        name, data, size = None, [], 0
        while True:
            line = self.resp.readline()
            assert line, "the event stream ended"
            size += len(line)
            line = line.decode("utf-8").rstrip("\r\n")
            if line == "":
                if name is None and not data:
                    size = 0
                    continue
                assert len(data) == 1, "an event's data must be one line, got %d" % len(data)
                return name, json.loads(data[0]), size
            if line.startswith(":"):
                self.comments += 1
                size -= len(line) + 1
            elif line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data.append(line[6:])

    def next(self):
        """The next event as (name, the game after it: a state's, or a patch applied)."""
        name, data, size = self.read()
        self.raw = (name, data, size)
        assert name in ("state", "patch"), "unexpected event %r" % name
        if name == "state":
            self.game = data
        else:
            assert self.game is not None, "a patch before the first state"
            self.game = apply_patch(self.game, data)
        return name, self.game

    def until(self, predicate, limit=50):
        """Reads events until predicate(game) holds; returns that game."""
        for _ in range(limit):
            _, game = self.next()
            if predicate(game):
                return game
        raise AssertionError("no matching event among %d" % limit)

    def close(self):
        self.resp.close()


def read_response(sock, timeout=10):
    """One HTTP response (with a Content-Length) read from a raw socket: (status, head text, body,
    closed), closed saying whether the server closed the connection after it; (None, "", b"",
    True) when it closed without a response."""
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None, "", b"", True
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = [int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")]
    while length and len(body) < length[0]:
        body += sock.recv(65536)
    sock.settimeout(1)
    try:
        closed = sock.recv(1) == b""
    except socket.timeout:
        closed = False
    return int(head.split()[1]), head.decode("latin-1"), body, closed


FAULTS_SHIM = os.path.join(REPO_ROOT, "build", "faults.so")


def faults_env(kind, **more):
    """The environment that preloads build/faults.so (tests/api/faults.c) with FAULTS=kind."""
    assert os.path.exists(FAULTS_SHIM), "build it: make build/faults.so"
    return dict({"LD_PRELOAD": FAULTS_SHIM, "FAULTS": kind}, **more)


class Faults:
    """Turns the shim's failures in a server on (SIGUSR1) and off (SIGUSR2), each call
    returning once the signal has been delivered (it no longer shows as pending)."""

    def __init__(self, server):
        self.pid = server.proc.pid

    def signal(self, sig):
        os.kill(self.pid, sig)
        bit = 1 << (sig - 1)
        deadline = time.time() + 5
        while time.time() < deadline:
            with open("/proc/%d/status" % self.pid) as f:
                pending = [int(l.split()[1], 16) for l in f if l.startswith(("ShdPnd:", "SigPnd:"))]
            if not any(p & bit for p in pending):
                return
            time.sleep(0.001)
        raise AssertionError("signal %d was not delivered within 5 s" % sig)

    def short(self):
        self.signal(signal.SIGUSR1)

    def back(self):
        self.signal(signal.SIGUSR2)


_shared = {}


def shared():
    """The server shared by the tests that need no server of their own (one per binary)."""
    key = (binary(), backend())
    s = _shared.get(key)
    if s is None or not s.running():
        s = Server()
        _shared[key] = s
    return s


def stop_shared():
    """Stops the shared server of the current binary cleanly; returns it (or None)."""
    s = _shared.pop((binary(), backend()), None)
    if s is not None:
        s.stop()
    return s


def other(side):
    return "black" if side == "white" else "white"


def moves_of(game):
    return [m["uci"] for m in game["moves"]]


@atexit.register
def _stop_all():
    for s in _running + _postgres:
        try:
            s.cleanup() if isinstance(s, Server) else s.stop()
        except Exception:  # at exit, nothing more to do about it
            pass
