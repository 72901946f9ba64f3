#!/usr/bin/env python3
"""A/B search speed of two starfish builds that search the same trees (a change meant to
make nodes cheaper without changing which moves are searched).

Both binaries search each of `make bench`'s search positions (tools/bench_perft.py's SEARCH)
at the same time, one on each of the machine's first two cores, and swap cores every round,
so that whatever else slows the machine (a virtual machine's neighbours, frequency changes)
falls on both alike; runs one after the other moved by 5-10% from run to run on the 2-core
development machine, where an A/A run of this tool stays within about 4% a game.  Refuses
builds whose searches differ in node count: then speed is no longer the only difference, and
the change needs an SPRT.

    tools/bench_ab.py NEW_BINARY OLD_BINARY [--rounds N] [--game GAME ...]

Prints, per game, each build's millions of nodes a second (lower than alone: the two share
the memory bus and the last-level cache) and NEW's speed over OLD's; then the same over all
games (by time).
"""
import argparse
import os
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_perft  # noqa: E402


def one_round(new, old, cores, game, position, depth):
    """Both builds' (nodes, seconds) for one search, run at once on the two cores given."""
    results = [None, None]

    def search(i, binary, core):
        results[i] = bench_perft.timed_search(binary, game, position, depth, core)

    threads = [threading.Thread(target=search, args=(i, binary, core))
               for i, (binary, core) in enumerate(zip((new, old), cores))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("new")
    parser.add_argument("old")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--game", action="append", help="only this game's positions (repeatable)")
    args = parser.parse_args()
    if len(os.sched_getaffinity(0)) < 2:
        print("error: this comparison needs two cores")
        return 1
    totals = {}
    for game, position, depth in bench_perft.SEARCH:
        if args.game and game not in args.game:
            continue
        for r in range(args.rounds):
            (nodes, new_secs), (old_nodes, old_secs) = one_round(args.new, args.old, (0, 1) if r % 2 == 0 else (1, 0),
                                                                 game, position, depth)
            if nodes != old_nodes:
                print(f"error: the builds search different trees ({game} {position} depth {depth}: "
                      f"{nodes} and {old_nodes} nodes); compare them by SPRT")
                return 1
            total = totals.setdefault(game, [0, 0.0, 0.0])
            total[0] += nodes
            total[1] += new_secs
            total[2] += old_secs
    print(f"{'game':22} {'new Mnps':>9} {'old Mnps':>9} {'new/old':>8}")
    for game, (nodes, new_secs, old_secs) in totals.items():
        print(f"{game:22} {nodes / new_secs / 1e6:9.2f} {nodes / old_secs / 1e6:9.2f} {old_secs / new_secs:8.3f}")
    new_all, old_all = sum(t[1] for t in totals.values()), sum(t[2] for t in totals.values())
    print(f"{'all (by time)':22} {'':9} {'':9} {old_all / new_all:8.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
