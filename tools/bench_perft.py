#!/usr/bin/env python3
"""Perft benchmark: starfish beside Debian's stockfish and fairy-stockfish, in one run.

Each engine runs `go perft N` over UCI on the same positions (chess start at depth 6,
Kiwipete at depth 5), one thread each, bulk-counted at the last ply by all three.  A run's
time is the wall time from sending `go perft N` to reading `Nodes searched`, after the
engine has answered `isready`, so start-up (Stockfish loads its network) is not counted.
Each measurement is the best of --repeat runs.  Prints nodes per second and the ratios starfish/peer; then
starfish's own speed on the variants no peer plays (`starfish bench perft` for each).
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POSITIONS = [
    ("start", "startpos", 6, 119060324),
    ("kiwipete", "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193690690),
]


def find(name):
    return shutil.which(name) or (f"/usr/games/{name}" if os.path.exists(f"/usr/games/{name}") else None)


def timed_perft(binary, variant, position, depth):
    """Seconds for `go perft depth` (start-up excluded) and the node count it printed."""
    script = ""
    if variant != "chess":
        script += f"setoption name UCI_Variant value {variant}\n"
    script += f"position {position}\nisready\n"
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proc.stdin.write(script)
    proc.stdin.flush()
    for line in proc.stdout:
        if line.strip() == "readyok":
            break
    start = time.perf_counter()
    proc.stdin.write(f"go perft {depth}\n")
    proc.stdin.flush()
    nodes = None
    for line in proc.stdout:
        if line.startswith("Nodes searched"):
            nodes = int(line.split(":")[1])
            break
    elapsed = time.perf_counter() - start
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()
    return elapsed, nodes


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    engines = [("starfish", os.path.join(ROOT, "starfish"))]
    for peer in ("stockfish", "fairy-stockfish"):
        path = find(peer)
        if path:
            engines.append((peer, path))
        else:
            print(f"note: {peer} is not installed (apt-get install {peer}); no ratio against it")
    speed = {}
    print(f"{'position':10} {'engine':16} {'nodes':>12} {'seconds':>8} {'Mnps':>8}")
    for pname, position, depth, expected in POSITIONS:
        for ename, binary in engines:
            best = None
            for _ in range(args.repeat):
                secs, nodes = timed_perft(binary, "chess", position, depth)
                if nodes != expected:
                    print(f"error: {ename} counted {nodes} nodes on {pname} depth {depth}, expected {expected}")
                    return 1
                best = secs if best is None else min(best, secs)
            speed[(pname, ename)] = expected / best
            print(f"{pname:10} {ename:16} {expected:12} {best:8.3f} {expected / best / 1e6:8.1f}")
    print()
    for pname, *_ in POSITIONS:
        for ename, _ in engines[1:]:
            ratio = speed[(pname, "starfish")] / speed[(pname, ename)]
            print(f"ratio starfish/{ename:16} on {pname:9}: {ratio:5.2f}x")
    print()
    for variant in ("starvation", "starchess", "megastar"):
        out = subprocess.run([os.path.join(ROOT, "starfish"), "bench", "perft", variant], capture_output=True,
                             text=True, timeout=1800).stdout
        print(out.rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
