#!/usr/bin/env python3
"""Labels positions with a UCI engine's expected score, for `starfish tune VARIANT FILE.epd`.

Reads FEN lines (as written by `starfish tune VARIANT GAMES.pgn --export FENS`), searches each
with the engine for a fixed number of nodes, and writes 'FEN ; P' lines, P being White's
expected score from 0 to 1.  The score comes from the engine's win/draw/loss estimate
(`UCI_ShowWDL`) when it gives one, else from its centipawns through the logistic curve
1 / (1 + 10^(-cp / 400)); a mate found is 1 or 0.

    ./starfish tune chess games.pgn --export fens.txt
    tools/label_positions.py fens.txt labelled.epd --engine /usr/games/stockfish --nodes 20000
    ./starfish tune chess labelled.epd
"""
import argparse
import subprocess
import sys


class Engine:
    def __init__(self, command, options):
        self.proc = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")

    def wait_for(self, word):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine ended before '{word}'")
            lines.append(line.split())
            if lines[-1] and lines[-1][0] == word:
                return lines

    def score(self, fen, nodes):
        """The side to move's expected score (0..1) after a search of `nodes` nodes."""
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        expected = None
        for words in self.wait_for("bestmove"):
            if words[:1] == ["info"] and "score" in words:
                expected = expected_score(words)
        if expected is None:
            raise RuntimeError(f"no score for {fen}")
        return expected

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def expected_score(words):
    """The side to move's expected score from one `info` line's words, or None."""
    if "wdl" in words:
        i = words.index("wdl")
        win, draw, loss = (int(x) for x in words[i + 1:i + 4])
        return (win + draw / 2) / (win + draw + loss)
    i = words.index("score")
    kind, value = words[i + 1], int(words[i + 2])
    if kind == "mate":
        return 1.0 if value > 0 else 0.0
    if kind == "cp":
        return 1 / (1 + 10 ** (-value / 400))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fens", help="input: one FEN a line")
    ap.add_argument("out", help="output: 'FEN ; P' lines")
    ap.add_argument("--engine", default="/usr/games/stockfish", help="the UCI engine's command")
    ap.add_argument("--nodes", type=int, default=20000, help="nodes a position (default 20000)")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a UCI option for the engine (repeatable)")
    args = ap.parse_args()
    options = [("UCI_ShowWDL", "true")] + [tuple(o.split("=", 1)) for o in args.option]
    engine = Engine(args.engine, options)
    with open(args.fens) as src, open(args.out, "w") as out:
        for n, line in enumerate(src, 1):
            fen = line.strip()
            if not fen:
                continue
            mover = engine.score(fen, args.nodes)
            white = mover if fen.split()[1] == "w" else 1 - mover
            out.write(f"{fen} ; {white:.4f}\n")
            if n % 1000 == 0:
                print(f"{n} positions", file=sys.stderr, flush=True)
    engine.close()


if __name__ == "__main__":
    main()
