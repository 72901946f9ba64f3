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

The command line (perft, moves, compare, fen, epd, random) is tools/reference_driver.py's,
shared by every reference file; this file adds split.  Run it without arguments for the list.
"""
import random
import sys

import reference_driver

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
    """Plays `plies` random legal moves; yields every position reached, with its legal moves,
    the position the moves were played from and those moves."""
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
    root, path = fen_of(pos), []
    for _ in range(plies):
        moves = legal_moves(pos)
        yield pos, moves, root, path[:]
        if not moves:
            return
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
        path.append(move_text(m))
        pos = make(pos, m)


SPECIAL = {"en-passant", "promotion", "sling-capture", "checkmate", "stalemate", "in-check", "ep-field"}


def random_positions(rng, o):
    """Random games in four styles (uniform, capture-biased, pawn-pushing, thinned boards):
    every position showing something special, and one in four of the others."""
    styles = ["uniform", "captures", "pawns", "thinned"]
    for g in range(o["games"]):
        for pos, moves, root, path in random_game(rng, styles[g % len(styles)], o["plies"]):
            if features(pos, moves) & SPECIAL or rng.random() <= 0.25:
                yield "megastar", root, path, pos


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
    theirs = reference_driver.engine_divide("megastar", depth, fen)
    moves = legal_moves(pos)
    if sorted(theirs) != sorted(move_text(m) for m in moves):
        print("the first moves differ")
        return 1
    chosen = moves if samples <= 0 else random.Random(seed).sample(moves, min(samples, len(moves)))
    bad = 0
    for m in chosen:
        k = move_text(m)
        mine = reference_driver.perft(RULES, "megastar", make(pos, m), depth - 1) if depth > 1 else 1
        ok = mine == theirs[k]
        bad += not ok
        print("%-12s reference %-10d engine %-10d %s" % (k, mine, theirs[k], "ok" if ok else "MISMATCH"), flush=True)
    print("engine total %d; %d of %d subtrees compared, %d mismatches" % (sum(theirs.values()), len(chosen),
                                                                          len(moves), bad))
    return 1 if bad else 0


class RULES:
    """What tools/reference_driver.py needs."""
    VARIANTS = ("megastar",)
    start = staticmethod(lambda variant: START_FEN)
    parse = staticmethod(lambda variant, fen: parse_fen(fen))
    write = staticmethod(fen_of)
    moves = staticmethod(lambda variant, pos: [(move_text(m), make(pos, m), "") for m in legal_moves(pos)])
    children = staticmethod(lambda variant, pos: [make(pos, m) for m in legal_moves(pos)])
    in_check = staticmethod(lambda variant, pos: king_cell(pos, pos.side) is not None and
                            attacked(pos, king_cell(pos, pos.side), 1 - pos.side))
    random = staticmethod(random_positions)
    features = staticmethod(lambda variant, pos: features(pos, legal_moves(pos)))
    EPD_MAX_NODES = 2000000
    RANDOM = {"games": 40, "plies": 120, "max_depth": 2, "budget": 60000}
    MODES = {"split": ("split DEPTH [FEN] [--samples N] [--seed S]\n"
                       "                               the engine's divide at DEPTH, with N sampled first moves' subtrees\n"
                       "                               (all with N = 0) counted here at DEPTH-1", cmd_split)}


if __name__ == "__main__":
    sys.exit(reference_driver.main(RULES, sys.argv, __doc__))
