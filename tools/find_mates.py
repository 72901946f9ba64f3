#!/usr/bin/env python3
"""Finds positions with a forced checkmate for the engine's mate suite (tests/mates.epd).

The engine plays itself from random openings (a random number of random legal moves from the
start, Starchess's placements included); wherever it announces `mate N` for the side to move
(1 <= N <= --max-mate), the position is proven by `starfish mate`, an exhaustive search that
knows no heuristics, and kept only when the shortest forced mate is exactly N moves.  Prints
one line per position: `VARIANT;FEN;mate N`.

    tools/find_mates.py chess --count 6 --max-mate 3 --seed 1 >> tests/mates.epd
"""
import argparse
import random
import subprocess
import sys

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


def proven_mate(binary, variant, fen, most):
    """The length of the shortest forced mate within `most` moves, or None."""
    try:
        proc = subprocess.run([binary, "mate", variant, str(most), fen], capture_output=True, text=True,
                              timeout=120)
    except subprocess.TimeoutExpired:
        return None
    words = proc.stdout.split()
    return int(words[2].rstrip(":")) if proc.returncode == 0 and words[:2] == ["mate", "in"] else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variant")
    ap.add_argument("--count", type=int, default=6, help="positions to find")
    ap.add_argument("--max-mate", type=int, default=3, help="longest mate, in moves")
    ap.add_argument("--movetime", type=int, default=40, help="ms per self-play move")
    ap.add_argument("--random-plies", type=int, default=8, help="random moves at most before the engine plays")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--binary", default=ROOT + "/starfish")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    engine = Engine(args.binary, args.variant)
    found, seen, wanted_n = 0, set(), 1
    while found < args.count:
        moves = []
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
                    if fen not in seen and proven_mate(args.binary, args.variant, fen, mate) == mate:
                        seen.add(fen)
                        print(f"{args.variant};{fen};mate {mate}", flush=True)
                        found += 1
                        wanted_n = wanted_n % args.max_mate + 1
                        break  # one position per game
            moves.append(move)
            legal = engine.legal_moves(moves)
    engine.close()


if __name__ == "__main__":
    sys.exit(main())
