"""The mate suite: the engine finds the shortest mate of every position in tests/mates.epd.

Each line is `VARIANT;FEN;mate N`.  The test first proves the line with `starfish mate`, an
exhaustive search of the legal moves that knows nothing of the engine: the shortest forced
checkmate is exactly N moves, and it lists every first move that forces it.  Then the engine
searches for at most 300 ms (more for sanitized builds) and must announce `mate N` and play
one of those moves.  (tools/find_mates.py made the positions, from the engine's self-play.)
"""
import os
import time

from harness import JUDGED_SHARE, REPO_ROOT, Session, cli, info_field, time_scale

SUITE = os.path.join(REPO_ROOT, "tests", "mates.epd")
MOVETIME_MS = 300


def suite():
    with open(SUITE) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                variant, fen, mate = line.split(";")
                yield variant, fen, int(mate.split()[1])


def proof(variant, fen, n):
    """The first moves that force the shortest mate, which must take exactly n moves."""
    code, out, err = cli(["mate", variant, n, fen], timeout=300)
    words = out.split()
    assert code == 0 and words[:3] == ["mate", "in", "%d:" % n], \
        "%s %s: not a shortest mate in %d: %r %r" % (variant, fen, n, out, err)
    return words[3:]


def test_suite_covers_every_variant():
    variants = {v for v, _, _ in suite()}
    assert variants >= {"chess", "starvation", "square-says", "square-says-reversed", "starchess",
                        "starchess-ludii", "megastar"}, variants


def timed_mate_search(s, fen, n, moves):
    """One search of MOVETIME_MS: what went wrong (or None), and the wall time it took."""
    timed, sent = s.search(["ucinewgame", "position fen " + fen], "go movetime %d" % (MOVETIME_MS * time_scale()),
                           timeout=30 * time_scale())
    wall = time.monotonic() - sent
    lines = [line for _, line in timed]
    scores = [info_field(l, "mate") for l in lines if l.startswith("info depth")]
    best = lines[-1].split()[1]
    if not scores or scores[-1] != str(n) or best not in moves:
        return "mate %s, %s (expected mate %d, one of %s)" % (
            scores[-1:] or "none", best, n, " ".join(moves)), wall
    return None, wall


def test_engine_finds_each_shortest_mate_in_time():
    failures, unjudged, total = [], 0, 0
    by_variant = {}
    for variant, fen, n in suite():
        by_variant.setdefault(variant, []).append((fen, n))
    for variant, cases in by_variant.items():
        with Session(variant) as s:
            for fen, n in cases:
                moves = proof(variant, fen, n)
                problems, starved = s.timed(lambda s: timed_mate_search(s, fen, n, moves))
                total += 1
                if problems[-1] and starved:
                    unjudged += 1
                elif problems[-1]:
                    failures.append("%s %s: %s" % (variant, fen, "; ".join(problems)))
    assert not failures, "\n".join(failures)
    assert unjudged <= (1 - JUDGED_SHARE) * total, "%d of %d searches starved of the CPU every time" % (unjudged, total)
