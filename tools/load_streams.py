"""Many event streams: `tools/load_test.py --streams N [--instances K]` (`make
load-test-streams`: 50,000 on 3 instances).

Holds N event streams (GET /api/games/ID/events, real HTTP/1.1 requests, every event read)
spread over --stream-games chess games, then has players move in --players of the games for
--seconds.  First on one server (SQLite), as many streams as its open-file hard limit allows
(a process holds a socket per connection; raising the hard limit needs root with
CAP_SYS_RESOURCE: `ulimit -Hn`, or LimitNOFILE= in a systemd unit).  With K > 1, then on K
`starfish serve` instances sharing one database of a throw-away PostgreSQL cluster (the way
past one process's limit: docs/api.md, "Several instances"): every instance holds streams of
every game, the players move through the first, and the other instances hear of the moves
through PostgreSQL (relay.c).  The streams are read by event-driven client processes (epoll),
up to PER_PROCESS each and none for two instances, each from a loopback address of its own
(127.0.0.2, 127.0.0.3, ...) so that no address runs out of ephemeral ports; they run at a lower
priority (nice 10): they stand for clients on other machines.  Each move is timed from its
sending to the patch that brings it at every stream of its game (a patch may bring several):
when the reader read it, and when it reached the reader's socket (the kernel's timestamp,
SO_TIMESTAMPNS: the server's delay without the readers' own lag, when they fall behind).
A probe reads one played game (on the last instance) as a spectator and as each player, and
reports the size of each event as sent.

Reported, for each instance: its threads, its resident memory before and after the streams
opened (per stream), its CPU time while they opened and while the players moved, the delays
from a move to its patch, read and at the socket (median, 99th percentile); and the move round trip, the delay over
every instance, the events read, the event sizes, the machine's load.  Goals, each a failure
(exit status 1) when missed, in either part: every stream asked held and kept open, no failed
move, at most MAX_KIB_PER_STREAM resident per stream and load_test.MAX_THREADS threads in an
instance, a 99th percentile of the move round trip and of the delay to the patch read at the streams
under load_test.P99_LIMIT_MS (the delay at the socket is reported, not judged).  With K = 1 and N above one server's limit, the shortfall is a
failure too.  The other figures are reported, not judged.
"""
import array
import struct
import http.client
import math
import multiprocessing
import os
import re
import resource
import select
import socket
import statistics
import sys
import threading
import time

import load_test as lt

PER_PROCESS = 12500  # streams one reading process holds
SERVER_SPARE_FILES = 200  # a server's files besides its streams: listening socket, database, players, ...
CLIENT_SPARE_FILES = 100
MAX_KIB_PER_STREAM = 8
IP_BIND_ADDRESS_NO_PORT = getattr(socket, "IP_BIND_ADDRESS_NO_PORT", 24)
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)  # the kernel's time of a segment's arrival, read with it
COUNTS = 4  # per reading process: streams with their first event, events, streams ended, bytes
PATCH_N = re.compile(rb'data: \{"n":(\d+)')  # a patch's first field, its move count


def read_streams(port, paths, source, slot, counts, quit, arrivals):
    """One reading process: opens a stream for each (path, game) from the address `source`,
    then reads every stream as data comes (epoll), counting events until `quit`.  A patch of a
    played game (`game` >= 0) is noted with when it was read (time.monotonic, one clock for
    every process) and when it reached the socket (the kernel's timestamp of the last segment
    of the read, SO_TIMESTAMPNS, in the same clock): (game << 20 | its move count "n", time,
    time), once for each move it carries (n, n - 1, ...), put on `arrivals` at the end."""
    lt.raise_file_limit()
    os.nice(10)
    base = slot * COUNTS
    poll = select.epoll()
    conns = {}
    for path, game in paths:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_IP, IP_BIND_ADDRESS_NO_PORT, 1)  # the port is chosen by connect
        s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET %s HTTP/1.1\r\nHost: load\r\n\r\n" % path.encode())
        s.setblocking(False)
        poll.register(s.fileno(), select.EPOLLIN)
        conns[s.fileno()] = [s, False, b"", game]  # socket, first event seen, a line begun, game
    keys, times, arrived = array.array("q"), array.array("d"), array.array("d")
    buf = bytearray(65536)
    ancillary = socket.CMSG_SPACE(16)
    realtime = time.time() - time.monotonic()  # the kernel's timestamps are CLOCK_REALTIME
    while not quit.is_set():
        for fd, _ in poll.poll(0.2):
            conn = conns[fd]
            try:
                n, cmsgs, _, _ = conn[0].recvmsg_into([buf], ancillary)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                n, cmsgs = 0, []
            now = time.monotonic()
            came = now
            for level, kind, data in cmsgs:
                if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(data) >= 16:
                    sec, nsec = struct.unpack_from("qq", data)
                    came = min(now, sec + nsec / 1e9 - realtime)
            if not n:
                poll.unregister(fd)
                conn[0].close()
                del conns[fd]
                counts[base + 2] += 1
                continue
            data = conn[2] + bytes(buf[:n])
            whole = data.rfind(b"\n") + 1  # whole lines only: the rest waits for the next read
            lines, conn[2] = data[:whole], data[whole:]
            events = lines.count(b"event: ")
            if events and not conn[1]:
                conn[1] = True
                counts[base] += 1
            counts[base + 1] += events
            counts[base + 3] += n
            if conn[3] >= 0:
                for m in PATCH_N.finditer(lines):
                    # Each move the patch carries ("san" is in its moves alone): an instance that
                    # hears of moves through PostgreSQL may bring two or more in one patch.
                    n, carried = int(m.group(1)), lines.count(b'"san":', m.end(), lines.find(b"\n", m.end()))
                    for j in range(max(1, carried)):
                        keys.append(conn[3] << 20 | (n - j))
                        times.append(now)
                        arrived.append(came)
    for conn in conns.values():
        conn[0].close()
    arrivals.put((slot, keys.tobytes(), times.tobytes(), arrived.tobytes()))


class Streams:
    """Many event streams, held and read by child processes (read_streams); the first `played`
    games' patches are timed.  Stream i watches game i % G (G games) on instance (i // G) % K
    (K ports): every instance has streams of every game.  An instance's streams are split over
    as few reading processes as `per_process` allows, each from a loopback address of its own."""

    def __init__(self, ports, game_ids, played, count, per_process):
        per_instance = [[] for _ in ports]
        for i in range(count):
            g = i % len(game_ids)
            per_instance[(i // len(game_ids)) % len(ports)].append(
                ("/api/games/%s/events" % game_ids[g], g if g < played else -1))
        self.asked = [len(paths) for paths in per_instance]
        self.jobs = []  # (instance, its streams' paths), one a reading process
        for k, paths in enumerate(per_instance):
            n = max(1, math.ceil(len(paths) / per_process))
            self.jobs += [(k, paths[j::n]) for j in range(n)]
        self.procs = len(self.jobs)
        self.counts = multiprocessing.Array("q", COUNTS * self.procs, lock=False)
        self.quit = multiprocessing.Event()
        self.arrivals = multiprocessing.Queue()
        self.game_ids = game_ids
        self.children = [multiprocessing.Process(target=read_streams, args=(
            ports[k], paths, "127.0.0.%d" % (2 + slot), slot, self.counts, self.quit, self.arrivals))
            for slot, (k, paths) in enumerate(self.jobs)]
        for child in self.children:
            child.start()

    def total(self, i, instance=None):
        return sum(self.counts[slot * COUNTS + i] for slot, (k, _) in enumerate(self.jobs)
                   if instance is None or k == instance)

    first = property(lambda self: self.total(0))
    events = property(lambda self: self.total(1))
    closed = property(lambda self: self.total(2))
    bytes = property(lambda self: self.total(3))

    def wait_first(self, count, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline and self.first < count and all(c.is_alive() for c in self.children):
            time.sleep(0.2)
        return self.first >= count

    def close(self, sent):
        """Stops the readers; for each instance, the delays from each move's sending (`sent`:
        (game id, n) -> time) to its patch read at every stream of that instance, sorted, the
        same to its patch's arrival at the stream's socket; and how many patches no move sent."""
        self.quit.set()
        delays, at_socket, unmatched = [[] for _ in self.asked], [[] for _ in self.asked], 0
        for _ in self.children:
            keys, times, arrived = array.array("q"), array.array("d"), array.array("d")
            slot, raw_keys, raw_times, raw_arrived = self.arrivals.get(timeout=120)
            keys.frombytes(raw_keys)
            times.frombytes(raw_times)
            arrived.frombytes(raw_arrived)
            into, into_socket = delays[self.jobs[slot][0]], at_socket[self.jobs[slot][0]]
            for key, at, came in zip(keys, times, arrived):
                start = sent.get((self.game_ids[key >> 20], key & 0xFFFFF))
                if start is None:
                    unmatched += 1
                else:
                    into.append(at - start)
                    into_socket.append(came - start)
        for child in self.children:
            child.join(30)
        return [sorted(d) for d in delays], [sorted(d) for d in at_socket], unmatched


class Probe(threading.Thread):
    """One game read by a spectator and by each player (their tokens): every event's size as
    sent ("event:" and "data:" lines and the blank line), its name, and whether it carries
    legal moves."""

    def __init__(self, port, game_id, tokens, deadline):
        super().__init__(daemon=True)
        self.readers = {}
        for who, token in (("spectator", None), ("white", tokens["white"]), ("black", tokens["black"])):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/api/games/%s/events%s" % (game_id, "?token=" + token if token else ""))
            self.readers[who] = (conn, conn.getresponse())
        self.deadline = deadline
        self.events = {who: [] for who in self.readers}

    def run(self):
        threads = [threading.Thread(target=self.read, args=(who,), daemon=True) for who in self.readers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    def read(self, who):
        conn, resp = self.readers[who]
        name, size, legal = None, 0, False
        try:
            while time.time() < self.deadline:
                line = resp.readline()
                if not line:
                    break
                size += len(line)
                if line.startswith(b"event: "):
                    name = line[7:].strip().decode()
                elif line.startswith(b"data: "):
                    legal = b'"legal":[{' in line
                elif line == b"\n" and name:
                    self.events[who].append((name, size, legal))
                    name, size, legal = None, 0, False
                elif line == b"\n":
                    size = 0
        except (TimeoutError, OSError):
            pass  # a quiet stream times out at the end
        finally:
            conn.close()

    def report(self):
        def figures(what, sizes):
            if not sizes:
                return "%s: none" % what
            return "%s: mean %.0f, max %d bytes (%d)" % (what, statistics.mean(sizes), max(sizes), len(sizes))
        later = {who: ev[1:] for who, ev in self.events.items()}  # the events after each stream's first
        spectator = [size for _, size, _ in later["spectator"]]
        mover = [size for who in ("white", "black") for _, size, legal in later[who] if legal]
        waiting = [size for who in ("white", "black") for _, size, legal in later[who] if not legal]
        first = [ev[0][1] for ev in self.events.values() if ev]
        print("event sizes as sent (chess), after the first: " + "; ".join([
            figures("spectator's", spectator), figures("a player's with legal moves", mover),
            figures("a player's without", waiting)]) + "; " + figures("first event", first))


def cpu_seconds(pid):
    """The process's user and system CPU time so far."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def file_limit():
    """How many streams this machine's open-file hard limit lets one server hold, and how many
    a reading process may hold."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    return hard - SERVER_SPARE_FILES, min(PER_PROCESS, hard - CLIENT_SPARE_FILES)


def percentiles(what, values):
    """A line of `what`'s median, 99th percentile and maximum (values: sorted seconds); the 99th."""
    if not values:
        print("%s: none" % what)
        return 0
    p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
    print("%s: median %.1f ms, p99 %.1f ms, max %.1f ms (%d)" % (
        what, statistics.median(values) * 1000, p99 * 1000, values[-1] * 1000, len(values)))
    return p99


def open_streams(args, servers, games, count, per_process):
    """The streams opened on `servers` and their first events read: the streams and a dict of
    the figures (per stream and threads: the largest of any instance)."""
    before = [(s.rss_kib(), s.threads(), cpu_seconds(s.proc.pid)) for s in servers]
    started = time.time()
    streams = Streams([s.port for s in servers], [g[0] for g in games], args.players, count, per_process)
    ok = streams.wait_first(count, 300 + count / 100)
    opened = time.time() - started
    per_stream, threads, total_rss = [], [], 0
    for k, server in enumerate(servers):
        _, health = lt.request(server.port, "GET", "/api/health")
        rss, thr, asked = server.rss_kib(), server.threads(), streams.asked[k]
        per_stream.append((rss - before[k][0]) / max(1, asked))
        threads.append(thr)
        total_rss += rss
        ok = ok and health["event_streams"] >= asked
        print("instance %d (pid %d): %d of %d streams open (first event read), the instance counts %d; threads %d -> %d;"
              " resident %.1f -> %.1f MiB, %.2f KiB per stream; CPU %.1f s while they opened" % (
                  k, server.proc.pid, streams.total(0, k), asked, health["event_streams"], before[k][1], thr,
                  before[k][0] / 1024, rss / 1024, per_stream[-1], cpu_seconds(server.proc.pid) - before[k][2]))
    print("%d of %d streams open on %d instance%s, read by %d processes, in %.1f s; resident in all %.1f MiB" % (
        streams.first, count, len(servers), "s" if len(servers) > 1 else "", streams.procs, opened, total_rss / 1024))
    return streams, dict(ok=ok, per_stream=max(per_stream), threads=max(threads))


def play_watched(args, servers, games, streams):
    """Players move in the first args.players games, all through the first instance, while the
    streams read; a spectator and both players of the first of them probed on the last
    instance.  A dict of the figures."""
    played = games[:args.players]
    probe = Probe(servers[-1].port, played[0][0], {"white": played[0][1], "black": played[0][2]},
                  time.time() + args.seconds)
    probe.start()
    stats = lt.Stats()
    events_before, bytes_before = streams.events, streams.bytes
    instance_events = [streams.total(1, k) for k in range(len(servers))]
    cpu_before = [cpu_seconds(s.proc.pid) for s in servers]
    elapsed = lt.play(servers[0].port, played, args.moves, args.seconds, stats, args.pace)
    cpu = [cpu_seconds(s.proc.pid) - c for s, c in zip(servers, cpu_before)]
    threads = [s.threads() for s in servers]
    p99 = stats.report(elapsed)
    settled, last = time.time() + 10, -1  # the last moves' patches still on their way, relayed ones most
    while streams.events != last and time.time() < settled:
        last = streams.events
        time.sleep(1)
    events = streams.events - events_before
    instance_events = [streams.total(1, k) - e for k, e in enumerate(instance_events)]
    print("events read meanwhile: %d (%s%d streams a game), %.0f bytes each on the wire; streams ended by the server: "
          "%d; threads %s; CPU in %.1f s: %s" % (
              events, "%s by instance; " % ", ".join(map(str, instance_events)) if len(servers) > 1 else "",
              streams.first // len(games), (streams.bytes - bytes_before) / max(1, events), streams.closed,
              ", ".join(map(str, threads)), elapsed,
              ", ".join("instance %d %.1f s (%.0f%% of a core)" % (k, c, 100 * c / max(elapsed, 1e-9))
                        for k, c in enumerate(cpu))))
    probe.deadline = 0
    closed = streams.closed
    delays, at_socket, unmatched = streams.close(stats.sent)
    if len(servers) > 1:
        for k in range(len(servers)):
            what = "instance %d (%s): from a move's sending to the patch that brings it" % (
                k, "the moves' instance" if k == 0 else "relayed through PostgreSQL")
            percentiles(what + ", read at each of its streams", delays[k])
            percentiles(what + ", at each of its streams' sockets", at_socket[k])
    every = ", every instance" if len(servers) > 1 else ""
    stream_p99 = percentiles("from a move's sending to the patch that brings it, read at each stream of its game" + every,
                             sorted(d for each in delays for d in each))
    percentiles("the same, at the stream's socket (the kernel's time of arrival: without the readers' lag)" + every,
                sorted(d for each in at_socket for d in each))
    print("patches read that no move brought (the probe's players arriving): %d" % unmatched)
    probe.join(10)
    print("(probed on instance %d) " % (len(servers) - 1) if len(servers) > 1 else "", end="")
    probe.report()
    return dict(errors=len(stats.errors), closed=closed, threads=max(threads), p99=p99, stream_p99=stream_p99)


def phase(args, servers, count, per_process):
    """`count` streams on `servers` (every instance streams every game), moves meanwhile; the
    goals it misses."""
    for k, server in enumerate(servers):
        print("instance %d: pid %d, threads %d, resident %.1f MiB" % (
            k, server.proc.pid, server.threads(), server.rss_kib() / 1024))
    print("load average %.2f %.2f %.2f" % os.getloadavg())
    games = lt.create_games(servers[0].port, args.stream_games, rng_variants=False)
    for server in servers[1:]:  # the games created on the first instance, known to the others
        deadline = time.time() + 30
        while lt.request(server.port, "GET", "/api/games/%s" % games[-1][0])[0] != 200 and time.time() < deadline:
            time.sleep(0.2)
    streams, held = open_streams(args, servers, games, count, per_process)
    moved = play_watched(args, servers, games, streams)
    print("load average at the end: %.2f %.2f %.2f" % os.getloadavg())
    failures = []
    if not held["ok"] or moved["closed"]:
        failures.append("not every stream stayed open")
    if moved["errors"]:
        failures.append("moves failed")
    if held["per_stream"] > MAX_KIB_PER_STREAM:
        failures.append("%.2f KiB resident per stream > %d" % (held["per_stream"], MAX_KIB_PER_STREAM))
    if max(held["threads"], moved["threads"]) > lt.MAX_THREADS:
        failures.append("more than %d threads in an instance" % lt.MAX_THREADS)
    for what, p99 in (("the move round trip", moved["p99"]), ("a move to its patch at the streams", moved["stream_p99"])):
        if p99 * 1000 >= lt.P99_LIMIT_MS:
            failures.append("p99 of %s %.1f ms >= %d ms" % (what, p99 * 1000, lt.P99_LIMIT_MS))
    return failures


def postgres():
    """A throw-away PostgreSQL cluster (tests/api/api_harness.py's, as `make test-scale` uses)."""
    sys.path.insert(0, os.path.join(lt.ROOT, "tests", "api"))
    import api_harness
    return api_harness.Postgres()


def main(args):
    """--streams N on one server, or, with --instances K > 1, first on one server as far as its
    open-file limit allows, then on K instances sharing a PostgreSQL database; 1 when a goal
    is missed."""
    most, per_process = file_limit()
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    print("open-file hard limit %d (a process's): one server holds at most %d streams, a reading process %d; "
          "load average %.2f %.2f %.2f" % (hard, most, per_process, *os.getloadavg()))
    failures = []
    single = min(args.streams, most)
    if args.instances == 1 and single < args.streams:
        print("one server process can hold at most %d streams, not %d (raise the hard limit, which needs root: "
              "`ulimit -Hn %d`, or LimitNOFILE= in a systemd unit; or --instances); testing %d" % (
                  most, args.streams, args.streams + SERVER_SPARE_FILES, single))
        failures.append("%d streams asked, the open-file hard limit allowed %d" % (args.streams, single))
    print("== one server (SQLite): %d streams%s" % (single, ", its open-file limit" if single < args.streams else ""))
    server = lt.Server(args.binary)
    try:
        failures += ["one server: " + f for f in phase(args, [server], single, per_process)]
    finally:
        server.stop()
    if args.instances > 1:
        count = min(args.streams, most * args.instances)
        if count < args.streams:
            failures.append("%d streams asked of %d instances, the open-file hard limit allowed %d" % (
                args.streams, args.instances, count))
        print("== %d instances on one PostgreSQL database: %d streams, about %d an instance; moves through instance 0" % (
            args.instances, count, count // args.instances))
        pg = postgres()
        servers = []
        try:
            db = pg.new_database()
            for _ in range(args.instances):
                servers.append(lt.Server(args.binary, db=db))
            failures += ["%d instances: %s" % (args.instances, f) for f in phase(args, servers, count, per_process)]
        finally:
            for server in servers:
                server.stop()
            pg.stop()
    print("goals (a failure when missed): every stream asked held and kept, no failed move, at most %d KiB resident a "
          "stream and %d threads an instance, p99 of the move round trip and of a move to its patch under %d ms; "
          "the other figures are reported" % (MAX_KIB_PER_STREAM, lt.MAX_THREADS, lt.P99_LIMIT_MS))
    print("FAILED: " + "; ".join(failures) if failures else "passed")
    return 1 if failures else 0
