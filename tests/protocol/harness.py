"""Helpers that drive the real starfish binary.

The binary is $STARFISH_BIN, or ./starfish at the repository root (two directories up from
this file).  Output is split on '\\n' only, so that stray control bytes echoed in an error
message (form feeds, vertical tabs, ...) never look like extra lines.
"""
import contextlib
import os
import select
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/
from testbin import REPO_ROOT, binary, time_scale, wait_for  # noqa: E402,F401  (used by the tests as harness.*)


def sanitized():
    """Is the binary under test the ASan+UBSan build?  Tests of the default build itself (make's
    targets, build/release) return at once then: that pass would only repeat them."""
    return os.path.join("asan", "starfish") in binary()


# A search timed by the wall clock says something about the engine only if the engine had the
# CPU.  A try during which the machine's CPUs were contended (the kernel's pressure stall
# information says some task waited for a CPU for more than STALLED_SHARE of the time; without
# it, a load average above the number of CPUs) is tried again, at most STARVED_TRIES times,
# instead of counted; a case starved every time is not judged, and a test fails if it could
# judge fewer than JUDGED_SHARE of its cases.  On an idle machine every late search counts.
STALLED_SHARE = 0.1
STARVED_TRIES = 20
JUDGED_SHARE = 0.9


def cpu_stall_seconds():
    """Seconds some task has waited for a CPU since boot (/proc/pressure/cpu), or None."""
    try:
        with open("/proc/pressure/cpu") as f:
            some = f.readline().split()
    except OSError:
        return None
    return int(some[-1].split("=")[1]) / 1e6


class Session:
    """A UCI session kept open across commands: send lines, read until a line starting with
    a prefix, with the arrival time (seconds, monotonic) of every line read."""

    def __init__(self, variant=None):
        self.proc = subprocess.Popen([binary()], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.pending = b""
        if variant:
            self.send("setoption name UCI_Variant value " + variant)
            self.read_until("info string variant")

    def send(self, line):
        self.proc.stdin.write(_to_bytes(line) + b"\n")
        self.proc.stdin.flush()

    def read_until(self, prefix, timeout=60):
        """[(time, line), ...] up to and including the first line starting with prefix."""
        out, deadline = [], time.monotonic() + timeout
        while True:
            while b"\n" not in self.pending:
                left = deadline - time.monotonic()
                ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, left))
                assert ready, "no %r line within %.0f s; got %r" % (prefix, timeout, [l for _, l in out][-5:])
                data = os.read(self.proc.stdout.fileno(), 65536)
                assert data, "the engine exited; got %r" % ([l for _, l in out][-5:],)
                self.pending += data
            raw, _, self.pending = self.pending.partition(b"\n")
            line = raw.decode("utf-8", errors="replace").rstrip("\r")
            out.append((time.monotonic(), line))
            if line.startswith(prefix):
                return out

    def timed(self, attempt):
        """Runs attempt(session) -> (problem or None, wall seconds) until it succeeds, fails
        on an uncontended machine, or was starved STARVED_TRIES times.  Returns the problems
        seen (the last one decides) and whether every try was starved (then the case could
        not be judged)."""
        problems = []
        for _ in range(STARVED_TRIES):
            stall = cpu_stall_seconds()
            problem, wall = attempt(self)
            problems.append(problem)
            if stall is None:
                starved = os.getloadavg()[0] >= os.cpu_count()
            else:
                starved = cpu_stall_seconds() - stall > STALLED_SHARE * wall
            if problem is None or not starved:
                return problems, False
        return problems, True

    def search(self, setup, go, timeout=60):
        """Sends the setup lines, waits until the engine is ready, then sends `go`: the lines
        up to bestmove with their arrival times, and the time `go` was sent."""
        for line in setup:
            self.send(line)
        self.send("isready")
        self.lines_until("readyok")
        sent = time.monotonic()
        self.send(go)
        return self.read_until("bestmove", timeout), sent

    def lines_until(self, prefix, timeout=60):
        return [line for _, line in self.read_until(prefix, timeout)]

    def close(self):
        try:
            self.send("quit")
            self.proc.stdin.close()
            assert self.proc.wait(30) == 0, "UCI session exited with status %d" % self.proc.returncode
        finally:
            if self.proc.poll() is None:
                self.proc.kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def info_field(line, name):
    """The word after `name` in an `info` line, or None."""
    words = line.split()
    return words[words.index(name) + 1] if name in words[:-1] else None


def _to_bytes(line):
    return line if isinstance(line, bytes) else line.encode("utf-8")


def _lines(data):
    text = data.decode("utf-8", errors="replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def uci_raw(data, timeout=60):
    """Sends raw bytes to a UCI session; returns (returncode, stdout lines, stderr text)."""
    proc = subprocess.run([binary()], input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=timeout)
    return proc.returncode, _lines(proc.stdout), proc.stderr.decode("utf-8", errors="replace")


def uci(lines, timeout=60):
    """Starts the binary, sends each line (str or bytes) and then `quit`; returns stdout lines."""
    data = b"".join(_to_bytes(line) + b"\n" for line in lines) + b"quit\n"
    code, out, err = uci_raw(data, timeout)
    assert code == 0, "UCI session exited with status %d\nstderr: %s\nstdout: %s" % (code, err, out)
    return out


def uci_search(lines, timeout=60, stderr=None):
    """Sends the lines (the last one a `go`), waits for `bestmove`, then quits; returns stdout
    lines (and appends what the engine wrote on stderr to the list `stderr`, when given).
    (uci() would send `quit` at once, which ends a running search.)"""
    return uci_until(lines, "bestmove", timeout, stderr)


def uci_perft(lines, timeout=60):
    """Sends the lines (the last one a `go perft`), waits for its total, then quits; returns
    stdout lines.  (uci() would send `quit` at once, which ends a running perft too.)"""
    return uci_until(lines, "Nodes searched", timeout)


def uci_until(lines, prefix, timeout=60, stderr=None):
    """Sends the lines, reads stdout up to the first line starting with prefix, then quits;
    returns the lines read (and appends what the engine wrote on stderr to the list `stderr`,
    when given)."""
    proc = subprocess.Popen([binary()], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        proc.stdin.write(b"".join(_to_bytes(line) + b"\n" for line in lines))
        proc.stdin.flush()
        out = []
        for raw in proc.stdout:
            out.append(raw.decode("utf-8", errors="replace").rstrip("\r\n"))
            if out[-1].startswith(prefix):
                break
        proc.stdin.write(b"quit\n")
        proc.stdin.close()
        assert proc.wait(timeout) == 0, "UCI session exited with status %d" % proc.returncode
        if stderr is not None:
            stderr.append(proc.stderr.read().decode("utf-8", errors="replace"))
        return out
    finally:
        if proc.poll() is None:
            proc.kill()


@contextlib.contextmanager
def running(args, stderr=subprocess.PIPE):
    """The binary run in the background with command-line arguments (stdout a pipe, stderr
    where told), for a test that signals it; killed if the test leaves it running."""
    proc = subprocess.Popen([binary()] + [str(a) for a in args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=stderr)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def cli(args, timeout=60):
    """Runs the binary with command-line arguments; returns (returncode, stdout, stderr)."""
    proc = subprocess.run([binary()] + [str(a) for a in args], stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return (proc.returncode, proc.stdout.decode("utf-8", errors="replace"),
            proc.stderr.decode("utf-8", errors="replace"))


def errors(lines):
    """The `info string error:` lines of an output."""
    return [line for line in lines if line.startswith("info string error:")]


def field(lines, name):
    """The value of the first `Name: value` line (as `d` prints them), or None."""
    prefix = name + ": "
    for line in lines:
        if line.startswith(prefix):
            return line[len(prefix):]
    return None


def parse_divide(lines):
    """Parses `go perft` / `starfish perft` output: ({move: count}, total, the lines after it).

    Checks the exact shape: `MOVE: COUNT` lines, one blank line, `Nodes searched: N`.
    """
    moves = {}
    i = 0
    while i < len(lines) and lines[i] != "":
        move, sep, count = lines[i].partition(": ")
        assert sep and move and " " not in move and count.isdigit(), \
            "bad divide line %r in %r" % (lines[i], lines)
        assert move not in moves, "move %r listed twice in %r" % (move, lines)
        moves[move] = int(count)
        i += 1
    assert i + 1 < len(lines), "no blank line and 'Nodes searched' after the moves: %r" % (lines,)
    assert lines[i] == "", "expected a blank line before 'Nodes searched': %r" % (lines,)
    total_line = lines[i + 1]
    assert total_line.startswith("Nodes searched: ") and total_line[16:].isdigit(), \
        "bad total line %r" % total_line
    total = int(total_line[16:])
    assert total == sum(moves.values()), \
        "Nodes searched %d is not the sum %d of the per-move counts" % (total, sum(moves.values()))
    return moves, total, lines[i + 2:]
