#!/usr/bin/env python3
"""Makes the balanced opening files in data/openings/ for `starfish match --openings FILE`.

    python3 tools/make_openings.py [--variants V,V,...] [--count N] [--nodes N] [--bound CP]
                                   [--seed S] [--out DIR] [--binary PATH] [--plies MIN-MAX]
                                   [--judge PATH] [--name NAME]

For each variant: random legal plies from the start (in Starchess a random setup of its ten
placements first, and one candidate in five stops inside the setup), each candidate then
searched by ./starfish for a fixed number of nodes (`go nodes`: the same on every machine), and
kept when its score is within the bound (no mate found) and it is new, until N are kept.  Each
file holds one position text a line, after a comment saying how it was made: the EPD form
`--openings` reads.  The same seed and the same engine make the same files.

No third-party modules; the engine is driven over UCI (`go perft 1` lists the legal moves,
`d` prints the position text).

`--judge` lets another UCI engine score the candidates, so that a book for matches against it
is not chosen by starfish's own evaluation: for chess against Stockfish,

    python3 tools/make_openings.py --variants chess --plies 8-8 --bound 50 --nodes 500000 \
        --judge /usr/games/stockfish --name chess-stockfish --count 100

(starfish still lists the legal moves and writes the position texts).
"""
import argparse
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANTS = ["chess", "starvation", "square-says", "square-says-reversed", "starchess", "starchess-ludii",
            "megastar"]
# Random movement plies per candidate (after Starchess's setup).
PLIES = {"chess": (6, 10), "starvation": (6, 10), "square-says": (4, 8), "square-says-reversed": (4, 8),
         "starchess": (1, 5), "starchess-ludii": (1, 5), "megastar": (6, 12)}
SETUP_PLACEMENTS = 10


class Engine:
    """One engine process spoken to over UCI (starfish, or the judge)."""

    def __init__(self, binary, variant):
        self.proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        if variant != "chess":  # an orthodox judge knows no such option
            self.send("setoption name UCI_Variant value %s" % variant)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, done):
        """The lines up to and including the first for which done(line) is true."""
        lines = []
        for line in self.proc.stdout:
            lines.append(line.rstrip("\n"))
            if done(lines[-1]):
                return lines
        raise RuntimeError("the engine exited: %r" % lines[-5:])

    def legal_moves(self, moves):
        self.send("position startpos moves %s" % " ".join(moves))
        self.send("go perft 1")
        lines = self.until(lambda line: line.startswith("Nodes searched"))
        return [line.split(":")[0] for line in lines if ": " in line and not line.startswith(("Nodes", "info"))]

    def fen(self, moves):
        self.send("position startpos moves %s" % " ".join(moves))
        self.send("d")
        line = self.until(lambda line: line.startswith("Fen: "))[-1]
        self.send("isready")  # the lines `d` prints after the text, read and left behind
        self.until(lambda line: line == "readyok")
        return line[len("Fen: "):]

    def score(self, moves, nodes):
        """The score of a search of `nodes` nodes (None for a mate)."""
        self.send("ucinewgame")
        self.send("position startpos moves %s" % " ".join(moves))
        self.send("go nodes %d" % nodes)
        score = None
        for line in self.until(lambda line: line.startswith("bestmove")):
            words = line.split()
            if words[:1] == ["info"] and "score" in words:
                kind, value = words[words.index("score") + 1:words.index("score") + 3]
                score = int(value) if kind == "cp" else None
        return score

    def close(self):
        self.send("quit")
        self.proc.wait(10)


def candidate(engine, variant, rng, plies_range):
    """A random line from the start: (moves, whether it stops inside a setup), or None at a dead end."""
    moves = []
    in_setup = variant.startswith("starchess") and rng.random() < 0.2
    placements = rng.randint(4, SETUP_PLACEMENTS - 1) if in_setup else 0
    plies = 0 if in_setup else rng.randint(*plies_range)
    while True:
        legal = engine.legal_moves(moves)
        placing = bool(legal) and "@" in legal[0]
        if not legal:
            return None
        if placing and in_setup and len(moves) >= placements:
            return moves
        if not placing and plies == 0:
            return moves
        moves.append(rng.choice(sorted(legal)))
        plies -= 0 if placing else 1


def make(variant, args, rng):
    engine = Engine(args.binary, variant)
    judge = Engine(args.judge, variant) if args.judge else engine
    plies_range = tuple(int(p) for p in args.plies.split("-")) if args.plies else PLIES[variant]
    kept, seen, tried = [], set(), 0
    try:
        while len(kept) < args.count and tried < args.count * 50:
            tried += 1
            moves = candidate(engine, variant, rng, plies_range)
            if moves is None or not engine.legal_moves(moves):
                continue
            fen = engine.fen(moves)
            if fen in seen:
                continue
            seen.add(fen)
            score = judge.score(moves, args.nodes)
            if score is not None and abs(score) <= args.bound:
                kept.append(fen)
    finally:
        engine.close()
        if judge is not engine:
            judge.close()
    return kept, tried


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated (default: every variant)")
    parser.add_argument("--count", type=int, default=60, help="positions per variant (default 60)")
    parser.add_argument("--nodes", type=int, default=20000, help="nodes of the filtering search (default 20000)")
    parser.add_argument("--bound", type=int, default=60, help="largest |score| kept, centipawns (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--out", default=os.path.join(ROOT, "data", "openings"), help="folder (default data/openings)")
    parser.add_argument("--binary", default=os.path.join(ROOT, "starfish"), help="the engine (default ./starfish)")
    parser.add_argument("--plies", help="random movement plies, MIN-MAX (default: the variant's own range)")
    parser.add_argument("--judge", help="a UCI engine that scores the candidates (default: the engine itself)")
    parser.add_argument("--name", help="the file's name without .epd (default: the variant's; one variant only)")
    args = parser.parse_args()
    if args.name and "," in args.variants:
        parser.error("--name names one variant's file")
    os.makedirs(args.out, exist_ok=True)
    for variant in args.variants.split(","):
        rng = random.Random("%s %d" % (variant, args.seed))
        kept, tried = make(variant, args, rng)
        path = os.path.join(args.out, (args.name or variant) + ".epd")
        with open(path, "w") as f:
            f.write("# %s: %d balanced openings for `starfish match --openings`, made by\n" % (variant, len(kept)))
            extra = "".join(" --%s %s" % (k, getattr(args, k)) for k in ("plies", "judge", "name") if getattr(args, k))
            f.write("# python3 tools/make_openings.py --variants %s --count %d --nodes %d --bound %d --seed %d%s\n"
                    % (variant, args.count, args.nodes, args.bound, args.seed, extra))
            f.write("# (random plies from the start, kept when a %d-node search by %s scores them within %d cp)\n"
                    % (args.nodes, os.path.basename(args.judge or args.binary), args.bound))
            for fen in kept:
                f.write(fen + "\n")
        print("%-22s %3d kept of %4d tried -> %s" % (variant, len(kept), tried, os.path.relpath(path, ROOT)),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
