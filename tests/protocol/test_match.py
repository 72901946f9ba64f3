"""`starfish match`: games between two UCI engines, adjudicated by the rules core, reported as
cutechess-cli and fastchess report them.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
The engines are the binary under test (with the Greedy option, so games are quick) and small
shell scripts that misbehave: they exit, answer garbage, play illegal moves, hang or dawdle,
or log the commands they are sent.
"""
import os
import re
import shlex
import signal
import stat
import subprocess
import tempfile

from harness import REPO_ROOT, binary, running, wait_for

VARIANTS = ["chess", "starvation", "square-says", "square-says-reversed", "starchess", "starchess-ludii",
            "megastar"]

# A fake engine: `fake.sh MODE [LOG]`.  It completes the handshake and answers `isready`; on `go`:
#   illegal: e2e5 (never legal in the start position or after it)  garbage: an unreadable move
#   empty: `bestmove` with no move  die: exits  hang: says nothing  slow: a2a3 after 0.4 s
#   log: appends the `go` line to the file LOG, then plays e2e5
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
           log) echo "$line" >> "$2"; echo "bestmove e2e5";;
         esac;;
    quit) exit 0;;
  esac
done
"""

_tmp = tempfile.mkdtemp(prefix="starfish-match-test-")


def fake(mode, log=None):
    path = os.path.join(_tmp, "fake.sh")
    if not os.path.exists(path):
        with open(path, "w") as f:
            f.write(FAKE_ENGINE)
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return "%s %s%s" % (shlex.quote(path), mode, " " + shlex.quote(log) if log else "")


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


SCORE = re.compile(r"^Score of (.+) vs (.+): (\d+) - (\d+) - (\d+)  \[(\d\.\d{3})\] (\d+)$", re.M)
PTNML = re.compile(r"^Ptnml\(0-2\): \[(\d+), (\d+), (\d+), (\d+), (\d+)\]$", re.M)
ELO = re.compile(r"^Elo difference: (-?\d+\.\d|-?inf|nan) \+/- (\d+\.\d|inf|nan), LOS: (\d+\.\d) %, "
                 r"DrawRatio: (\d+\.\d) %$", re.M)
LLR = re.compile(r"^LLR: (-?\d+\.\d\d) \((-?\d+\.\d\d), (-?\d+\.\d\d)\) \[(-?\d+\.\d\d), (-?\d+\.\d\d)\]$", re.M)


def final(out):
    """The final summary: the lines after the closing `Match: ... played` line."""
    head, sep, tail = out.rpartition("\nMatch: ")
    assert sep, "no final summary:\n%s" % out
    return tail


def wdl(out):
    """The final summary's W-D-L (engine 1's wins, draws, losses), from its `Score of` line
    (cutechess-cli's order: wins - losses - draws)."""
    m = SCORE.search(final(out))
    assert m, "no 'Score of A vs B: W - L - D  [score] N' line in the summary:\n%s" % out
    w, l, d, n = int(m.group(3)), int(m.group(4)), int(m.group(5)), int(m.group(7))
    assert n == w + l + d and abs(float(m.group(6)) - (w + d / 2) / max(n, 1)) < 0.0006, m.group(0)
    return w, d, l


def ptnml(out):
    m = PTNML.search(final(out))
    assert m, "no 'Ptnml(0-2): [..]' line in the summary:\n%s" % out
    return [int(x) for x in m.groups()]


def read_pgn(path, notes=False):
    """The games of a PGN file: a list of ({tag: value}, movetext), the movetext without its
    comments (the runner's scores and times differ from run to run), or with them (notes)."""
    with open(path) as f:
        text = f.read()
    games = []
    for chunk in re.split(r"\n(?=\[Event )", text.strip()):
        if not chunk.strip():
            continue
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$', chunk, re.M))
        head, _, moves = chunk.partition("\n\n")
        if not notes:
            moves = re.sub(r"\s*\{[^}]*\}", "", moves)
        games.append((tags, moves.strip()))
    return games


def pgn_path(name):
    return os.path.join(_tmp, name + ".pgn")


def check_result_count(out, games):
    w, d, l = wdl(out)
    assert w + d + l == games, "W-D-L %d-%d-%d does not add up to %d games:\n%s" % (w, d, l, games, out)
    per_game = re.findall(r"^Finished game (\d+) \(.+ vs .+\): (1-0|0-1|1/2-1/2) \{.+\}$", out, re.M)
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


# The runner's comment on each engine move, as cutechess-cli writes it: the mover's score in
# pawns (or moves to mate) and depth from its last info line, then the seconds it took.
NOTE = re.compile(r"^([+-](?:\d+\.\d\d|M\d+))/(\d+) (\d+\.\d{3})s$")


def test_pgn_comments_give_each_moves_score_depth_and_time():
    path = pgn_path("notes")
    match_ok(["--engine1", engine(), "--engine2", engine(), "--games", 2, "--tc", "2+0.05", "--openings", 0,
              "--max-plies", 16, "--pgn", path])
    for tags, movetext in read_pgn(path, notes=True):
        tokens = re.findall(r"\{[^}]*\}|[^\s{]+", movetext)
        moves = [t for t in tokens[:-1] if not t.startswith("{") and not re.match(r"^\d+\.(\.\.)?$", t)]
        notes = [t[1:-1] for t in tokens if t.startswith("{")]
        assert len(moves) == 16 and len(notes) == 16, "a comment after each of the 16 moves: %r" % movetext
        spent = [0.0, 0.0]
        for ply, note in enumerate(notes):
            m = NOTE.match(note)
            assert m, "ply %d: comment %r is not {score/depth seconds}" % (ply + 1, note)
            assert int(m.group(2)) >= 1, "ply %d: a search of depth 0: %r" % (ply + 1, note)
            spent[ply % 2] += float(m.group(3))
        # Each side's times fit its clock: 2 s and 0.05 s a move (8 moves each), within a second.
        assert all(0 < t < 2 + 8 * 0.05 + 1 for t in spent), "times %r do not fit the clock: %r" % (spent, movetext)
        assert re.search(r"\} 1\.\.\. \S+ \{", movetext), "a move after a comment carries its number: %r" % movetext


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
    m = LLR.search(final(out))
    assert m, "no 'LLR: llr (lower, upper) [elo0, elo1]' line in the summary:\n%s" % out
    llr, lower, upper = float(m.group(1)), float(m.group(2)), float(m.group(3))
    assert (lower, upper) == (-2.94, 2.94), "bounds for alpha = beta = 0.05: %s" % m.group(0)
    assert (m.group(4), m.group(5)) == ("0.00", "10.00"), m.group(0)
    assert lower < llr < upper and re.search(r"^SPRT: inconclusive$", out, re.M), out
    # Every game won against an engine that cannot start: H1 is accepted and the match stops early.
    out = match_ok(["--engine1", engine(), "--engine2", "sh -c 'exit 1'", "--option1", "Greedy=true",
                    "--games", 100, "--sprt", 0, 400, "--alpha", 0.1, "--beta", 0.1])
    assert re.search(r"^SPRT: H1 was accepted$", out, re.M), out
    w, d, l = wdl(out)
    assert d == l == 0 and 0 < w < 100, "the SPRT should stop the match early: %r\n%s" % ((w, d, l), out)
    assert "stopped by the SPRT" in out, out
    out = match_ok(["--engine1", "sh -c 'exit 1'", "--engine2", engine(), "--option2", "Greedy=true",
                    "--games", 100, "--sprt", 0, 400])
    assert re.search(r"^SPRT: H0 was accepted$", out, re.M), out


def test_summary_has_score_and_elo():
    out = match_ok(["--engine1", engine(), "--engine2", "sh -c 'exit 1'", "--games", 2, "--name1", "A", "--name2", "B"])
    summary = final(out)
    assert "\nScore of A vs B: 2 - 0 - 0  [1.000] 2\n" in summary, out
    assert "\nPtnml(0-2): [0, 0, 0, 0, 1]\n" in summary, out
    assert "\nElo difference: inf +/- nan, LOS: 100.0 %, DrawRatio: 0.0 %\n" in summary, out
    out = match_ok(["--engine1", engine(), "--engine2", engine(), "--option1", "Greedy=true", "--option2",
                    "Greedy=true", "--games", 2, "--movetime", 20])
    assert ELO.search(final(out)) and not LLR.search(out), out


# Two openings in which the side to move mates in one (any searching engine finds it): every
# game is won by the side to move, so each pair of games splits 1-1.  The file mixes the forms
# an EPD file may take: a comment, a plain position, and a chess EPD's four fields followed by
# operations.
MATE_IN_ONE = ["k7/8/1K6/8/8/8/8/7R w - - 0 1", "7r/8/8/8/8/1k6/8/K7 b - - 0 1"]
MATE_EPD = "# mates in one\n\n%s\n7r/8/8/8/8/1k6/8/K7 b - - bm Rh1#; id \"black mates\";\n" % MATE_IN_ONE[0]


def write(name, text):
    path = os.path.join(_tmp, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def test_openings_from_an_epd_file_in_pairs_and_the_pentanomial():
    book, path = write("mates.epd", MATE_EPD), pgn_path("epd-book")
    out = match_ok(["--engine1", engine(), "--engine2", engine(), "--games", 4, "--movetime", 50,
                    "--openings", book, "--pgn", path])
    assert wdl(out) == (2, 0, 2), out
    assert ptnml(out) == [0, 0, 2, 0, 0], "each pair splits 1-1:\n%s" % out
    assert "openings %s (2)" % book in out, out
    games = sorted(read_pgn(path), key=lambda r: int(r[0]["Round"]))
    fens = [tags["FEN"] for tags, _ in games]
    assert fens == [MATE_IN_ONE[0], MATE_IN_ONE[0], MATE_IN_ONE[1], MATE_IN_ONE[1]], "file order, twice: %r" % fens
    assert games[0][0]["White"] == games[1][0]["Black"] and games[2][0]["White"] == games[3][0]["Black"], games
    assert all(tags["Termination"] == "checkmate" and len(moves.split()) == 3 for tags, moves in games), games


PGN_BOOK = """[Event "one"]
[Variant "chess"]

1. e4 e5 2. Nf3 *

[Event "two"]
[Variant "chess"]
[FEN "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"]
[SetUp "1"]

1... d5 2. c4 {a comment} *
"""


def test_openings_from_a_pgn_file_and_shuffled():
    book = write("book.pgn", PGN_BOOK)
    for shuffle, seed in ((False, 1), (True, 1), (True, 2), (True, 3)):
        path = pgn_path("pgn-book")
        match_ok(["--engine1", engine(), "--engine2", engine(), "--option1", "Greedy=true", "--option2",
                  "Greedy=true", "--games", 4, "--movetime", 20, "--openings", book, "--pgn", path,
                  "--seed", seed, "--max-plies", 12] + (["--shuffle"] if shuffle else []))
        games = sorted(read_pgn(path), key=lambda r: int(r[0]["Round"]))
        one = (None, "1. e4 e5 2. Nf3")
        two = ("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1", "1... d5 2. c4")
        starts = [(tags.get("FEN"), " ".join(moves.split()[:5 if "FEN" not in tags else 4])) for tags, moves in games]
        assert starts[0] == starts[1] and starts[2] == starts[3], "each opening twice: %r" % starts
        assert {starts[0], starts[2]} == {one, two}, "the book's two games: %r" % starts
        if not shuffle:
            assert starts[0] == one, "file order without --shuffle: %r" % starts
        else:
            orders = getattr(test_openings_from_a_pgn_file_and_shuffled, "orders", set())
            orders.add(starts[0])
            test_openings_from_a_pgn_file_and_shuffled.orders = orders
    assert len(test_openings_from_a_pgn_file_and_shuffled.orders) == 2, "the seeds should shuffle both ways"


def test_random_plies_and_the_old_openings_number_agree():
    firsts = []
    for option in ("--random-plies", "--openings"):
        path = pgn_path("random" + option)
        match_ok(["--engine1", engine(), "--engine2", engine(), "--option1", "Greedy=true", "--option2",
                  "Greedy=true", "--games", 2, "--movetime", 20, option, 5, "--seed", 9, "--pgn", path,
                  "--max-plies", 8])
        firsts.append(sorted(moves.split()[:8] for _, moves in read_pgn(path)))
    assert firsts[0] == firsts[1], firsts
    assert firsts[0][0] == firsts[0][1], "the same 5 random plies in both games: %r" % firsts


# Starchess's back ranks, White's cell and its image on Black's side (the rules' setup).
STARCHESS_BACK_RANK_IMAGE = {"4": "10", "11": "16", "17": "21", "22": "27", "28": "34"}


def test_mirrored_setups_place_black_on_the_images_of_whites_cells():
    path = pgn_path("mirrored")
    match_ok(["--engine1", engine(), "--engine2", engine(), "--option1", "Greedy=true", "--option2", "Greedy=true",
              "--variant", "starchess", "--games", 6, "--movetime", 20, "--random-plies", 2, "--mirrored-setup",
              "--seed", 5, "--pgn", path, "--max-plies", 14])
    setups = set()
    for _, moves in read_pgn(path):
        placements = re.findall(r"\b([KQRBN])@?(\d+)\b", " ".join(moves.split()[:15]))[:10]
        assert len(placements) == 10, moves
        for (wtype, wcell), (btype, bcell) in zip(placements[0::2], placements[1::2]):
            assert wtype == btype and STARCHESS_BACK_RANK_IMAGE[wcell] == bcell, (placements, moves)
        setups.add(tuple(placements))
    assert len(setups) == 3, "each pair of games its own setup, both games of a pair the same: %r" % setups


def test_bad_openings_files_are_named():
    cases = [(write("bad.epd", "# fine\n%s\nnot a position\n" % MATE_IN_ONE[0]), "bad.epd:3: "),
             (write("bad.pgn", '[Event "x"]\n\n1. e4 e4 *\n'), "bad.pgn: game 1: move 1... (Black): illegal move 'e4'"),
             (write("other.pgn", '[Variant "starvation"]\n\n1. e4 *\n'), "a game of starvation, not chess"),
             (write("empty.epd", "# nothing\n"), "no openings"),
             (os.path.join(_tmp, "missing.epd"), "cannot read the openings file")]
    for book, expect in cases:
        code, out, err = match(["--engine1", engine(), "--engine2", engine(), "--openings", book])
        assert code == 2 and out == "" and expect in err and err.startswith("starfish: match: "), (book, code, err)


def test_timemargin_lets_an_engine_overrun_its_clock():
    # The slow fake takes 0.4 s a move on a 0.3 s clock: it forfeits at once, unless 1500 ms of
    # margin let it play on (then its second a2a3 is illegal).  The margin is wide: on a loaded
    # machine the fake's `sleep 0.4` has been seen to take 826 ms.
    for margin, ending in ((0, "time forfeit 1"), (1500, "illegal move 1")):
        path = pgn_path("margin")
        out = match_ok(["--engine1", fake("slow"), "--engine2", engine(), "--option2", "Greedy=true", "--games", 1,
                        "--tc", "0.3+0.5", "--openings", 0, "--timemargin", margin, "--pgn", path])
        assert wdl(out) == (0, 0, 1) and ending in out, (margin, out)
        assert "margin %d ms" % margin in out, out
        (tags, moves), = read_pgn(path)
        assert ("lost on time" in tags["Termination"]) == (margin == 0), tags


def test_nodes_send_go_nodes_to_each_engine():
    for args, expected in ((["--nodes", 555], ("go nodes 555", "go nodes 555")),
                           (["--nodes1", 777], ("go nodes 777", "go wtime ")),
                           (["--nodes2", 99, "--movetime", 30], ("go movetime 30", "go nodes 99"))):
        logs = [os.path.join(_tmp, "go-%d.log" % e) for e in (1, 2)]
        for log in logs:
            if os.path.exists(log):
                os.remove(log)
        out = match_ok(["--engine1", fake("log", logs[0]), "--engine2", fake("log", logs[1]), "--games", 2] + args)
        assert wdl(out) == (1, 0, 1), out
        for log, want in zip(logs, expected):
            with open(log) as f:
                lines = f.read().split("\n")
            assert lines[0].startswith(want), (args, log, lines, want)


def test_a_summary_every_rating_interval_pairs():
    base = ["--engine1", engine(), "--engine2", "sh -c 'exit 1'", "--games", 6, "--sprt", 0, 5]
    for interval, blocks in ((1, 3 + 1), (2, 1 + 1), (0, 1)):
        out = match_ok(base + ["--rating-interval", interval])
        assert len(SCORE.findall(out)) == blocks and len(PTNML.findall(out)) == blocks, (interval, out)
        assert len(LLR.findall(out)) == blocks and len(ELO.findall(out)) == blocks, (interval, out)
    first = out.index("Finished game 2 ")
    assert "Score of" not in out[:first], "no summary before the first pair is done:\n%s" % out


def test_sprt_models():
    # Every game won: the LLR grows with the games, more in the logistic model's larger steps.
    llr = {}
    for model in ("normalized", "logistic"):
        out = match_ok(["--engine1", engine(), "--engine2", "sh -c 'exit 1'", "--games", 20, "--sprt", 0, 5,
                        "--sprt-model", model])
        assert "(%s Elo)" % model in out, out
        llr[model] = float(LLR.search(final(out)).group(1))
    assert 0 < llr["normalized"] and 0 < llr["logistic"] < 2.94, llr


def test_shipped_opening_files_load_and_play():
    folder = os.path.join(REPO_ROOT, "data", "openings")
    for variant in VARIANTS:
        book = os.path.join(folder, variant + ".epd")
        with open(book) as f:
            positions = [line for line in f if line.strip() and not line.startswith("#")]
        assert 50 <= len(positions) <= 100 and len(set(positions)) == len(positions), (variant, len(positions))
        out = match_ok(["--engine1", engine(), "--engine2", engine(), "--option1", "Greedy=true", "--option2",
                        "Greedy=true", "--variant", variant, "--openings", book, "--games", 2, "--movetime", 10,
                        "--max-plies", 2])
        assert "openings %s (%d)" % (book, len(positions)) in out and check_result_count(out, 2), out


def test_a_signal_ends_the_match_with_the_summary_of_the_games_played():
    """Ctrl-C (or SIGTERM): the games under way are abandoned, and the summary, the per-game
    lines and the PGN agree on the games played."""
    path = pgn_path("interrupted")
    if os.path.exists(path):  # from an earlier run of the suite (the ASan build's follows the release build's)
        os.remove(path)
    args = ["match", "--engine1", engine(), "--engine2", engine(), "--games", 1000, "--movetime", 20, "--concurrency", 2,
            "--pgn", path]
    with running(args) as proc:
        def three_games():
            assert proc.poll() is None, "the match ended before three games"
            return os.path.exists(path) and len(read_pgn(path)) >= 3
        wait_for(three_games, seconds=120, what="three games in the PGN file", step=0.1)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    out, err = out.decode(), err.decode()
    assert proc.returncode == 0, (proc.returncode, err)
    assert "SIGINT: the games under way are abandoned" in err, err
    played = len(read_pgn(path))
    assert re.search(r"^Match: .+, %d of 1000 games played \(stopped by SIGINT\)$" % played, out, re.M), out
    check_result_count(out, played)


def test_help():
    code, out, err = match(["--help"])
    assert code == 0 and err == "", (code, out, err)
    for option in ("--engine1 CMD", "--sprt ELO0 ELO1", "--sprt-model M", "--openings FILE", "--timemargin MS",
                   "--nodes N", "--nodes1 N", "--random-plies N", "--shuffle", "--rating-interval N", "normalized",
                   "Ptnml(0-2)"):
        assert option in out, "%r is missing from the help:\n%s" % (option, out)


def test_bad_arguments_exit_2():
    e = engine()
    both = ["--engine1", e, "--engine2", e]
    cases = [(["--engine1", e], "--engine2")] + [(both + args, expect) for args, expect in [
        (["--variant", "nosuch"], "nosuch"),
        (["--games", "0"], "'0'"),
        (["--games", "ten"], "ten"),
        (["--tc", "fast"], "fast"),
        (["--tc", "0+1"], "0+1"),
        (["--movetime", "-5"], "-5"),
        (["--tc", "1+0", "--movetime", "10"], "exclude"),
        (["--concurrency", "0"], "concurrency"),
        (["--option1", "Greedy"], "NAME=VALUE"),
        (["--sprt", "5", "0"], "ELO0 < ELO1"),
        (["--sprt", "5"], "needs 2 values"),
        (["--alpha", "0.7"], "0.7"),
        (["--seed", "x"], "seed"),
        (["--max-plies", "0"], "max-plies"),
        (["--frobnicate"], "--frobnicate"),
        (["stray"], "stray"),
        (["--games"], "needs a value"),
        (["--pgn", "/nonexistent-dir/x.pgn"], "/nonexistent-dir/x.pgn"),
        (["--openings", "/nonexistent-dir/x.epd"], "/nonexistent-dir/x.epd"),
        (["--sprt-model", "bayesian"], "bayesian"),
        (["--nodes", "0"], "--nodes"),
        (["--nodes1", "x"], "--nodes1"),
        (["--timemargin", "-1"], "--timemargin"),
        (["--random-plies", "300"], "--random-plies"),
        (["--rating-interval", "x"], "--rating-interval"),
    ]]
    cases.insert(0, ([], "--engine1"))
    for args, expect in cases:
        code, out, err = match(args, timeout=20)
        assert code == 2, "%r: expected exit status 2, got %d (stdout %r, stderr %r)" % (args, code, out, err)
        assert out == "", "%r: nothing may go to stdout on an error: %r" % (args, out)
        lines = err.strip().split("\n")
        assert len(lines) == 1 and lines[0].startswith("starfish: match: "), "%r: one message: %r" % (args, err)
        assert expect in err, "%r: expected %r in %r" % (args, expect, err)
