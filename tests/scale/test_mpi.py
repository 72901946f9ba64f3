"""Matches, tablebase generation and training positions spread over MPI ranks: `mpirun -n 2
starfish-mpi ...` (Open MPI from Debian, installed by tools/install-deps.sh; `make
starfish-mpi`), checked against what each rank says it did and against the same command in one
process (`starfish`).

These quick tests run in `make test` and `make test-scale`; test_mpi_tables.py (the 4-man
tables, minutes) only in `make test-scale`.  docs/deploy.md quotes the commands they run.
"""
import atexit
import filecmp
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "protocol"))
from test_match import MATE_IN_ONE, final, ptnml, read_pgn, wdl  # noqa: E402

STARFISH = os.path.join(ROOT, "starfish")
STARFISH_MPI = os.path.join(ROOT, "starfish-mpi")
# Two ranks even on a one-core machine (--oversubscribe); as root, Open MPI wants consent.
MPIRUN = ["mpirun", "--oversubscribe"] + (["--allow-run-as-root"] if os.geteuid() == 0 else [])

_tmp = tempfile.mkdtemp(prefix="starfish-mpi-test-")
atexit.register(shutil.rmtree, _tmp, True)  # the tables: 55 MB for 4 men


def run(cmd, timeout=300):
    """Runs cmd in a session of its own, from a scratch folder; on a time-out the whole session
    (mpirun, the ranks, their engines) is ended.  Returns (exit status, stdout, stderr, seconds)."""
    start = time.monotonic()
    proc = subprocess.Popen([str(a) for a in cmd], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, cwd=_tmp)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            out, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
        raise AssertionError("%r: no end within %d s\nstdout: %s\nstderr: %s" %
                             (cmd, timeout, out.decode()[-2000:], err.decode()[-2000:]))
    return proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), time.monotonic() - start


def mpirun(args, ranks=2, timeout=300):
    return run(MPIRUN + ["-n", ranks, STARFISH_MPI] + args, timeout)


def ok(result, what):
    code, out, err, _ = result
    assert code == 0, "%s: exit status %d\nstdout: %s\nstderr: %s" % (what, code, out[-3000:], err[-3000:])
    return out


RANK = re.compile(r"^Rank (\d+): (\d+) games, (\d+) - (\d+) - (\d+)$", re.M)


def ranks_played(out):
    """What each rank says it played, from rank 0's last lines: {rank: (wins, draws, losses)}."""
    return {int(m.group(1)): (int(m.group(3)), int(m.group(5)), int(m.group(4))) for m in RANK.finditer(out)}


def engine1_points(records):
    """Engine 1's points in the games of a PGN file (its name ends in "(1)")."""
    points = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (0.5, 0.5)}
    return sum(points[t["Result"]][0 if t["White"].endswith("(1)") else 1] for t, _ in records)


def test_match_on_two_ranks_merges_every_game():
    path = os.path.join(_tmp, "greedy.pgn")
    games = 24
    out = ok(mpirun(["match", "--engine1", STARFISH, "--engine2", STARFISH, "--option1", "Greedy=true", "--option2",
                     "Greedy=true", "--variant", "starchess", "--games", games, "--movetime", 10, "--seed", 3,
                     "--pgn", path]), "mpirun match")
    w, d, l = wdl(out)
    per_rank = ranks_played(out)
    assert sorted(per_rank) == [0, 1] and all(sum(r) > 0 for r in per_rank.values()), \
        "both ranks should play, and say so:\n%s" % out
    assert all(sum(r) % 2 == 0 for r in per_rank.values()), "both games of a pair on one rank:\n%s" % out
    summed = tuple(sum(r[i] for r in per_rank.values()) for i in range(3))
    assert w + d + l == games and summed == (w, d, l), \
        "rank 0's score %r is not the sum of the ranks' games %r:\n%s" % ((w, d, l), per_rank, out)
    assert sum(ptnml(out)) == games // 2, "every pair complete:\n%s" % out
    lines = re.findall(r"^Finished game (\d+) ", out, re.M)
    assert sorted(map(int, lines)) == list(range(1, games + 1)), "one line per game, from rank 0:\n%s" % out
    records = read_pgn(path)
    assert sorted(int(t["Round"]) for t, _ in records) == list(range(1, games + 1)), "every game once in the PGN"
    assert engine1_points(records) == w + d / 2, "the PGN's results disagree with the score %r" % ((w, d, l),)


def test_match_on_two_ranks_is_the_single_process_match():
    # Every opening is a mate in one, so every game's result is known: the same command in one
    # process (starfish, and starfish-mpi without mpirun) and on two ranks must agree game by game.
    book = os.path.join(_tmp, "mates.epd")
    with open(book, "w") as f:
        f.write("\n".join(MATE_IN_ONE) + "\n")
    args = ["match", "--engine1", STARFISH, "--engine2", STARFISH, "--games", 12, "--movetime", 50, "--openings",
            book, "--rating-interval", 0]
    runs = {}
    for label, cmd in (("starfish", [STARFISH]), ("starfish-mpi alone", [STARFISH_MPI]),
                       ("mpirun -n 2", MPIRUN + ["-n", 2, STARFISH_MPI])):
        path = os.path.join(_tmp, "mates-%d.pgn" % len(runs))
        out = ok(run(cmd + args + ["--pgn", path]), label)
        games = {int(t["Round"]): (t["White"], t["Black"], t["FEN"], t["Result"], moves)
                 for t, moves in read_pgn(path)}
        runs[label] = (final(out).split("\n")[1:5], games)
    reference = runs.pop("starfish")
    assert sorted(reference[1]) == list(range(1, 13)) and reference[0][1] == "Ptnml(0-2): [0, 0, 6, 0, 0]", reference
    for label, got in runs.items():
        assert got == reference, "%s differs from one process:\n%r\n%r" % (label, got, reference)


def test_gensfen_on_two_ranks_writes_the_single_process_file():
    # Games are the farm's tasks and rank 0 writes them in game order: the same file.
    args = ["gensfen", "starchess", "--positions", 400, "--nodes", 300, "--seed", 4]
    files = []
    for label, cmd in (("starfish", [STARFISH]), ("mpirun -n 2", MPIRUN + ["-n", 2, STARFISH_MPI]),
                       ("mpirun -n 2, 2 threads", MPIRUN + ["-n", 2, STARFISH_MPI])):
        files.append(os.path.join(_tmp, "positions-%d.sfpos" % len(files)))
        threads = ["--threads", 2] if "threads" in label else []
        out = ok(run(cmd + args + threads + ["--out", files[-1]]), label)
        assert "400 positions of starchess" in out, (label, out)
    assert filecmp.cmp(files[0], files[1], shallow=False) and filecmp.cmp(files[0], files[2], shallow=False), \
        "the ranks wrote another file than one process"
    assert os.path.getsize(files[0]) == 64 + 37 + 400 * 55


def test_one_rank_under_mpirun_prints_a_line_per_game():
    # mpirun gives its ranks a terminal even when its own output goes to a file: progress lines
    # redrawn in place (for a person watching) would garble it.
    out = ok(mpirun(["match", "--engine1", STARFISH, "--engine2", STARFISH, "--games", 2, "--nodes", 500], ranks=1),
             "mpirun -n 1 match")
    assert re.findall(r"^Finished game (\d+) ", out, re.M) == ["1", "2"] and "\r" not in out, repr(out)


# Engine 2 for the SPRT test: on rank 0 it cannot start (engine 1 wins at once, so the SPRT
# accepts H1 after a few pairs); on rank 1 it is a real engine in a slow game, which the
# stop must end.  OMPI_COMM_WORLD_RANK is Open MPI's name for the rank, inherited by engines.
RANK_ENGINE = """#!/bin/sh
if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then
  touch "%s"
  exec "%s"
fi
exit 1
"""


def test_sprt_stop_ends_every_rank():
    started = os.path.join(_tmp, "rank1-started")
    script = os.path.join(_tmp, "rank-engine.sh")
    with open(script, "w") as f:
        f.write(RANK_ENGINE % (started, STARFISH))
    os.chmod(script, 0o755)
    code, out, err, seconds = mpirun(["match", "--engine1", STARFISH, "--engine2", script, "--games", 1000,
                                      "--movetime", 1000, "--sprt", 0, 400, "--alpha", 0.1, "--beta", 0.1],
                                     timeout=120)
    assert code == 0, (code, out[-3000:], err[-3000:])
    assert "stopped by the SPRT" in out and re.search(r"^SPRT: H1 was accepted$", out, re.M), out
    assert os.path.exists(started), "rank 1 should have started a game:\n%s" % out
    per_rank = ranks_played(out)
    # Rank 1's game (a second a move) was abandoned: the match ended long before it could.
    assert per_rank.get(1) == (0, 0, 0) and sum(per_rank[0]) == sum(wdl(out)) > 0, out
    assert seconds < 30, "the stop took %.0f s to end every rank" % seconds
    left = subprocess.run(["pgrep", "-f", script], capture_output=True, text=True).stdout.split()
    assert not left, "engine processes left running: %r" % left


def generate(tables, ranks, folder, men):
    """`tb generate` into folder: one process (ranks 0) or mpirun; the output.  The 4-man tables
    take about a minute of a core on an idle machine, many more on a shared one: a generous
    limit."""
    args = ["tb", "generate", "--max-pieces", men, "--dir", folder, "--threads", 1]
    timeout = 1800
    return ok(run([STARFISH] + args, timeout) if ranks == 0 else mpirun(args, ranks, timeout),
              "tb generate %s" % tables)


def check_tables_match_one_process(men):
    single, spread = os.path.join(_tmp, "tb%d-single" % men), os.path.join(_tmp, "tb%d-mpi" % men)
    generate("in one process", 0, single, men)
    out = generate("on two ranks", 2, spread, men)
    names = sorted(os.listdir(single))
    assert names == sorted(os.listdir(spread)) and names, (names, os.listdir(spread))
    match, mismatch, errors = filecmp.cmpfiles(single, spread, names, shallow=False)
    assert not mismatch and not errors, "not byte-identical to one process: %r %r" % (mismatch, errors)
    built = re.findall(r"^(\w+) .* rank (\d)$", out, re.M)
    assert len(built) == len(names) and {r for _, r in built} == {"0", "1"}, "both ranks build tables:\n%s" % out
    code, vout, verr, _ = run([STARFISH, "tb", "verify", "--dir", spread, "--max-pieces", men, "--sample", 20000])
    assert code == 0 and "0 tables failed" in vout, (code, vout, verr)


def test_tablebases_3_men_on_two_ranks_equal_one_process():
    check_tables_match_one_process(3)


def test_tablebase_failure_stops_every_rank():
    blocked = os.path.join(_tmp, "not-a-folder")
    with open(blocked, "w") as f:
        f.write("a file where the tables' folder should be\n")
    code, out, err, _ = mpirun(["tb", "generate", "--max-pieces", 3, "--dir", blocked], timeout=120)
    # KvK, the table every other one needs, fails first: nothing else is tried on any rank.
    tried = re.findall(r"^(?:starfish|tablebase): .*$", err, re.M)
    assert code != 0 and len(tried) == 1 and "cannot write" in tried[0] and "KvK.stb" in tried[0], (code, out, err)
