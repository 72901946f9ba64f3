"""The shared driver of the reference move generators (tools/*_reference.py).

Each reference file holds one game's rules, written from the rules text and sharing nothing
with src/; this module holds what they all do with those rules: the command line, perft and
the divide, the comparison with the engine (bisecting a mismatch down to the first position
where the two disagree), the position-text round trip, the perft-suite check and the random
positions.  A rules file ends with `sys.exit(reference_driver.main(RULES, sys.argv))`, where
RULES names its functions:

  VARIANTS          the variants it generates, the default first
  start(v)          the start position's text
  parse(v, text)    a position (raising ValueError, KeyError, IndexError or AssertionError on
                    bad text)
  write(p)          its text, as the engine writes it
  moves(v, p)       the legal moves: [(coordinate text, position after, mark)], mark a short
                    note printed after the move by `moves` ("^": the moved piece starves)
  children(v, p)    the positions after each legal move (perft's inner loop, no texts)
  in_check(v, p)    whether the side to move is in check
  random(rng, o)    random positions for `random`: yields (v, root text, moves from the
                    root, position); o holds the options (games, plies, seed, ...)
  features(v, p)    optional: the situations p shows, tallied by `random`
  EPD_MAX_NODES     `epd`'s default node limit
  RANDOM            `random`'s default options
  MODES             optional: {name: (usage line, function(args) -> exit status)}: modes of
                    its own

The engine is $STARFISH (or $STARFISH_BIN), else ./starfish at the repository root.

Modes (VARIANT may be left out: the file's first variant):
  perft [VARIANT] DEPTH [FEN]          divide + total, in the format of `starfish perft`
  moves [VARIANT] FEN [CELL]           the legal moves (from CELL only), sorted
  compare [VARIANT] DEPTH [FEN]        this generator against the engine (bisects a mismatch)
  fen [VARIANT] FEN                    the position text read and written back, here and by
                                       the engine
  epd [FILE] [--max-nodes N | N]       every count of a perft suite (default tests/perft/
                                       VARIANT.epd) whose variant this file generates, up to N
                                       nodes, by this generator alone
  random [--games N] [--positions N] [--seed S] [--depth D] [--max-depth D] [--plies P]
         [--budget NODES]              random positions, each compared with the engine at the
                                       deepest depth within the budget (at most D), and its
                                       text with the engine's after the same moves
"""
import os
import random as random_module
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STARFISH = os.environ.get("STARFISH") or os.environ.get("STARFISH_BIN") or os.path.join(ROOT, "starfish")
BAD_TEXT = (ValueError, KeyError, IndexError, AssertionError, TypeError)


class Session:
    """Nodes the engine counted, for the closing line."""
    engine_nodes = 0


# ---------------------------------------------------------------------------------------------
# Counting

def perft(rules, variant, pos, depth):
    """Leaves at depth (>= 1), the last ply counted in bulk."""
    kids = rules.children(variant, pos)
    if depth <= 1:
        return len(kids)
    return sum(perft(rules, variant, kid, depth - 1) for kid in kids)


def divide(rules, variant, pos, depth):
    return {text: perft(rules, variant, kid, depth - 1) if depth > 1 else 1
            for text, kid, _ in rules.moves(variant, pos)}


def print_divide(counts):
    for move in sorted(counts):
        print("%s: %d" % (move, counts[move]))
    print("\nNodes searched: %d" % sum(counts.values()))


# ---------------------------------------------------------------------------------------------
# The engine, over UCI: the position given as a root text and the moves played from it, so
# that what a position text does not carry (an en-passant right in `starchess`) is kept.

def engine(variant, root, moves, command, last):
    """The engine's output for command, up to its line starting with `last` (a perft runs on
    the engine's search thread and would be ended by `quit`, so the session waits for it)."""
    script = "setoption name UCI_Variant value %s\nposition fen %s%s\n%s\n" % (
        variant, root, " moves " + " ".join(moves) if moves else "", command)
    proc = subprocess.Popen([STARFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        proc.stdin.write(script)
        proc.stdin.flush()
        out = []
        for line in proc.stdout:
            out.append(line.rstrip("\n"))
            if out[-1].startswith(("info string error", last)):
                break
        proc.stdin.write("quit\n")
        proc.stdin.close()
        proc.wait(60)
    finally:
        if proc.poll() is None:
            proc.kill()
    errors = [line for line in out if line.startswith("info string error")]
    if errors:
        raise RuntimeError("%s after %s %s: %s" % (variant, root, " ".join(moves), errors[0]))
    return out


def engine_divide(variant, depth, root, moves=()):
    counts, total = {}, None
    for line in engine(variant, root, moves, "go perft %d" % depth, "Nodes searched"):
        if line.startswith("Nodes searched:"):
            total = int(line.split(":")[1])
        elif ": " in line and not line.startswith("info"):
            move, count = line.split(": ")
            counts[move] = int(count)
    if total != sum(counts.values()):
        raise RuntimeError("the engine's total %s is not the sum of its divide (%s %s)" % (total, variant, root))
    Session.engine_nodes += total
    return counts


def engine_fen(variant, root, moves=()):
    for line in engine(variant, root, moves, "d", "Fen: "):
        if line.startswith("Fen: "):
            return line[len("Fen: "):]
    raise RuntimeError("no Fen line from the engine (%s %s)" % (variant, root))


def compare(rules, variant, pos, depth, root=None, path=()):
    """Both divides, and on a mismatch the first differing subtree followed down: returns
    (agree, leaves, what differs)."""
    root = root or rules.write(pos)
    ours = divide(rules, variant, pos, depth)
    theirs = engine_divide(variant, depth, root, path)
    total = sum(ours.values())
    if ours == theirs:
        return True, total, ""
    where = "after %s (%s)" % (" ".join(path) or "nothing", rules.write(pos))
    if set(ours) != set(theirs) or depth == 1:
        return False, total, "%s: reference only %s; engine only %s; counts %s" % (
            where, sorted(set(ours) - set(theirs)), sorted(set(theirs) - set(ours)),
            sorted((m, ours[m], theirs[m]) for m in set(ours) & set(theirs) if ours[m] != theirs[m]))
    kids = {text: kid for text, kid, _ in rules.moves(variant, pos)}
    first = min(m for m in ours if ours[m] != theirs[m])
    return False, total, compare(rules, variant, kids[first], depth - 1, root, path + (first,))[2]


# ---------------------------------------------------------------------------------------------
# Modes

def take_variant(rules, args):
    """The variant named first in args (taken off), else the file's default."""
    if args and args[0] in rules.VARIANTS:
        return args.pop(0)
    return rules.VARIANTS[0]


def position(rules, variant, words):
    """The position of the words (one text, or its fields as separate words), else the start."""
    return rules.parse(variant, " ".join(words) if words else rules.start(variant))


def mode_perft(rules, args):
    variant = take_variant(rules, args)
    print_divide(divide(rules, variant, position(rules, variant, args[1:]), int(args[0])))
    return 0


def mode_moves(rules, args):
    variant = take_variant(rules, args)
    cell = None
    try:
        pos = position(rules, variant, args)
    except BAD_TEXT:
        if len(args) < 2:
            raise
        pos, cell = position(rules, variant, args[:-1]), args[-1]
    moves = rules.moves(variant, pos)
    print(" ".join(sorted(text + mark for text, _, mark in moves
                          if cell is None or (text.startswith(cell) and not text[len(cell)].isdigit()))))
    if not moves:
        print("no legal move;", "in check" if rules.in_check(variant, pos) else "not in check")
    return 0


def mode_compare(rules, args):
    variant = take_variant(rules, args)
    depth, pos = int(args[0]), position(rules, variant, args[1:])
    ok, total, problem = compare(rules, variant, pos, depth)
    print("%s %s depth %d: %s, %d nodes" % (variant, rules.write(pos), depth, "agree" if ok else "MISMATCH", total))
    if problem:
        print("  " + problem)
    return 0 if ok else 1


def mode_fen(rules, args):
    variant = take_variant(rules, args)
    text = " ".join(args)
    ours = rules.write(rules.parse(variant, text))
    theirs = engine_fen(variant, text)
    print("reference %s\nengine    %s" % (ours, theirs))
    return 0 if ours == theirs else 1


def mode_epd(rules, args):
    limit = rules.EPD_MAX_NODES
    if "--max-nodes" in args:
        limit = int(args.pop(args.index("--max-nodes") + 1))
        args.remove("--max-nodes")
    elif len(args) > 1:
        limit = int(args.pop(1))
    path = args[0] if args else os.path.join(ROOT, "tests", "perft", rules.VARIANTS[0] + ".epd")
    bad = 0
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#") or line.split(";")[0] not in rules.VARIANTS:
                continue
            variant, fen, *counts = line.split(";")
            pos = rules.parse(variant, fen)
            if rules.write(pos) != fen:
                bad += 1
                print("TEXT %s %s reads back as %s" % (variant, fen, rules.write(pos)))
            for field in counts:
                depth, expected = field.split()
                depth, expected = int(depth[1:]), int(expected)
                if expected > limit:
                    print("SKIP %s %s D%d %d (over %d nodes)" % (variant, fen, depth, expected, limit))
                    continue
                got = perft(rules, variant, pos, depth)
                bad += got != expected
                print("%s %s %s D%d %d%s" % ("OK  " if got == expected else "DIFF", variant, fen, depth, expected,
                                             "" if got == expected else " (reference %d)" % got), flush=True)
    print("suite", "agrees" if not bad else "has %d differences" % bad)
    return 1 if bad else 0


def depth_within(rules, variant, pos, budget, max_depth):
    """The deepest depth (at most max_depth, at least 1) whose tree, estimated from the
    branching factor here, stays within budget leaves."""
    branching = max(1, len(rules.children(variant, pos)))
    depth = 1
    while depth < max_depth and branching ** (depth + 1) <= budget:
        depth += 1
    return depth


def read_options(args, defaults):
    options = dict(defaults)
    for i in range(0, len(args), 2):
        key = args[i].lstrip("-").replace("-", "_")
        if key not in options or i + 1 >= len(args):
            raise SystemExit("random: unknown or incomplete option %r (options: %s)" % (
                args[i], ", ".join("--" + k.replace("_", "-") for k in sorted(options))))
        options[key] = int(args[i + 1])
    return options


def mode_random(rules, args):
    o = read_options(args, dict({"games": 40, "positions": 0, "seed": 1, "depth": 3, "max_depth": 0,
                                 "plies": 60, "budget": 200000}, **rules.RANDOM))
    max_depth = o["max_depth"] or o["depth"]
    rng = random_module.Random(o["seed"])
    compared = nodes = texts = bad = 0
    tally = {}
    for variant, root, path, pos in rules.random(rng, o):
        depth = depth_within(rules, variant, pos, o["budget"], max_depth)
        ok, total, problem = compare(rules, variant, pos, depth, root, tuple(path))
        theirs = engine_fen(variant, root, path)
        texts += 1
        if theirs != rules.write(pos):
            ok = False
            problem = "position text: reference %s, engine %s" % (rules.write(pos), theirs)
        compared += 1
        nodes += total
        bad += not ok
        for name in list(getattr(rules, "features", lambda v, p: ())(variant, pos)) + ["depth %d" % depth]:
            tally[name] = tally.get(name, 0) + 1
        if not ok:
            print("MISMATCH %s depth %d %s after %s\n  %s" % (variant, depth, root, " ".join(path) or "nothing",
                                                            problem), flush=True)
        elif compared % 50 == 0:
            print("%d positions compared, %d mismatches" % (compared, bad), flush=True)
        if o["positions"] and compared >= o["positions"]:
            break
    print("%d positions compared (%d leaves), %d position texts compared, %d mismatches" % (
        compared, nodes, texts, bad))
    print("situations seen (positions showing each): " + ", ".join("%s %d" % kv for kv in sorted(tally.items())))
    return 1 if bad else 0


MODES = {"perft": mode_perft, "moves": mode_moves, "compare": mode_compare, "fen": mode_fen, "epd": mode_epd,
         "random": mode_random}


def usage(rules, doc):
    """The rules file's own text, then the modes."""
    own = getattr(rules, "MODES", {})
    text = (doc or "").rstrip() + "\n\n" + __doc__[__doc__.index("The engine is"):]
    if own:
        text += "\nModes of this file:\n" + "\n".join("  " + line for line, _ in own.values())
    return text


def main(rules, argv, doc=None):
    """Runs the mode argv[1] with the rules; doc is the rules file's description."""
    own = getattr(rules, "MODES", {})
    if len(argv) < 2 or (argv[1] not in MODES and argv[1] not in own):
        print(usage(rules, doc))
        return 2
    args = argv[2:]
    try:
        code = own[argv[1]][1](args) if argv[1] in own else MODES[argv[1]](rules, args)
    except BAD_TEXT as e:
        print("bad input: %r" % (e,), file=sys.stderr)
        return 2
    if Session.engine_nodes:
        print("(the engine counted %d nodes in all)" % Session.engine_nodes)
    return code or 0
