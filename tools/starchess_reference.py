#!/usr/bin/env python3
"""
An independent reference move generator for Starchess (shared/rules/starchess.md), in both rule
sets, used to check `starfish perft starchess` and `starfish perft starchess-ludii`.

It shares no code with src/ and was written from the rules file alone:

  board     37 cells (q, r) with max(q, r, -q-r) <= 2 or min(q, r, -q-r) >= -2, numbered
            1..37 column by column (q = -4..4), bottom to top (r ascending) inside a column;
  pieces    K one step in the 6 directions N (0,1) S (0,-1) NE (1,0) SE (1,-1) NW (-1,1)
            SW (-1,0); Q slides in all 6; R slides N/S; B slides NE/SE/NW/SW; N leaps to the
            12 cells "two steps one way, one step 60 degrees off"; P (White) steps N to an
            empty cell, captures NE/NW, Black's pawn mirrored (S; SE/SW);
  setup     while the side to move has pieces in hand it places one of them on an empty cell
            of its own back rank (White 4 11 17 22 28, Black 10 16 21 27 34);
  double    from a start cell of its side (White 5 12 18 23 29, Black 9 15 20 26 33), two
            steps forward through an empty cell to an empty cell: in `starchess` only as the
            pawn's very first move (a pawn that captured onto a start cell "limps", `~`), in
            `starchess-ludii` from any start cell;
  e.p.      `starchess-ludii` only: right after a double step, an enemy pawn that could capture
            on the passed cell may take the double-stepped pawn there;
  promotion a pawn reaching the opponent's back rank becomes Q, R, B or N (4 moves);
  legality  a move may not leave the mover's king capturable (a king still in hand is safe).

The position text is parsed and written as the rules file says (BOARD[HAND] SIDE [EP]
HALFMOVE FULLMOVE), so the positions reached by random play are also compared text for text
with the engine's (through its UCI `position ... moves ...` and `d` commands).

Runs under python3 or, several times faster, pypy3.

The command line (perft, moves, compare, fen, epd, random) is tools/reference_driver.py's,
shared by every reference file; this file adds setup.  Run it without arguments for the list.
"""
import sys

import reference_driver

# ---------------------------------------------------------------------------------------------
# The board.

def on_star(q, r):
    s = -q - r
    return max(q, r, s) <= 2 or min(q, r, s) >= -2


CELLS = []            # index i (0-based) -> (q, r); the cell's name is i + 1
COLUMNS = []          # lists of cell indices per column, bottom to top
for q in range(-4, 5):
    col = []
    for r in range(-10, 11):
        if on_star(q, r):
            col.append(len(CELLS))
            CELLS.append((q, r))
    COLUMNS.append(col)
INDEX = {qr: i for i, qr in enumerate(CELLS)}
NCELLS = len(CELLS)
assert NCELLS == 37 and [len(c) for c in COLUMNS] == [1, 2, 7, 6, 5, 6, 7, 2, 1]


def cell(name):
    return int(name) - 1


def name(c):
    return str(c + 1)


def add(c, d):
    q, r = CELLS[c]
    return INDEX.get((q + d[0], r + d[1]))


N_, S_, NE, SE, NW, SW = (0, 1), (0, -1), (1, 0), (1, -1), (-1, 1), (-1, 0)
ALL_DIRS = (N_, S_, NE, SE, NW, SW)
KNIGHT = ((1, 2), (-1, 3), (2, 1), (3, -1), (3, -2), (2, -3), (1, -3), (-1, -2), (-2, -1), (-3, 1),
          (-3, 2), (-2, 3))
# The knight's leaps are the 12 sums 2a + b over directions a, b at 60 degrees: check the table.
assert sorted(KNIGHT) == sorted({(2 * a[0] + b[0], 2 * a[1] + b[1]) for a in ALL_DIRS for b in ALL_DIRS
                                 if a != b and (a[0] + b[0], a[1] + b[1]) != (0, 0)
                                 and (a[0] * b[0] + a[1] * b[1] + (a[0] + a[1]) * (b[0] + b[1])) > 0})

WHITE, BLACK = 0, 1
PAWN_FORWARD = {WHITE: N_, BLACK: S_}
PAWN_CAPTURES = {WHITE: (NE, NW), BLACK: (SE, SW)}
SLIDES = {'Q': ALL_DIRS, 'R': (N_, S_), 'B': (NE, SE, NW, SW)}
STEPS = {'K': ALL_DIRS, 'N': KNIGHT}

BACK_RANK = {WHITE: [cell(x) for x in '4 11 17 22 28'.split()],
             BLACK: [cell(x) for x in '10 16 21 27 34'.split()]}
PAWN_START = {WHITE: [cell(x) for x in '5 12 18 23 29'.split()],
              BLACK: [cell(x) for x in '9 15 20 26 33'.split()]}
# The back rank is the bottom (White) or top (Black) cell of each inner column, the start
# cells the second ones: check the lists against the board.
assert BACK_RANK[WHITE] == [COLUMNS[i][0] for i in range(2, 7)]
assert BACK_RANK[BLACK] == [COLUMNS[i][-1] for i in range(2, 7)]
assert PAWN_START[WHITE] == [COLUMNS[i][1] for i in range(2, 7)]
assert PAWN_START[BLACK] == [COLUMNS[i][-2] for i in range(2, 7)]

HAND_ORDER = 'KQRBN'
PROMOTIONS = 'QRBN'

VARIANTS = ('starchess', 'starchess-ludii')

# ---------------------------------------------------------------------------------------------
# Positions.  board[c] is None or (colour, letter upper case).


class Pos:
    __slots__ = ('variant', 'board', 'hand', 'side', 'limping', 'ep', 'ep_victim', 'halfmove', 'fullmove')

    def copy(self):
        p = Pos()
        p.variant = self.variant
        p.board = self.board[:]
        p.hand = [dict(self.hand[0]), dict(self.hand[1])]
        p.side = self.side
        p.limping = set(self.limping)
        p.ep, p.ep_victim = self.ep, self.ep_victim
        p.halfmove, p.fullmove = self.halfmove, self.fullmove
        return p

    @property
    def ludii(self):
        return self.variant == 'starchess-ludii'


def from_fen(variant, fen):
    f = fen.split()
    ludii = variant == 'starchess-ludii'
    pos = Pos()
    pos.variant = variant
    board_text = f[0]
    assert board_text.endswith(']') and '[' in board_text, fen
    board_text, hand_text = board_text[:-1].split('[')
    pos.hand = [{k: 0 for k in HAND_ORDER}, {k: 0 for k in HAND_ORDER}]
    for ch in hand_text:
        pos.hand[WHITE if ch.isupper() else BLACK][ch.upper()] += 1
    pos.board = [None] * NCELLS
    pos.limping = set()
    cols = board_text.split('/')
    assert len(cols) == 9, fen
    for col, text in zip(COLUMNS, cols):
        k, i = 0, 0
        while i < len(text):
            ch = text[i]
            if ch.isdigit():
                j = i
                while j < len(text) and text[j].isdigit():
                    j += 1
                k += int(text[i:j])
                i = j
                continue
            if ch == '~':
                pos.limping.add(col[k - 1])
                i += 1
                continue
            pos.board[col[k]] = (WHITE if ch.isupper() else BLACK, ch.upper())
            k += 1
            i += 1
        assert k == len(col), fen
    pos.side = WHITE if f[1] == 'w' else BLACK
    rest = f[2:]
    pos.ep = pos.ep_victim = None
    if ludii:
        if rest[0] != '-':
            pos.ep = cell(rest[0])
            # The pawn that double stepped over ep stands one step further, seen from its side.
            pos.ep_victim = add(pos.ep, PAWN_FORWARD[1 - pos.side])
        rest = rest[1:]
    pos.halfmove = int(rest[0]) if rest else 0
    pos.fullmove = int(rest[1]) if len(rest) > 1 else 1
    return pos


def to_fen(pos):
    cols = []
    for col in COLUMNS:
        out, gap = '', 0
        for c in col:
            p = pos.board[c]
            if p is None:
                gap += 1
                continue
            if gap:
                out += str(gap)
                gap = 0
            out += p[1] if p[0] == WHITE else p[1].lower()
            if c in pos.limping and not pos.ludii:
                out += '~'
        cols.append(out + (str(gap) if gap else ''))
    hand = ''.join(k * pos.hand[WHITE][k] for k in HAND_ORDER) + \
        ''.join(k.lower() * pos.hand[BLACK][k] for k in HAND_ORDER)
    text = '%s[%s] %s' % ('/'.join(cols), hand, 'wb'[pos.side])
    if pos.ludii:
        text += ' ' + (name(pos.ep) if pos.ep is not None else '-')
    return text + ' %d %d' % (pos.halfmove, pos.fullmove)


START = {'starchess': '1/2/1P3p1/1P2p1/1P1p1/1P2p1/1P3p1/2/1[KQRBNkqrbn] w 0 1',
         'starchess-ludii': '1/2/1P3p1/1P2p1/1P1p1/1P2p1/1P3p1/2/1[KQRBNkqrbn] w - 0 1'}

# ---------------------------------------------------------------------------------------------
# Moves: (kind, from, to, piece) with kind 'place' (piece = letter), 'move' (piece = promotion
# letter or ''), 'double', 'ep'.


def move_text(m):
    kind, frm, to, piece = m
    if kind == 'place':
        return '%s@%s' % (piece, name(to))
    return '%s-%s%s' % (name(frm), name(to), piece.lower())


def targets(board, c, colour, letter):
    """Cells a piece could capture on (the attack set), ignoring what stands there."""
    out = []
    if letter == 'P':
        for d in PAWN_CAPTURES[colour]:
            t = add(c, d)
            if t is not None:
                out.append(t)
    elif letter in STEPS:
        for d in STEPS[letter]:
            t = add(c, d)
            if t is not None:
                out.append(t)
    else:
        for d in SLIDES[letter]:
            t = add(c, d)
            while t is not None:
                out.append(t)
                if board[t] is not None:
                    break
                t = add(t, d)
    return out


def attacked(board, x, by):
    for c in range(NCELLS):
        p = board[c]
        if p is not None and p[0] == by and x in targets(board, c, by, p[1]):
            return True
    return False


def king_cell(board, colour):
    for c in range(NCELLS):
        if board[c] == (colour, 'K'):
            return c
    return None


def pseudo_moves(pos):
    us = pos.side
    board = pos.board
    out = []
    if any(pos.hand[us].values()):
        for letter in HAND_ORDER:
            if pos.hand[us][letter]:
                for c in BACK_RANK[us]:
                    if board[c] is None:
                        out.append(('place', None, c, letter))
        return out
    them = 1 - us
    promo_zone = BACK_RANK[them]
    for c in range(NCELLS):
        p = board[c]
        if p is None or p[0] != us:
            continue
        letter = p[1]
        if letter == 'P':
            def pawn_to(kind, t):
                if t in promo_zone:
                    for x in PROMOTIONS:
                        out.append((kind, c, t, x))
                else:
                    out.append((kind, c, t, ''))
            one = add(c, PAWN_FORWARD[us])
            if one is not None and board[one] is None:
                pawn_to('move', one)
                two = add(one, PAWN_FORWARD[us])
                may_double = c in PAWN_START[us] and (pos.ludii or c not in pos.limping)
                if may_double and two is not None and board[two] is None:
                    pawn_to('double', two)
            for d in PAWN_CAPTURES[us]:
                t = add(c, d)
                if t is None:
                    continue
                if board[t] is not None and board[t][0] == them:
                    pawn_to('move', t)
                elif board[t] is None and pos.ludii and t == pos.ep:
                    out.append(('ep', c, t, ''))
            continue
        for t in targets(board, c, us, letter):
            if board[t] is None or board[t][0] == them:
                out.append(('move', c, t, ''))
    return out


def make(pos, m):
    kind, frm, to, piece = m
    new = pos.copy()
    us = pos.side
    new.ep = new.ep_victim = None
    if kind == 'place':
        new.hand[us][piece] -= 1
        new.board[to] = (us, piece)
        # Placements count for nothing else: no counter moves.
    else:
        moving = pos.board[frm]
        captured = pos.board[to]
        if kind == 'ep':
            captured = pos.board[pos.ep_victim]
            new.board[pos.ep_victim] = None
        new.board[frm] = None
        new.board[to] = (us, piece) if piece else moving
        new.limping.discard(frm)
        new.limping.discard(to)
        if moving[1] == 'P' and not piece and to in PAWN_START[us]:
            # Only a capture can bring a pawn onto a start cell of its side (each column has
            # one start cell, and a pawn never goes backwards): it now limps.
            assert kind == 'move' and captured is not None
            new.limping.add(to)
        if kind == 'double':
            new.ep = add(frm, PAWN_FORWARD[us])
            new.ep_victim = to
        new.halfmove = 0 if captured is not None or moving[1] == 'P' else pos.halfmove + 1
        if us == BLACK:
            new.fullmove += 1
    new.side = 1 - us
    return new


def legal_moves(pos):
    us = pos.side
    out = []
    for m in pseudo_moves(pos):
        new = make(pos, m)
        k = king_cell(new.board, us)
        if k is None:
            # Safe only while the king is in hand (a king is never captured in a legal game).
            assert new.hand[us]['K'] == 1
        elif attacked(new.board, k, 1 - us):
            continue
        out.append((m, new))
    return out


def in_check(pos):
    k = king_cell(pos.board, pos.side)
    return k is not None and attacked(pos.board, k, 1 - pos.side)


# ---------------------------------------------------------------------------------------------
# Modes of this file, and random positions.


SETUP = 'K@17 K@21 Q@22 Q@16 R@28 R@10 B@11 B@27 N@4 N@34'.split()
AFTER_SETUP = {'starchess': '1/2/NP3pr/BP2pq/KP1pk/QP2pb/RP3pn/2/1[] w 0 1',
               'starchess-ludii': '1/2/NP3pr/BP2pq/KP1pk/QP2pb/RP3pn/2/1[] w - 0 1'}


def play(pos, texts):
    for t in texts:
        pos = dict((move_text(m), new) for m, new in legal_moves(pos))[t]
    return pos


def mode_setup(args):
    depth = int(args[args.index('--depth') + 1]) if '--depth' in args else 4
    bad = 0
    for variant in VARIANTS:
        start = from_fen(variant, START[variant])
        pos = play(start, SETUP)
        assert to_fen(pos) == AFTER_SETUP[variant], to_fen(pos)
        for pos, depths in ((pos, range(1, depth + 1)), (start, (3,))):
            for d in depths:
                ok, total, problem = reference_driver.compare(RULES, variant, pos, d)
                print('%s %s %s depth %d: %d %s' % ('OK  ' if ok else 'DIFF', variant, to_fen(pos), d, total, problem))
                bad += not ok
    return 1 if bad else 0


def random_setup_moves(rng, pos, plies):
    """Up to `plies` setup moves in random order."""
    moves = []
    while plies > 0 and any(pos.hand[pos.side].values()):
        m, pos = rng.choice(legal_moves(pos))
        moves.append(move_text(m))
        plies -= 1
    return pos, moves


def random_play(rng, pos, plies, bias):
    """Random movement moves; with probability `bias` a capture, promotion or double step is
    preferred when there is one (to reach limping pawns, en passant and promotions)."""
    moves = []
    for _ in range(plies):
        legal = legal_moves(pos)
        if not legal:
            break
        special = [x for x in legal if x[0][0] in ('double', 'ep') or x[0][3]
                   or pos.board[x[0][2]] is not None]
        m, pos = rng.choice(special if special and rng.random() < bias else legal)
        moves.append(move_text(m))
    return pos, moves


def random_positions(rng, o):
    """Random setups and random play (capture- and pawn-biased), every third game stopping inside
    the setup; each position also read in the other rule set (without its EP field)."""
    for game in range(o['games']):
        variant = VARIANTS[game % 2]
        start = from_fen(variant, START[variant])
        if game % 3 == 0:
            pos, moves = random_setup_moves(rng, start, rng.randint(0, 9))
            checkpoints = [(pos, moves)]
        else:
            pos, moves = random_setup_moves(rng, start, 10)
            checkpoints = []
            bias = rng.choice((0.0, 0.5, 0.9))
            for _ in range(4):
                pos, more = random_play(rng, pos, rng.randint(1, o['plies'] // 4), bias)
                moves = moves + more
                checkpoints.append((pos, moves))
        for pos, moves in checkpoints:
            yield variant, START[variant], moves, pos
            other = pos.copy()
            other.variant = VARIANTS[1 - VARIANTS.index(variant)]
            other.ep = other.ep_victim = None  # the other rule set's text has no (or an empty) EP field
            yield other.variant, to_fen(other), [], other


def features(variant, pos):
    legal = legal_moves(pos)
    forward = PAWN_FORWARD[pos.side]

    def empty(c):
        return c is not None and pos.board[c] is None
    kinds = {
        'setup phase': any(pos.hand[pos.side].values()),
        'in check': in_check(pos),
        'no legal move': not legal,
        'limping pawn on board': bool(pos.limping),
        'limping pawn that could double step but may not': any(
            pos.board[c][0] == pos.side and empty(add(c, forward)) and empty(add(add(c, forward), forward))
            for c in pos.limping if add(c, forward) is not None),
        'en-passant capture legal': any(m[0] == 'ep' for m, _ in legal),
        'promotion legal': any(m[3] for m, _ in legal),
        'pawn on 1/2/3/35/36/37': any(pos.board[c] is not None and pos.board[c][1] == 'P'
                                      for c in map(cell, '1 2 3 35 36 37'.split())),
        'double step legal': any(m[0] == 'double' for m, _ in legal),
    }
    return {k for k, v in kinds.items() if v}


class RULES:
    """What tools/reference_driver.py needs: Starchess in both rule sets."""
    VARIANTS = VARIANTS
    start = staticmethod(lambda variant: START[variant])
    parse = staticmethod(from_fen)
    write = staticmethod(to_fen)
    moves = staticmethod(lambda variant, pos: [(move_text(m), new, '') for m, new in legal_moves(pos)])
    children = staticmethod(lambda variant, pos: [new for _, new in legal_moves(pos)])
    in_check = staticmethod(lambda variant, pos: in_check(pos))
    random = staticmethod(random_positions)
    features = staticmethod(features)
    EPD_MAX_NODES = 2000000
    RANDOM = {'games': 100, 'plies': 60, 'depth': 3, 'budget': 300000}
    MODES = {'setup': ('setup [--depth D]                the position after the brief\'s standard setup, both rule\n'
                       '                                   sets, depths 1..D (default 4), and the start at depth 3',
                       mode_setup)}


if __name__ == '__main__':
    sys.exit(reference_driver.main(RULES, sys.argv, __doc__))
