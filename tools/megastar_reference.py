#!/usr/bin/env python3
"""
An independent reference move generator for Megastar of David (shared/rules/megastar.md),
used to check `starfish perft megastar`.

It shares no code with src/ and was written from the rules text alone: the board, the cell
names and the position text are rebuilt here from the axial-coordinate definitions, and every
piece's moves are generated directly, cell by cell, from the sentences of the rules:

  King      one orthogonal step; one vertical step (Drum); an orthogonal step plus a change of
            level when start and destination are both in the Drum (the 2x2 block exists)
  Rook      orthogonal slides on its level; one vertical step (Drum)
  Knight    (q,r) on one level -> (q,r)+2d on the other, (q,r), +d, +2d all in the Drum
  Pawn      forward (0,+1) (Black (0,-1)) on its level into the Drum, to an empty cell;
            captures (q,r+1) on the other level (Drum); double step from any cell where a pawn
            of its side stood at the start; en passant by a pawn on the other level directly
            beside the double-stepped pawn, capturing onto the passed cell, next move only;
            promotion on the last Drum cell of its file to R N C F T B S L
  Cohen     orthogonal rose or diagonal rose or one vertical step
  Finch     orthogonal rose or one vertical step
  Rabbi     diagonal rose
  Rose      1..4 steps through empty cells, turning 60 degrees the same way after each step
  Sennight  the 12 sqrt-7 leaps on its level
  Fortnight the 12 sqrt-13 horizontal vectors plus a change of level, both ends in the Drum
  Sling     diagonal: quiet moves to empty cells before the first piece; captures the first
            piece beyond exactly one screen, if it is an enemy
  A move may not leave the mover's King attacked.  Moves are (from, to, promotion): several
  paths to one destination are one move.

Attack detection is the plain "can any enemy piece capture on X" (each enemy piece's capture
targets computed with the same generator), so it is independent of the engine's reverse
attack tables.

Runs under python3 or, several times faster, pypy3.

Modes:
  perft DEPTH [FEN]            divide + total
  moves FEN [CELL]             legal moves (optionally from one cell), sorted
  compare DEPTH [FEN]          this generator vs. ./starfish on one position (bisects mismatches)
  split DEPTH [FEN] [--samples N] [--seed S]
                               the engine's divide at DEPTH, with N sampled first moves' subtrees
                               (all with N = 0) counted here at DEPTH-1
  random [--games N] [--seed S] [--plies P] [--max-depth D] [--budget NODES]
                               random positions by random play (several styles: uniform,
                               capture-biased, pawn-pushing, thinned boards), each compared with
                               ./starfish at depth 1 and 2 (D), reporting the features covered
"""
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STARFISH = os.environ.get("STARFISH_BIN", os.path.join(ROOT, "starfish"))

# ---------------------------------------------------------------------------------------------
# Board.  A cell is an index into the lists below; (level, q, r) with level 0 = U, 1 = L.

U, L = 0, 1


def on_level(level, q, r):
    s = -q - r
    return max(q, r, s) <= 4 if level == U else min(q, r, s) >= -4


def in_drum_qr(q, r):
    return max(abs(q), abs(r), abs(q + r)) <= 4


CELLS = []          # index -> (level, q, r)
INDEX = {}          # (level, q, r) -> index
NAME = []           # index -> name


def rmin(q):
    return min(r for r in range(-20, 21) if on_level(U, q, r) or on_level(L, q, r))


# Position-text order: the 13 upper files a..m (q -8..4), then the 13 lower files e..q
# (q -4..8), each from its lowest rank up.
FILES = []          # list of lists of cell indices, in position-text order
for level, qs in ((U, range(-8, 5)), (L, range(-4, 9))):
    for q in qs:
        f = []
        for r in range(-20, 21):
            if on_level(level, q, r):
                i = len(CELLS)
                CELLS.append((level, q, r))
                INDEX[(level, q, r)] = i
                NAME.append("%s%s%d" % ("UL"[level], chr(ord('a') + q + 8), r - rmin(q) + 1))
                f.append(i)
        FILES.append(f)
NCELLS = len(CELLS)
CELL_OF_NAME = {n: i for i, n in enumerate(NAME)}
DRUM = [in_drum_qr(q, r) for (_, q, r) in CELLS]


def cell(level, q, r):
    return INDEX.get((level, q, r))


ORTHO = [(0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0)]       # cyclic order (rules)
DIAG = [(1, 1), (-1, 2), (-2, 1), (-1, -1), (1, -2), (2, -1)]       # cyclic order (rules)
SEVEN = [(2, 1), (3, -1), (1, 2), (-1, 3), (3, -2), (2, -3)]
SEVEN += [(-a, -b) for a, b in SEVEN]
THIRTEEN = [(3, 1), (4, -1), (1, 3), (-1, 4), (3, -4), (4, -3)]
THIRTEEN += [(-a, -b) for a, b in THIRTEEN]

# Sanity checks of the vectors' lengths: |v|^2 = dq^2 + dq*dr + dr^2 in axial coordinates.
assert all(a * a + a * b + b * b == 1 for a, b in ORTHO)
assert all(a * a + a * b + b * b == 3 for a, b in DIAG)
assert all(a * a + a * b + b * b == 7 for a, b in SEVEN) and len(set(SEVEN)) == 12
assert all(a * a + a * b + b * b == 13 for a, b in THIRTEEN) and len(set(THIRTEEN)) == 12
assert NCELLS == 182 and sum(DRUM) == 122

# ---------------------------------------------------------------------------------------------
# Pieces: 'K' etc. for White, 'k' etc. for Black, None for empty.

PROMOTIONS = "RNCFTBSL"
START_FEN = ("1/2/3/4/5/RP2pr/NP3pn/NP4pn/FP5pf/1FP4pf1/1BKP3pkb1/LBBSP2psbbl/LL2RP1pr2ll/"
             "LL2RP1pr2ll/LBBSP2psbbl/1BCP3pcb1/1TP4pt1/TP5pt/NP4pn/PN3np/RP2pr/5/4/3/2/1 w - 0 1")


def colour(p):
    return 0 if p.isupper() else 1


class Pos:
    __slots__ = ("board", "side", "ep", "halfmove", "fullmove")

    def copy(self):
        p = Pos()
        p.board = self.board[:]
        p.side, p.ep, p.halfmove, p.fullmove = self.side, self.ep, self.halfmove, self.fullmove
        return p


def parse_fen(fen):
    fields = fen.split()
    if len(fields) not in (3, 5):
        raise ValueError("bad field count")
    rows = fields[0].split("/")
    if len(rows) != 26:
        raise ValueError("expected 26 files")
    board = [None] * NCELLS
    for row, cells in zip(rows, FILES):
        k, i = 0, 0
        while i < len(row):
            if row[i].isdigit():
                j = i
                while j < len(row) and row[j].isdigit():
                    j += 1
                k += int(row[i:j])
                i = j
            else:
                if row[i].upper() not in "KRNPCFTBSL":
                    raise ValueError("bad letter")
                board[cells[k]] = row[i]
                k += 1
                i += 1
        if k != len(cells):
            raise ValueError("bad file length")
    p = Pos()
    p.board = board
    p.side = 0 if fields[1] == "w" else 1
    p.ep = None if fields[2] == "-" else CELL_OF_NAME[fields[2]]
    p.halfmove, p.fullmove = (int(fields[3]), int(fields[4])) if len(fields) == 5 else (0, 1)
    return p


def fen_of(p):
    rows = []
    for cells in FILES:
        s, run = "", 0
        for c in cells:
            if p.board[c] is None:
                run += 1
            else:
                if run:
                    s += str(run)
                run = 0
                s += p.board[c]
        if run:
            s += str(run)
        rows.append(s)
    return "%s %s %s %d %d" % ("/".join(rows), "wb"[p.side], "-" if p.ep is None else NAME[p.ep],
                               p.halfmove, p.fullmove)


START = parse_fen(START_FEN)
# "From any cell where a pawn of its side stood at the start (either level, any file)".
PAWN_START = [set(c for c in range(NCELLS) if START.board[c] == pc) for pc in "Pp"]
assert len(PAWN_START[0]) == 16 and len(PAWN_START[1]) == 16


def forward(side):
    return 1 if side == 0 else -1


def promotes(c, side):
    """The last Drum cell of its file for `side`: the next cell forward is not in the Drum."""
    lv, q, r = CELLS[c]
    return DRUM[c] and not in_drum_qr(q, r + forward(side))


# ---------------------------------------------------------------------------------------------
# Pseudo-legal moves.  A move is (from, to, promo, kind) with kind 'n' normal, 'd' double, 'e'
# en passant.  targets(p, c) yields (to, kind) for the piece on c; promotions are expanded later.

def rose(board, c, dirs, me, out):
    lv, q, r = CELLS[c]
    for first in range(6):
        for turn in (1, -1):
            cq, cr = q, r
            for k in range(4):
                dq, dr = dirs[(first + turn * k) % 6]
                cq, cr = cq + dq, cr + dr
                t = cell(lv, cq, cr)
                if t is None:
                    break
                o = board[t]
                if o is None:
                    out.add(t)
                    continue
                if colour(o) != me:
                    out.add(t)
                break


def targets(pos, c, captures_only=False):
    """Destinations of the piece on c, as a set of (to, kind); for attack tests (captures_only)
    every capture target, with pawn captures regardless of the cell's contents."""
    board = pos.board
    piece = board[c]
    me = colour(piece)
    kind = piece.upper()
    lv, q, r = CELLS[c]
    drum = DRUM[c]
    out = set()

    def leap(t):
        if t is not None and (board[t] is None or colour(board[t]) != me):
            out.add(t)

    if kind == 'K':
        for dq, dr in ORTHO:
            leap(cell(lv, q + dq, r + dr))
            if drum and in_drum_qr(q + dq, r + dr):
                leap(cell(1 - lv, q + dq, r + dr))
        if drum:
            leap(cell(1 - lv, q, r))
    elif kind == 'R':
        for dq, dr in ORTHO:
            k = 1
            while True:
                t = cell(lv, q + k * dq, r + k * dr)
                if t is None:
                    break
                if board[t] is None:
                    out.add(t)
                else:
                    if colour(board[t]) != me:
                        out.add(t)
                    break
                k += 1
        if drum:
            leap(cell(1 - lv, q, r))
    elif kind == 'N':
        for dq, dr in ORTHO:
            if drum and in_drum_qr(q + dq, r + dr) and in_drum_qr(q + 2 * dq, r + 2 * dr):
                leap(cell(1 - lv, q + 2 * dq, r + 2 * dr))
    elif kind == 'C' or kind == 'F' or kind == 'B':
        if kind != 'B':
            rose(board, c, ORTHO, me, out)
        if kind != 'F':
            rose(board, c, DIAG, me, out)
        if kind != 'B' and drum:
            leap(cell(1 - lv, q, r))
    elif kind == 'S':
        for dq, dr in SEVEN:
            leap(cell(lv, q + dq, r + dr))
    elif kind == 'T':
        if drum:
            for dq, dr in THIRTEEN:
                if in_drum_qr(q + dq, r + dr):
                    leap(cell(1 - lv, q + dq, r + dr))
    elif kind == 'L':
        for dq, dr in DIAG:
            k, screen = 1, False
            while True:
                t = cell(lv, q + k * dq, r + k * dr)
                if t is None:
                    break
                o = board[t]
                if not screen:
                    if o is None:
                        out.add(t)
                    else:
                        screen = True
                elif o is not None:
                    if colour(o) != me:
                        out.add(t)
                    break
                k += 1
    elif kind == 'P':
        f = forward(me)
        res = set()
        # Captures: one step forward onto the other level, inside the Drum.
        t = cell(1 - lv, q, r + f)
        if t is not None and DRUM[t] and drum:
            o = board[t]
            if captures_only or (o is not None and colour(o) != me):
                res.add((t, 'n'))
            elif o is None and t == pos.ep:
                res.add((t, 'e'))
        if not captures_only:
            t = cell(lv, q, r + f)
            if t is not None and DRUM[t] and board[t] is None:
                res.add((t, 'n'))
                t2 = cell(lv, q, r + 2 * f)
                if c in PAWN_START[me] and t2 is not None and DRUM[t2] and board[t2] is None:
                    res.add((t2, 'd'))
        return res
    return set((t, 'n') for t in out)


def pseudo_moves(pos):
    me = pos.side
    moves = []
    for c in range(NCELLS):
        p = pos.board[c]
        if p is None or colour(p) != me:
            continue
        for t, k in targets(pos, c):
            if p.upper() == 'P' and promotes(t, me):
                for pr in PROMOTIONS:
                    moves.append((c, t, pr, k))
            else:
                moves.append((c, t, None, k))
    return moves


def attacked(pos, x, by):
    for c in range(NCELLS):
        p = pos.board[c]
        if p is None or colour(p) != by:
            continue
        for t, _ in targets(pos, c, captures_only=True):
            if t == x:
                return True
    return False


def make(pos, m):
    c, t, pr, k = m
    n = pos.copy()
    b = n.board
    piece = b[c]
    captured = b[t] is not None or k == 'e'
    if k == 'e':
        # The victim stands on the passed cell's level, one step beyond it (its destination).
        lv, q, r = CELLS[t]
        b[cell(lv, q, r - forward(pos.side))] = None
    b[t] = piece if pr is None else (pr if pos.side == 0 else pr.lower())
    b[c] = None
    n.ep = None
    if k == 'd':
        lv, q, r = CELLS[c]
        n.ep = cell(lv, q, r + forward(pos.side))
    n.halfmove = 0 if captured or piece.upper() == 'P' else pos.halfmove + 1
    if pos.side == 1:
        n.fullmove += 1
    n.side = 1 - pos.side
    return n


def king_cell(pos, side):
    k = 'K' if side == 0 else 'k'
    for c in range(NCELLS):
        if pos.board[c] == k:
            return c
    return None


def legal_moves(pos):
    out = []
    for m in pseudo_moves(pos):
        n = make(pos, m)
        kc = king_cell(n, pos.side)
        if kc is not None and not attacked(n, kc, n.side):
            out.append(m)
    return out


def move_text(m):
    c, t, pr, _ = m
    return NAME[c] + NAME[t] + (pr.lower() if pr else "")


def perft(pos, depth):
    moves = legal_moves(pos)
    if depth <= 1:
        return len(moves)
    return sum(perft(make(pos, m), depth - 1) for m in moves)


def divide(pos, depth):
    res = {}
    for m in legal_moves(pos):
        res[move_text(m)] = 1 if depth <= 1 else perft(make(pos, m), depth - 1)
    return res


# ---------------------------------------------------------------------------------------------
# Comparison with the engine.

def engine_divide(depth, fen):
    proc = subprocess.run([STARFISH, "perft", "megastar", str(depth), fen], capture_output=True, text=True,
                          timeout=3600)
    if proc.returncode != 0:
        raise RuntimeError("starfish failed on %s: %s" % (fen, proc.stderr.strip()))
    res, total = {}, None
    for line in proc.stdout.splitlines():
        if line.startswith("Nodes searched:"):
            total = int(line.split(":")[1])
        elif ": " in line and not line.startswith(("Time", "Nodes")):
            k, v = line.split(": ")
            res[k] = int(v)
    assert total == sum(res.values()), "divide lines do not add up"
    return res, total


def compare(pos, depth, verbose=True, trail=""):
    """True when the engine agrees; on a mismatch, descends into the first differing move."""
    fen = fen_of(pos)
    mine = divide(pos, depth)
    theirs, _ = engine_divide(depth, fen)
    if mine == theirs:
        return True
    if verbose:
        print("MISMATCH at depth %d after [%s]\n  FEN %s" % (depth, trail, fen), flush=True)
        for k in sorted(set(mine) | set(theirs)):
            if mine.get(k) != theirs.get(k):
                print("  %-12s reference %-8s engine %s" % (k, mine.get(k), theirs.get(k)))
    for m in legal_moves(pos):
        k = move_text(m)
        if k in theirs and mine[k] != theirs[k] and depth > 1:
            return compare(make(pos, m), depth - 1, verbose, (trail + " " + k).strip())
    return False


# ---------------------------------------------------------------------------------------------
# Random positions.

def features(pos, moves):
    f = set()
    if pos.ep is not None:
        f.add("ep-field")
    for m in moves:
        c, t, pr, k = m
        p = pos.board[c].upper()
        if k == 'e':
            f.add("en-passant")
        if k == 'd':
            f.add("double-step")
        if pr:
            f.add("promotion")
        if pos.board[t] is not None:
            f.add("capture")
            f.add("capture-" + p)
            if p == 'L':
                f.add("sling-capture")
        lv1, lv2 = CELLS[c][0], CELLS[t][0]
        if lv1 != lv2:
            f.add("level-change")
    kc = king_cell(pos, pos.side)
    if kc is not None and attacked(pos, kc, 1 - pos.side):
        f.add("in-check")
        if not moves:
            f.add("checkmate")
    elif not moves:
        f.add("stalemate")
    # Slings with screens: a sling with at least one piece on one of its diagonals.
    for c in range(NCELLS):
        p = pos.board[c]
        if p and p.upper() == 'L' and colour(p) == pos.side:
            lv, q, r = CELLS[c]
            for dq, dr in DIAG:
                n = 0
                k = 1
                while True:
                    t = cell(lv, q + k * dq, r + k * dr)
                    if t is None:
                        break
                    if pos.board[t] is not None:
                        n += 1
                    k += 1
                if n >= 2:
                    f.add("sling-two-screens")
    return f


def random_game(rng, style, plies):
    """Plays `plies` random legal moves; yields every position reached."""
    pos = START.copy()
    if style == "thinned":
        # Remove a random share of the non-king men (pawns and pieces) to open lines.
        share = rng.uniform(0.3, 0.8)
        for c in range(NCELLS):
            p = pos.board[c]
            if p and p.upper() != 'K' and rng.random() < share:
                pos.board[c] = None
        if attacked(pos, king_cell(pos, 1), 0):
            return
    for _ in range(plies):
        moves = legal_moves(pos)
        if not moves:
            yield pos, moves
            return
        yield pos, moves
        if style == "captures":
            caps = [m for m in moves if pos.board[m[1]] is not None or m[3] == 'e']
            m = rng.choice(caps) if caps and rng.random() < 0.8 else rng.choice(moves)
        elif style == "pawns":
            special = [m for m in moves if m[3] in 'de' or m[2]]
            pawn = [m for m in moves if pos.board[m[0]].upper() == 'P']
            if special and rng.random() < 0.7:
                m = rng.choice(special)
            elif pawn and rng.random() < 0.6:
                m = rng.choice(pawn)
            else:
                m = rng.choice(moves)
        else:
            m = rng.choice(moves)
        pos = make(pos, m)


def cmd_random(args):
    games, seed, plies, max_depth, budget = 40, 1, 120, 2, 60000
    i = 0
    while i < len(args):
        key, val = args[i], args[i + 1]
        if key == "--games":
            games = int(val)
        elif key == "--seed":
            seed = int(val)
        elif key == "--plies":
            plies = int(val)
        elif key == "--max-depth":
            max_depth = int(val)
        elif key == "--budget":
            budget = int(val)
        i += 2
    rng = random.Random(seed)
    styles = ["uniform", "captures", "pawns", "thinned"]
    covered, positions, failures, nodes = {}, 0, 0, 0
    for g in range(games):
        style = styles[g % len(styles)]
        for pos, moves in random_game(rng, style, plies):
            # Sample: every position with something special, else one in four.
            fts = features(pos, moves)
            special = fts & {"en-passant", "promotion", "sling-capture", "checkmate", "stalemate", "in-check",
                             "ep-field"}
            if not special and rng.random() > 0.25:
                continue
            depth = 1
            for d in range(2, max_depth + 1):
                # Estimate the size of the tree with the branching factor; keep within budget.
                if len(moves) ** d <= budget:
                    depth = d
            positions += 1
            nodes += len(moves) ** depth
            for ft in fts:
                covered[ft] = covered.get(ft, 0) + 1
            if not compare(pos, depth):
                failures += 1
        print("game %d (%s): %d positions compared so far, %d failures" % (g + 1, style, positions, failures),
              flush=True)
    print("positions compared: %d, failures: %d" % (positions, failures))
    print("features covered (positions): " + ", ".join("%s %d" % kv for kv in sorted(covered.items())))
    return 1 if failures else 0


def cmd_split(args):
    """The engine's divide at DEPTH against this generator's counts of sampled subtrees."""
    depth, fen, samples, seed = int(args[0]), START_FEN, 0, 1
    rest = args[1:]
    if rest and not rest[0].startswith("--"):
        fen, rest = rest[0], rest[1:]
    for i in range(0, len(rest), 2):
        if rest[i] == "--samples":
            samples = int(rest[i + 1])
        elif rest[i] == "--seed":
            seed = int(rest[i + 1])
    pos = parse_fen(fen)
    theirs, total = engine_divide(depth, fen)
    moves = legal_moves(pos)
    if sorted(theirs) != sorted(move_text(m) for m in moves):
        print("the first moves differ")
        return 1
    chosen = moves if samples <= 0 else random.Random(seed).sample(moves, min(samples, len(moves)))
    bad = 0
    for m in chosen:
        k = move_text(m)
        mine = perft(make(pos, m), depth - 1) if depth > 1 else 1
        ok = mine == theirs[k]
        bad += not ok
        print("%-12s reference %-10d engine %-10d %s" % (k, mine, theirs[k], "ok" if ok else "MISMATCH"), flush=True)
    print("engine total %d; %d of %d subtrees compared, %d mismatches" % (total, len(chosen), len(moves), bad))
    return 1 if bad else 0


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    mode = argv[1]
    if mode == "perft":
        depth = int(argv[2])
        pos = parse_fen(argv[3]) if len(argv) > 3 else START
        res = divide(pos, depth)
        for k in sorted(res):
            print("%s: %d" % (k, res[k]))
        print("\nNodes searched: %d" % sum(res.values()))
        return 0
    if mode == "moves":
        pos = parse_fen(argv[2])
        only = CELL_OF_NAME[argv[3]] if len(argv) > 3 else None
        print(" ".join(sorted(move_text(m) for m in legal_moves(pos) if only is None or m[0] == only)))
        return 0
    if mode == "compare":
        depth = int(argv[2])
        pos = parse_fen(argv[3]) if len(argv) > 3 else START
        ok = compare(pos, depth)
        print("agree" if ok else "DISAGREE")
        return 0 if ok else 1
    if mode == "random":
        return cmd_random(argv[2:])
    if mode == "split":
        return cmd_split(argv[2:])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
