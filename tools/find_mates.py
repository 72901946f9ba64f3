#!/usr/bin/env python3
"""Finds positions with a forced checkmate: for the engine's mate suite (tests/mates.epd) and
for the web app's puzzles (data/puzzles/VARIANT.epd).

The engine plays itself from random openings (a random number of random legal moves from the
start, Starchess's placements included); wherever it announces `mate N` for the side to move
(1 <= N <= --max-mate), the position is proven by `starfish mate`, an exhaustive search that
knows no heuristics, and kept only when the shortest forced mate is exactly N moves.  Prints
one line per position: `VARIANT;FEN;mate N`.

    tools/find_mates.py chess --count 6 --max-mate 3 --seed 1 >> tests/mates.epd

With --puzzles it prints a puzzle file instead (data/puzzles/README.md describes it): a header
saying how the file was made, then per position the FEN, the mate's length, every first move
that forces it, a main line with the best defence (`starfish mate --line`), how long the proof
took and where in the self-play the position arose.

    tools/find_mates.py starchess --puzzles --count 60 --min-men 8 --max-keys 2 --seed 3 > data/puzzles/starchess.epd
    tools/find_mates.py --verify data/puzzles/starchess.epd     # prove a file's puzzles again
"""
import argparse
import random
import subprocess
import sys
import time

ROOT = __file__.rsplit("/tools/", 1)[0]


class Engine:
    def __init__(self, binary, variant):
        self.proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send(f"setoption name UCI_Variant value {variant}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the engine exited")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines

    def legal_moves(self, moves):
        self.position(moves)
        self.send("go perft 1")
        return [l.split(":")[0] for l in self.read_until("Nodes searched") if ": " in l and not l.startswith("Nodes")]

    def position(self, moves):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))

    def fen(self, moves):
        self.position(moves)
        self.send("d")
        return next(l[5:] for l in self.read_until("Fen: ") if l.startswith("Fen: "))

    def search(self, moves, movetime):
        """(best move, announced mate in moves for the side to move or None)."""
        self.position(moves)
        self.send(f"go movetime {movetime}")
        lines = self.read_until("bestmove")
        mate = None
        for line in lines:
            words = line.split()
            if line.startswith("info") and "score" in words:
                i = words.index("score")
                mate = int(words[i + 2]) if words[i + 1] == "mate" else None
        return lines[-1].split()[1], mate

    def close(self):
        self.send("quit")
        self.proc.wait()


class Proof:
    """What `starfish mate --line` proved: the shortest mate's length, every first move that
    forces it, a main line, and the seconds it took."""

    def __init__(self, moves, keys, line, seconds):
        self.moves, self.keys, self.line, self.seconds = moves, keys, line, seconds


def prove(binary, variant, fen, most):
    """The proof of the shortest forced mate within `most` moves, or None."""
    start = time.monotonic()
    try:
        proc = subprocess.run([binary, "mate", "--line", variant, str(most), fen], capture_output=True, text=True,
                              timeout=120)
    except subprocess.TimeoutExpired:
        return None
    lines = proc.stdout.splitlines()
    words = lines[0].split() if lines else []
    if proc.returncode != 0 or words[:2] != ["mate", "in"] or len(lines) < 2:
        return None
    return Proof(int(words[2].rstrip(":")), words[3:], lines[1].split()[1:], time.monotonic() - start)


def men(fen):
    """The pieces on the board of a position text (not those in hand)."""
    return sum(ch.isalpha() for ch in fen.split()[0].split("[")[0])


def puzzle_header(args):
    return "\n".join([
        f"# Mate-in-N puzzles for {args.variant}: FEN;mate N;keys;line;proof;source (data/puzzles/README.md).",
        "# Found in the engine's self-play and proven by exhaustive search of the legal moves",
        f"# (`starfish mate --line {args.variant} N FEN`: a forced checkmate in N moves and none sooner).",
        "# Made by: tools/find_mates.py " + " ".join(sys.argv[1:]),
    ])


def puzzle_line(fen, proof, seed, game, ply):
    return (f"{fen};mate {proof.moves};keys {' '.join(proof.keys)};line {' '.join(proof.line)};"
            f"proof exhaustive search {proof.seconds:.2f} s;source seed {seed} game {game} ply {ply}")


def verify(binary, path):
    """Proves every puzzle of a puzzle file again: 0 when each is still a mate in N with the
    same keys, else 1 (each failure printed)."""
    variant = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    failures = checked = 0
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        fen, mate, keys = line.split(";")[:3]
        moves = int(mate.split()[1])
        proof = prove(binary, variant, fen, moves)
        checked += 1
        if not proof or proof.moves != moves or sorted(proof.keys) != sorted(keys.split()[1:]):
            failures += 1
            print(f"not proven again: {line.strip()}")
    print(f"{path}: {checked - failures} of {checked} puzzles proven again")
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variant", help="a variant, or with --verify a puzzle file")
    ap.add_argument("--verify", action="store_true", help="prove every puzzle of the file VARIANT again")
    ap.add_argument("--count", type=int, default=6, help="positions to find")
    ap.add_argument("--max-mate", type=int, default=3, help="longest mate, in moves")
    ap.add_argument("--movetime", type=int, default=40, help="ms per self-play move")
    ap.add_argument("--random-plies", type=int, default=8, help="random moves at most before the engine plays")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-men", type=int, default=0, help="only positions with this many pieces on the board")
    ap.add_argument("--puzzles", action="store_true", help="print a puzzle file (data/puzzles/README.md)")
    ap.add_argument("--max-keys", type=int, default=0,
                    help="only positions with at most this many first moves that force the mate (0: any)")
    ap.add_argument("--binary", default=ROOT + "/starfish")
    args = ap.parse_args()
    if args.verify:
        return verify(args.binary, args.variant)
    rng = random.Random(args.seed)
    engine = Engine(args.binary, args.variant)
    found, seen, wanted_n, games = 0, set(), 1, 0
    if args.puzzles:
        print(puzzle_header(args), flush=True)
    while found < args.count:
        moves = []
        games += 1
        plies = rng.randint(0, args.random_plies)
        legal = engine.legal_moves(moves)
        while legal and len(moves) < 300:
            if len(moves) < plies or (args.variant.startswith("starchess") and len(moves) < 10):
                move = rng.choice(legal)
            else:
                move, mate = engine.search(moves, args.movetime)
                # Spread the suite over every length: take the next length wanted, else any.
                if mate and 0 < mate <= args.max_mate and (mate == wanted_n or rng.random() < 0.3):
                    fen = engine.fen(moves)
                    proof = None if fen in seen or men(fen) < args.min_men else \
                        prove(args.binary, args.variant, fen, mate)
                    if proof and proof.moves == mate and (not args.max_keys or len(proof.keys) <= args.max_keys):
                        seen.add(fen)
                        print(puzzle_line(fen, proof, args.seed, games, len(moves)) if args.puzzles else
                              f"{args.variant};{fen};mate {mate}", flush=True)
                        found += 1
                        wanted_n = wanted_n % args.max_mate + 1
                        break  # one position per game
            moves.append(move)
            legal = engine.legal_moves(moves)
    engine.close()


if __name__ == "__main__":
    sys.exit(main())
