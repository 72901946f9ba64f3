#!/usr/bin/env python3
"""Speed benchmark: every game's perft and search speed, beside Debian's stockfish and
fairy-stockfish on chess, in one run.

Perft: each engine runs `go perft N` over UCI (one thread, the last ply bulk-counted by all
three).  Chess (start position depth 6, Kiwipete depth 5) runs on all three engines; the other
games on starfish alone (no peer plays them).

Search: starfish searches each position of its search benchmark (`starfish bench`, deeper:
about a second each) to a fixed depth over UCI, one thread, 16 MB of hash, a new game before
each; the speed of a game is its nodes (the last `info` line's count) over its time, summed
over its positions.  The searches run again with `Use NNUE false` (the "hand-written" rows):
a game with a net must keep at least half the hand-written evaluation's speed (issue 34).

Times are the CPU time the engine process spends from sending `go` to its answer (the
process's CPU clock, in nanoseconds: /proc's counts of 10 ms ticks moved the rows of runs under
a second by several per cent), not wall time, so that other work on a shared machine slows a
run less; start-up (Stockfish loads its network) is not counted.

--baseline BINARY measures an earlier starfish build beside the current one (every row), so a
change's speed-up is read from one run: `make bench BASELINE=/path/to/old/starfish`.

Each measurement is the best of --repeat runs (5: on the 2-core virtual machine one process
perfting the Starchess row six times over ran at 70-117 M leaves/s, and the best of three still
moved the row by a fifth between runs), and the engines of a row take turns run by run
(starfish, the baseline, the peers, then starfish again...), so that a spell of load elsewhere
on the machine falls on all of them alike.  Prints one table: nodes, seconds and millions
of nodes per second per row; then the ratios starfish/peer for chess, starfish/baseline for
every row, and the speed goals of issues 14 and 34 with whether each holds.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
STARCHESS_SETUP = "1/2/NP3pr/BP2pq/KP1pk/QP2pb/RP3pn/2/1[] w 0 1"

# (game, position name, UCI position, depth, expected leaves, peers play it)
PERFT = [
    ("chess", "start", "startpos", 6, 119060324, True),
    ("chess", "kiwipete", f"fen {KIWIPETE}", 5, 193690690, True),
    ("starvation", "start", "startpos", 6, 119076756, False),
    ("starvation", "kiwipete", f"fen {KIWIPETE}", 5, 193647627, False),
    ("square-says", "start", "startpos", 6, 191212209, False),
    ("starchess", "setup", f"fen {STARCHESS_SETUP}", 7, 17542413, False),
    ("megastar", "start", "startpos", 4, 67566252, False),
]

# The search benchmark's positions (src/frontend/cli.c, `starfish bench`), deeper (about a
# second each): game, position, depth.
SEARCH = [
    ("chess", "startpos", 13),
    ("chess", f"fen {KIWIPETE}", 10),
    ("chess", "fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 15),
    ("starvation", "startpos", 11),
    ("starvation", f"fen {KIWIPETE}", 9),
    ("square-says", "startpos", 10),
    ("square-says-reversed", "startpos", 10),
    ("starchess", "startpos", 16),
    ("starchess", "fen 1/2/KP3pr/RP2pb/NP1pn/QP2pq/BP3pk/2/1[] w 0 1", 15),
    ("starchess-ludii", "fen 1/2/KP3pr/RP2pb/NP1pn/QP2pq/BP3pk/2/1[] w - 0 1", 15),
    ("megastar", "startpos", 8),
]


# The searches again with the hand-written evaluation (Use NNUE false), for the nets' cost.
HAND = "hand-written"


def find(name):
    return shutil.which(name) or (f"/usr/games/{name}" if os.path.exists(f"/usr/games/{name}") else None)


class Engine:
    """A UCI engine on pipes."""

    def __init__(self, binary):
        self.proc = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        """The lines read up to and including the first that starts with prefix."""
        lines = []
        for line in self.proc.stdout:
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines
        raise RuntimeError(f"engine ended before '{prefix}'")

    def setup(self, variant, position):
        if variant != "chess":
            self.send(f"setoption name UCI_Variant value {variant}")
        self.send("ucinewgame")
        self.send(f"position {position}")
        self.send("isready")
        self.until("readyok")

    def close(self):
        self.send("quit")
        self.proc.wait()


def cpu_seconds(proc):
    """The CPU time a process has spent so far (all its threads, ended ones too): its CPU-time
    clock, whose id Linux makes from the pid as clock_getcpuclockid(3) does."""
    return time.clock_gettime((~proc.pid << 3) | 2)


def timed_perft(binary, variant, position, depth):
    """CPU seconds for `go perft depth` (start-up excluded) and the node count it printed."""
    engine = Engine(binary)
    engine.setup(variant, position)
    start = cpu_seconds(engine.proc)
    engine.send(f"go perft {depth}")
    nodes = int(engine.until("Nodes searched")[-1].split(":")[1])
    elapsed = cpu_seconds(engine.proc) - start
    engine.close()
    return elapsed, nodes


def timed_search(binary, variant, position, depth, core=None, options=()):
    """Nodes (the last `info` line's) and CPU seconds of a search to a fixed depth (the engine
    held on one core when `core` is given; UCI options as "NAME=VALUE")."""
    engine = Engine(binary)
    if core is not None:
        os.sched_setaffinity(engine.proc.pid, {core})
    for name, value in [("Hash", "16")] + [option.split("=", 1) for option in options]:
        engine.send(f"setoption name {name} value {value}")
    engine.setup(variant, position)
    start = cpu_seconds(engine.proc)
    engine.send(f"go depth {depth}")
    info = [line.split() for line in engine.until("bestmove") if line.startswith("info") and " nodes " in line]
    elapsed = cpu_seconds(engine.proc) - start
    engine.close()
    fields = info[-1]
    return int(fields[fields.index("nodes") + 1]), elapsed


def row(game, what, engine, nodes, secs):
    print(f"{game:20} {what:22} {engine:16} {nodes:12} {secs:8.3f} {nodes / secs / 1e6:8.2f}", flush=True)


def search_speeds(engines, repeat):
    """Per engine (name, binary, UCI options) and game: the nodes and seconds of its positions'
    searches (each the best of `repeat`, the engines taking turns)."""
    totals = {}
    for game, position, depth in SEARCH:
        best = {}
        for _ in range(repeat):
            for ename, binary, options in engines:
                nodes, secs = timed_search(binary, game, position, depth, options=options)
                if ename not in best or nodes / secs > best[ename][0] / best[ename][1]:
                    best[ename] = (nodes, secs)
        for ename, (nodes, secs) in best.items():
            old_nodes, old_secs = totals.get((ename, game), (0, 0.0))
            totals[(ename, game)] = (old_nodes + nodes, old_secs + secs)
    return totals


def print_goals(speed, baseline):
    """Issue 14's speed goals, each with its measured ratio or speed and whether it holds."""
    def nps(game, what, engine="starfish"):
        return speed.get((game, what, engine))

    chess = min(nps("chess", "start"), nps("chess", "kiwipete"))
    starvation = min(nps("starvation", "start"), nps("starvation", "kiwipete"))
    goals = [("starvation within 15% of chess (slower position of each)", starvation / chess, 0.85)]
    for pname in ("start", "kiwipete"):
        if nps("chess", pname, "stockfish"):
            goals.append((f"chess {pname} >= 1.0x stockfish", nps("chess", pname) / nps("chess", pname, "stockfish"), 1.0))
    goals.append(("starchess >= 100 M leaves/s", nps("starchess", "setup") / 1e6, 100))
    goals.append(("megastar >= 25 M leaves/s", nps("megastar", "start") / 1e6, 25))
    for game in dict.fromkeys(g for g, *_ in SEARCH):  # issue 34: a net costs at most half the speed
        goals.append((f"{game} search >= 0.5x hand-written", nps(game, "search") / nps(game, "search", HAND), 0.5))
    if baseline:
        goals.append(("square-says >= 2x baseline", nps("square-says", "start") / nps("square-says", "start", "baseline"), 2.0))
        for game in dict.fromkeys(g for g, *_ in SEARCH):
            goals.append((f"{game} search >= 2x baseline", nps(game, "search") / nps(game, "search", "baseline"), 2.0))
    print()
    for text, value, goal in goals:
        print(f"goal {text:48} {value:7.2f}  {'holds' if value >= goal else 'missed'}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--binary", default=os.path.join(ROOT, "starfish"))
    parser.add_argument("--baseline", help="an earlier starfish binary, measured beside --binary")
    args = parser.parse_args()
    ours = [("starfish", args.binary)] + ([("baseline", args.baseline)] if args.baseline else [])
    engines = list(ours)
    for peer in ("stockfish", "fairy-stockfish"):
        path = find(peer)
        if path:
            engines.append((peer, path))
        else:
            print(f"note: {peer} is not installed (apt-get install {peer}); no ratio against it")
    speed = {}
    print(f"{'game':20} {'what':22} {'engine':16} {'nodes':>12} {'seconds':>8} {'Mnps':>8}")
    for game, pname, position, depth, expected, peers in PERFT:
        best = {}
        for _ in range(args.repeat):
            for ename, binary in engines if peers else ours:
                secs, nodes = timed_perft(binary, game, position, depth)
                if nodes != expected:
                    print(f"error: {ename} counted {nodes} nodes on {game} {pname} depth {depth}, expected {expected}")
                    return 1
                best[ename] = min(best.get(ename, secs), secs)
        for ename, secs in best.items():
            speed[(game, pname, ename)] = expected / secs
            row(game, f"perft {pname} d{depth}", ename, expected, secs)
    searchers = [(ename, binary, []) for ename, binary in ours] + [(HAND, args.binary, ["Use NNUE=false"])]
    searches = search_speeds(searchers, args.repeat)
    for ename, *_ in searchers:
        for game in dict.fromkeys(g for g, *_ in SEARCH):
            nodes, secs = searches[(ename, game)]
            speed[(game, "search", ename)] = nodes / secs
            row(game, f"search x{len([p for p in SEARCH if p[0] == game])}", ename, nodes, secs)
    print()
    for game, pname, _, _, _, peers in PERFT:
        for ename, _ in engines[len(ours):] if peers else []:
            ratio = speed[(game, pname, "starfish")] / speed[(game, pname, ename)]
            print(f"ratio starfish/{ename:16} on {game} {pname:9}: {ratio:5.2f}x")
    if args.baseline:
        for (game, what, ename), nps in speed.items():
            if ename == "starfish":
                print(f"ratio starfish/baseline         on {game} {what:9}: {nps / speed[(game, what, 'baseline')]:5.2f}x")
    print_goals(speed, bool(args.baseline))
    return 0


if __name__ == "__main__":
    sys.exit(main())
