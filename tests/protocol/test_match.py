"""`starfish match`: games between two UCI engines, adjudicated by the rules core.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
The engines are the binary under test (with the Greedy option, so games are quick) and small
shell scripts that misbehave: they exit, answer garbage, play illegal moves, hang or dawdle.
"""
import os
import re
import shlex
import stat
import subprocess
import tempfile

from harness import binary

VARIANTS = ["chess", "starvation", "square-says", "square-says-reversed", "starchess", "starchess-ludii",
            "megastar"]

# A fake engine: `fake.sh MODE`.  It completes the handshake and answers `isready`; on `go`:
#   illegal: e2e5 (never legal in the start position or after it)  garbage: an unreadable move
#   empty: `bestmove` with no move  die: exits  hang: says nothing  slow: a2a3 after 0.4 s
FAKE_ENGINE = """#!/bin/sh
mode=$1
while read line; do
  case "$line" in
    uci) echo "id name fake $mode"; echo "option name Hash type spin default 1 min 1 max 1"; echo uciok;;
    isready) echo readyok;;
    go*) case $mode in
           illegal) echo "info depth 1"; echo "bestmove e2e5";;
           garbage) echo "bestmove xyzzy!";;
           empty) echo "bestmove";;
           die) exit 3;;
           hang) ;;
           slow) sleep 0.4; echo "bestmove a2a3";;
         esac;;
    quit) exit 0;;
  esac
done
"""

_tmp = tempfile.mkdtemp(prefix="starfish-match-test-")


def fake(mode):
    path = os.path.join(_tmp, "fake.sh")
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(FAKE_ENGINE)
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return "%s %s" % (shlex.quote(path), mode)


def engine():
    return shlex.quote(binary())


def match(args, timeout=120):
    """Runs `starfish match ARGS`; returns (exit status, stdout, stderr)."""
    proc = subprocess.run([binary(), "match"] + [str(a) for a in args], stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return (proc.returncode, proc.stdout.decode("utf-8", errors="replace"),
            proc.stderr.decode("utf-8", errors="replace"))


def match_ok(args, timeout=120):
    code, out, err = match(args, timeout)
    assert code == 0, "match %r: exit status %d\nstdout: %s\nstderr: %s" % (args, code, out[-2000:], err[-2000:])
    return out


def wdl(out):
    """The summary's W-D-L (engine 1's wins, draws, losses)."""
    m = re.search(r"^W-D-L: (\d+)-(\d+)-(\d+) ", out, re.M)
    assert m, "no 'W-D-L: W-D-L' line in the summary:\n%s" % out
    return tuple(int(x) for x in m.groups())


def read_pgn(path):
    """The games of a PGN file: a list of ({tag: value}, movetext)."""
    with open(path) as f:
        text = f.read()
    games = []
    for chunk in re.split(r"\n(?=\[Event )", text.strip()):
        if not chunk.strip():
            continue
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', chunk, re.M))
        head, _, moves = chunk.partition("\n\n")
        games.append((tags, moves.strip()))
    return games


def pgn_path(name):
    return os.path.join(_tmp, name + ".pgn")


def check_result_count(out, games):
    w, d, l = wdl(out)
    assert w + d + l == games, "W-D-L %d-%d-%d does not add up to %d games:\n%s" % (w, d, l, games, out)
    per_game = re.findall(r"^Game (\d+) ", out, re.M)
    assert len(per_game) == games, "expected one line per game (stdout is not a terminal):\n%s" % out
    return w, d, l


def test_greedy_games_in_every_variant():
    for i, variant in enumerate(VARIANTS):
        games = 4 if variant in ("chess", "starchess") else 2
        path = pgn_path("greedy-" + variant)
        out = match_ok(["--engine1", engine(), "--engine2", engine(), "--name1", "One", "--name2", "Two",
                        "--option1", "Greedy=true", "--option2", "Greedy=true", "--variant", variant,
                        "--games", games, "--movetime", 20, "--seed", 100 + i, "--pgn", path,
                        "--max-plies", 60 if variant == "megastar" else 160,  # megastar is slow under ASan
                        "--concurrency", 2 if variant == "chess" else 1])
        w, d, l = check_result_count(out, games)
        records = read_pgn(path)
        assert len(records) == games, "%s: %d games in the PGN, expected %d" % (variant, len(records), games)
        score = {"One": 0.0, "Two": 0.0}
        for tags, moves in sorted(records, key=lambda r: int(r[0]["Round"])):
            rnd = int(tags["Round"])
            assert tags["Variant"] == variant, "%s: Variant tag %r" % (variant, tags.get("Variant"))
            white, black = ("One", "Two") if rnd % 2 == 1 else ("Two", "One")
            assert (tags["White"], tags["Black"]) == (white, black), \
                "%s round %d: colours do not alternate: %r" % (variant, rnd, tags)
            assert tags["Result"] in ("1-0", "0-1", "1/2-1/2"), "%s: result %r" % (variant, tags["Result"])
            assert tags.get("Termination"), "%s round %d: no Termination tag" % (variant, rnd)
            assert moves.endswith(tags["Result"]), "%s: movetext must end with the result" % variant
            r = tags["Result"]
            score[white] += 1.0 if r == "1-0" else 0.5 if r == "1/2-1/2" else 0.0
            score[black] += 1.0 if r == "0-1" else 0.5 if r == "1/2-1/2" else 0.0
        assert score["One"] == w + 0.5 * d and score["Two"] == l + 0.5 * d, \
            "%s: the summary %r disagrees with the PGN's results %r" % (variant, (w, d, l), score)
        if variant.startswith("starchess"):
            # A random full setup: ten placements (five numbered I. to V.) before move 1.
            for tags, moves in records:
                setup = re.search(r"(?:^|\s)V\.\s", moves)
                first = re.search(r"(?:^|\s)1\.\s", moves)
                assert setup and (not first or setup.start() < first.start()), \
                    "%s: no full setup at the start of %r" % (variant, moves[:200])


def test_openings_are_played_twice_with_colours_swapped():
    path = pgn_path("pairs")
    match_ok(["--engine1", engine(), "--engine2", engine(), "--option1", "Greedy=true", "--option2",
              "Greedy=true", "--games", 4, "--openings", 6, "--seed", 5, "--pgn", path, "--movetime", 20])
    games = sorted(read_pgn(path), key=lambda r: int(r[0]["Round"]))
    first = [g[1].split()[:9] for g in games]  # "1. a b 2. c d 3. e f" = 6 plies
    assert first[0] == first[1] and first[2] == first[3], "each opening must be played twice: %r" % first
    assert first[0] != first[2], "two openings should differ: %r" % first
    assert games[0][0]["White"] == games[1][0]["Black"], "colours must be swapped within a pair"


def test_search_engine_against_greedy_and_max_plies():
    path = pgn_path("max-plies")
    out = match_ok(["--engine1", engine(), "--engine2", engine(), "--option2", "Greedy=true", "--games", 2,
                    "--movetime", 30, "--openings", 0, "--max-plies", 3, "--pgn", path])
    check_result_count(out, 2)
    assert "max-plies 2" in out, "both games should end at the ply limit:\n%s" % out
    for tags, moves in read_pgn(path):
        assert tags["Result"] == "1/2-1/2", "a chess game stopped at the ply limit is a draw: %r" % tags
        assert "max-plies" in tags["Termination"], "the Termination must say why: %r" % tags
        # No game can end by mate before ply 4, so three plies are always played.
        assert "2." in moves and "3." not in moves, "expected 3 plies: %r" % moves
    # The default names are the commands, numbered when they are the same.
    assert "%s (1)" % engine() in out and "%s (2)" % engine() in out, out


def test_engine_that_cannot_start_loses_every_game():
    path = pgn_path("exit")
    out = match_ok(["--engine1", engine(), "--engine2", 'sh -c "exit 1"', "--name2", 'The "Quitter"', "--option1",
                    "Greedy=true", "--games", 3, "--movetime", 20, "--pgn", path])
    assert check_result_count(out, 3) == (3, 0, 0), out
    assert "crash 3" in out, "the endings should be tallied as crashes:\n%s" % out
    games = read_pgn(path)
    assert len(games) == 3
    for tags, _ in games:
        loser = "White" if tags["Result"] == "0-1" else "Black"
        assert tags[loser] == 'The \\"Quitter\\"', "Quitter must lose (its name escaped): %r" % tags
        assert "Quitter" in tags["Termination"] and "exited" in tags["Termination"], tags
        assert '"' not in tags["Termination"], "a quote in a Termination tag: %r" % tags


def test_engine_that_crashes_mid_game_loses_and_is_restarted():
    path = pgn_path("die")
    out = match_ok(["--engine1", fake("die"), "--engine2", engine(), "--name1", "Dier", "--option2",
                    "Greedy=true", "--games", 2, "--movetime", 20, "--pgn", path])
    assert wdl(out) == (0, 0, 2), out
    for tags, moves in read_pgn(path):
        assert "crashed" in tags["Termination"] and "Dier" in tags["Termination"], tags
        # It crashed on its first move after the opening's 4 plies: it was running (restarted).
        assert "ply %d" % (5 if tags["White"] == "Dier" else 6) in tags["Termination"], tags


def test_illegal_unreadable_and_empty_moves_lose():
    for mode, expect in (("illegal", "illegal move 'e2e5'"), ("garbage", "xyzzy"), ("empty", "without a move")):
        path = pgn_path("bad-" + mode)
        out = match_ok(["--engine1", engine(), "--engine2", fake(mode), "--option1", "Greedy=true", "--games", 2,
                        "--movetime", 20, "--pgn", path])
        assert wdl(out) == (2, 0, 0), "%s: the misbehaving engine must lose both games:\n%s" % (mode, out)
        assert "illegal move 2" in out, "%s: ending not tallied:\n%s" % (mode, out)
        for tags, _ in read_pgn(path):
            assert expect in tags["Termination"], "%s: Termination %r" % (mode, tags["Termination"])


def test_no_answer_and_time_forfeit_lose():
    out = match_ok(["--engine1", fake("hang"), "--engine2", engine(), "--option2", "Greedy=true", "--games", 1,
                    "--movetime", 20])
    assert wdl(out) == (0, 0, 1) and "no answer 1" in out, out
    path = pgn_path("slow")
    out = match_ok(["--engine1", fake("slow"), "--engine2", engine(), "--option2", "Greedy=true", "--games", 1,
                    "--tc", "0.5+0", "--openings", 0, "--pgn", path])
    assert wdl(out) == (0, 0, 1) and "time forfeit 1" in out, out
    (tags, moves), = read_pgn(path)
    assert "lost on time" in tags["Termination"] and tags["Result"] == "0-1", tags
    assert tags["TimeControl"] == "0.5+0", tags


def test_sprt_reports_llr_and_verdict():
    out = match_ok(["--engine1", engine(), "--engine2", engine(), "--option1", "Greedy=true", "--option2",
                    "Greedy=true", "--games", 2, "--movetime", 20, "--sprt", 0, 10])
    assert re.search(r"LLR -?\d+\.\d+ \[-2\.94, 2\.94\]", out), "progress lines need the LLR:\n%s" % out
    m = re.search(r"^SPRT: .*LLR (-?\d+\.\d+), bounds \[(-?\d+\.\d+), (-?\d+\.\d+)\]: (.*)$", out, re.M)
    assert m, "no SPRT summary line:\n%s" % out
    llr, lower, upper, verdict = float(m.group(1)), float(m.group(2)), float(m.group(3)), m.group(4)
    assert abs(lower + 2.944) < 0.001 and abs(upper - 2.944) < 0.001, "bounds for alpha = beta = 0.05: %s" % m.group(0)
    assert verdict == "inconclusive" and lower < llr < upper, m.group(0)
    # Every game won against an engine that cannot start: H1 is accepted and the match stops early.
    out = match_ok(["--engine1", engine(), "--engine2", "sh -c 'exit 1'", "--option1", "Greedy=true",
                    "--games", 100, "--sprt", 0, 400, "--alpha", 0.1, "--beta", 0.1])
    assert re.search(r"^SPRT: .*: H1 accepted$", out, re.M), out
    w, d, l = wdl(out)
    assert d == l == 0 and 0 < w < 100, "the SPRT should stop the match early: %r\n%s" % ((w, d, l), out)
    assert "stopped by the SPRT" in out, out
    out = match_ok(["--engine1", "sh -c 'exit 1'", "--engine2", engine(), "--option2", "Greedy=true",
                    "--games", 100, "--sprt", 0, 400])
    assert re.search(r"^SPRT: .*: H0 accepted$", out, re.M), out


def test_summary_has_score_and_elo():
    out = match_ok(["--engine1", engine(), "--engine2", "sh -c 'exit 1'", "--games", 2])
    assert re.search(r"^Score: 2\.0/2 = 100\.0%$", out, re.M), out
    assert re.search(r"^Elo difference: \+inf ", out, re.M), out
    out = match_ok(["--engine1", engine(), "--engine2", engine(), "--option1", "Greedy=true", "--option2",
                    "Greedy=true", "--games", 2, "--movetime", 20])
    assert re.search(r"^Elo difference: [-+]?(\d+\.\d|inf) \+/- (\d+\.\d|inf|n/a) \(95%\)$", out, re.M), out


def test_help():
    code, out, err = match(["--help"])
    assert code == 0 and "--engine1" in out and "--sprt" in out, (code, out, err)


def test_bad_arguments_exit_2():
    e = engine()
    cases = [
        ([], "--engine1"),
        (["--engine1", e], "--engine2"),
        (["--engine1", e, "--engine2", e, "--variant", "nosuch"], "nosuch"),
        (["--engine1", e, "--engine2", e, "--games", "0"], "'0'"),
        (["--engine1", e, "--engine2", e, "--games", "ten"], "ten"),
        (["--engine1", e, "--engine2", e, "--tc", "fast"], "fast"),
        (["--engine1", e, "--engine2", e, "--tc", "0+1"], "0+1"),
        (["--engine1", e, "--engine2", e, "--movetime", "-5"], "-5"),
        (["--engine1", e, "--engine2", e, "--tc", "1+0", "--movetime", "10"], "exclude"),
        (["--engine1", e, "--engine2", e, "--concurrency", "0"], "concurrency"),
        (["--engine1", e, "--engine2", e, "--option1", "Greedy"], "NAME=VALUE"),
        (["--engine1", e, "--engine2", e, "--sprt", "5", "0"], "ELO0 < ELO1"),
        (["--engine1", e, "--engine2", e, "--sprt", "5"], "needs 2 values"),
        (["--engine1", e, "--engine2", e, "--alpha", "0.7"], "0.7"),
        (["--engine1", e, "--engine2", e, "--seed", "x"], "seed"),
        (["--engine1", e, "--engine2", e, "--max-plies", "0"], "max-plies"),
        (["--engine1", e, "--engine2", e, "--frobnicate"], "--frobnicate"),
        (["--engine1", e, "--engine2", e, "stray"], "stray"),
        (["--engine1", e, "--engine2", e, "--games"], "needs a value"),
        (["--engine1", e, "--engine2", e, "--pgn", "/nonexistent-dir/x.pgn"], "/nonexistent-dir/x.pgn"),
    ]
    for args, expect in cases:
        code, out, err = match(args, timeout=20)
        assert code == 2, "%r: expected exit status 2, got %d (stdout %r, stderr %r)" % (args, code, out, err)
        assert out == "", "%r: nothing may go to stdout on an error: %r" % (args, out)
        lines = err.strip().split("\n")
        assert len(lines) == 1 and lines[0].startswith("starfish: match: "), "%r: one message: %r" % (args, err)
        assert expect in err, "%r: expected %r in %r" % (args, expect, err)
