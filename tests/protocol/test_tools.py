"""The scripts in tools/: code_stats.py, find_mates.py (with `starfish mate --line`),
label_positions.py.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import os
import subprocess
import sys
import tempfile

from harness import REPO_ROOT, binary

CODE_STATS = os.path.join(REPO_ROOT, "tools", "code_stats.py")

# A small tree: core/a, core/b and engine/e include each other in a circle (and core -> engine
# -> core a folder cycle); the longest C function is long_one() in core/a.c, and a JavaScript
# method is longer still.
TREE = {
    "src/core/a.h": '#include "b.h"\n',
    "src/core/a.c": '#include "a.h"\n#include "../engine/e.h"\n\nint long_one(int x)\n{\n' + "    x++;\n" * 40 + "    return x;\n}\n",
    "src/core/b.h": "int b(void);\n",
    "src/core/b.c": '#include "a.h"\n#include "b.h"\n\nint b(void)\n{\n    return 1;\n}\n',
    "src/engine/e.h": '#include "../core/b.h"\n',
    "src/engine/e.c": '#include "e.h"\n\nstatic int\nsplit(void)\n{\n    return 0;\n}\n',
    "web/x.js": "export class View {\n    draw() {\n" + "        a();\n" * 50 + "    }\n}\n",
}


def test_code_stats_finds_sizes_functions_and_cycles():
    with tempfile.TemporaryDirectory() as root:
        for path, text in TREE.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)
        out = subprocess.run([sys.executable, CODE_STATS, root], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        lines = out.stdout.split("\n")
        assert lines[1].split() == ["54", "web/x.js"], out.stdout
        assert "in src/: 3 C functions" in out.stdout, out.stdout
        assert "    44  src/core/a.c:4-47 long_one\n" in out.stdout, out.stdout
        assert "    4  src/engine/e.c:4-7 split\n" in out.stdout, out.stdout
        assert "    52  web/x.js:2-53 draw\n" in out.stdout, out.stdout
        assert "include cycles among src/ modules: 1\n  core/a core/b engine/e (3 modules" in out.stdout, out.stdout
        assert "core/a -> core/b -> core/a" in out.stdout, out.stdout
        assert "include cycles among src/ folders: 1\n  core engine (2 folders" in out.stdout, out.stdout


def test_code_stats_runs_on_this_checkout():
    out = subprocess.run([sys.executable, CODE_STATS, "--top", "3"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("largest source files (lines):\n"), out.stdout
    assert "longest functions" in out.stdout and "include cycles among src/ folders:" in out.stdout, out.stdout


# The reference move generators share one driver (tools/reference_driver.py); every mode is
# run here on something small, the way the perft suites' comments call them.
REFERENCES = {  # file: (variant, position (None: the start), perft depth)
    "starvation_reference.py": ("starvation", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                                2),
    "square_says_reference.py": ("square-says-reversed", "mmmkmmmm/mmmmmmmm/8/8/8/8/MMMMMMMM/MMMMKMMM w KQkq - 0 1",
                                 2),
    "starchess_reference.py": ("starchess-ludii", "1/2/NP3pr/BP2pq/KP1pk/QP2pb/RP3pn/2/1[] w - 0 1", 2),
    "megastar_reference.py": ("megastar", None, 1),
}


def reference(name, *args, timeout=300):
    proc = subprocess.run([sys.executable, os.path.join("tools", name)] + [str(a) for a in args], cwd=REPO_ROOT,
                          capture_output=True, text=True, timeout=timeout, env=dict(os.environ))
    return proc.returncode, proc.stdout, proc.stderr


def test_references_perft_and_compare_with_the_engine():
    from harness import cli, parse_divide
    for name, (variant, fen, depth) in REFERENCES.items():
        code, out, err = reference(name, "perft", variant, depth, *([fen] if fen else []))
        assert code == 0, (name, err)
        ours, total, _ = parse_divide(out.strip().split("\n"))
        code, engine_out, _ = cli(["perft", variant, depth] + ([fen] if fen else []))
        theirs, engine_total, _ = parse_divide(engine_out.strip().split("\n"))
        assert (ours, total) == (theirs, engine_total), (name, total, engine_total)
        code, out, err = reference(name, "compare", variant, depth, *([fen] if fen else []))
        assert code == 0 and ": agree, %d nodes" % total in out, (name, out, err)
        code, out, err = reference(name, "fen", variant, fen or "")
        if fen:
            assert code == 0 and out.count(fen) == 2, (name, out, err)


def test_references_moves_epd_and_random():
    for name, (variant, fen, _) in REFERENCES.items():
        if fen:
            code, out, err = reference(name, "moves", variant, fen)
            assert code == 0 and len(out.split("\n")[0].split()) > 5, (name, out, err)
        suite = os.path.join("tests", "perft", variant.replace("-reversed", "").replace("-ludii", "") + ".epd")
        code, out, err = reference(name, "epd", suite, "--max-nodes", 500)
        assert code == 0 and out.rstrip().endswith("suite agrees"), (name, out[-500:], err)
        code, out, err = reference(name, "random", "--games", 4, "--positions", 3, "--budget", 300, "--plies", 12)
        assert code == 0 and " mismatches" in out and "0 mismatches" in out, (name, out[-800:], err)
    # Without a mode: the usage, with the shared modes and the file's own.
    code, out, err = reference("starvation_reference.py")
    assert code == 2 and "compare [VARIANT] DEPTH [FEN]" in out and "selftest [DEPTH]" in out, out
    code, out, err = reference("megastar_reference.py", "perft", 1, "not a position")
    assert code == 2 and "bad input" in err, (out, err)


def test_find_mates_writes_proven_puzzles_and_mate_prints_a_line():
    """tools/find_mates.py --puzzles: a header saying how the file was made, then a puzzle whose
    proof (`starfish mate --line`) the server's loader accepts: keys, a line ending in mate."""
    binary = os.path.join(REPO_ROOT, "starfish")
    out = subprocess.run([sys.executable, os.path.join(REPO_ROOT, "tools", "find_mates.py"), "chess", "--puzzles",
                          "--count", "1", "--max-mate", "1", "--movetime", "20", "--seed", "4", "--binary", binary],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("# Mate-in-N puzzles for chess") and any(l.startswith("# Made by: ") for l in lines), lines
    puzzle = [l for l in lines if not l.startswith("#")]
    assert len(puzzle) == 1, lines
    fen, *fields = puzzle[0].split(";")
    names = [f.split(" ")[0] for f in fields]
    assert names == ["mate", "keys", "line", "proof", "source"] and fields[0] == "mate 1", fields
    line = fields[2].split(" ")[1:]
    mate = subprocess.run([binary, "mate", "--line", "chess", "1", fen], capture_output=True, text=True, timeout=60)
    assert mate.stdout.splitlines() == ["mate in 1: " + fields[1][5:], "line: " + " ".join(line)], mate.stdout
    none = subprocess.run([binary, "mate", "--line", "chess", "1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"],
                          capture_output=True, text=True, timeout=60)
    assert none.returncode == 1 and none.stdout.strip() == "no mate in 1", none.stdout


def test_label_positions_writes_white_expected_scores():
    """label_positions.py searches each FEN with a UCI engine (here starfish itself) and
    writes 'FEN ; P', P White's expected score: a queen up is near 1 for White to move and
    for Black to move alike, a queen down near 0."""
    fens = ["4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "4k3/8/8/8/8/8/8/3QK3 b - - 0 1", "3qk3/8/8/8/8/8/8/4K3 w - - 0 1"]
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "fens.txt"), os.path.join(tmp, "l.epd")
        with open(src, "w") as f:
            f.write("\n".join(fens) + "\n")
        subprocess.run([sys.executable, os.path.join(REPO_ROOT, "tools", "label_positions.py"), src, out,
                        "--engine", binary(), "--nodes", "2000"], check=True, timeout=120)
        lines = open(out).read().split("\n")[:-1]
    assert [l.split(" ; ")[0] for l in lines] == fens, lines
    p = [float(l.split(" ; ")[1]) for l in lines]
    assert p[0] > 0.9 and p[1] > 0.9 and p[2] < 0.1, lines
