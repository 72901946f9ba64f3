#!/usr/bin/env python3
"""Time to depth with 1 thread and with more: the Lazy SMP speed-up.

Searches each position to a fixed depth with each thread count (a fresh engine and table each
time) and prints the wall time per position and the geometric mean of the ratios.  Run it on
an otherwise idle machine with at least as many cores as the largest thread count.

    tools/smp_speedup.py --threads 1 2 --depth 12
"""
import argparse
import math
import subprocess
import time

ROOT = __file__.rsplit("/tools/", 1)[0]

POSITIONS = [
    ("chess", "startpos"),
    ("chess", "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", "fen r1bq1rk1/pp2bppp/2n2n2/3p4/3P4/2NB1N2/PP3PPP/R1BQ1RK1 w - - 0 10"),
    ("chess", "fen 2r2rk1/pp1bqppp/2n1pn2/3p4/2PP4/P1N1PN2/1P1BBPPP/R2QK2R w KQ - 1 12"),
    ("chess", "fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ("starvation", "startpos"),
    ("starchess", "fen 1/2/KP3pr/RP2pb/NP1pn/QP2pq/BP3pk/2/1[] w 0 1"),
    ("square-says", "startpos"),
]


def time_to_depth(binary, variant, position, depth, threads):
    proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    send = lambda line: (proc.stdin.write(line + "\n"), proc.stdin.flush())
    send(f"setoption name UCI_Variant value {variant}")
    send(f"setoption name Threads value {threads}")
    send("setoption name Hash value 64")
    send(f"position {position}")
    send("isready")
    while proc.stdout.readline().strip() != "readyok":
        pass
    start = time.monotonic()
    send(f"go depth {depth}")
    for line in proc.stdout:
        if line.startswith("bestmove"):
            break
    elapsed = time.monotonic() - start
    send("quit")
    proc.wait()
    return elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--binary", default=ROOT + "/starfish")
    args = ap.parse_args()
    base = args.threads[0]
    logs = {t: [] for t in args.threads[1:]}
    print("%-12s %-40s" % ("variant", "position") + "".join("%10s" % f"{t} thr" for t in args.threads))
    for variant, position in POSITIONS:
        times = {t: time_to_depth(args.binary, variant, position, args.depth, t) for t in args.threads}
        print("%-12s %-40s" % (variant, position[:40]) + "".join("%9.2fs" % times[t] for t in args.threads))
        for t in logs:
            logs[t].append(math.log(times[base] / times[t]))
    for t, values in logs.items():
        print(f"speed-up to depth {args.depth}, {t} threads against {base}: "
              f"{math.exp(sum(values) / len(values)):.2f}x (geometric mean of {len(values)} positions)")


if __name__ == "__main__":
    main()
