#!/usr/bin/env python3
"""
An independent reference move generator for "Move as square says" (shared/rules/square-says.md),
used to check `starfish perft square-says` and `starfish perft square-says-reversed`.

Written from the rules text only; it shares no code or tables with src/.  The rules, as applied
here literally:

  * 8x8; every square carries a fixed mark (R N B Q K P, table MARKS below).  Every piece, the
    royal one included, moves and captures exactly as the orthodox piece named by the mark of
    the square it stands on now.  A K mark gives king steps, not royalty.
  * On a P square a piece moves as a pawn of its own colour: one step forward to an empty
    square; a diagonal forward capture; a double step from its 2nd rank (White rank 2, Black
    rank 7) through an empty square to an empty square, whether or not it has moved before.
  * En passant: right after a double step, an enemy piece standing on a P square whose pawn
    capture covers the passed square may capture the double-stepped piece there, on that move
    only (the royal may capture so).
  * A move may not leave the mover's royal attackable; a royal that double steps is also in
    check when an enemy piece on a P square covers the passed square (it could be taken en
    passant).
  * Castling: royal and corner piece unmoved (tracked by the FEN castling letters), the squares
    strictly between them empty, the royal not in check and the square it passes over and the
    square it lands on not attacked; royal two squares toward the corner, the corner piece onto
    the square passed over.  Written as the royal moving onto its corner (e1h1, e1a1, d8h8 ...).
  * No promotion.

Runs under python3 or, several times faster, pypy3.

The command line (perft, moves, compare, fen, epd, random) is tools/reference_driver.py's,
shared by every reference file.  Run it without arguments for the list.
"""
import sys

import reference_driver

# ---------------------------------------------------------------------------------------------
# Squares: index = file + 8 * rank, file 0 = a, rank 0 = rank 1.

MARK_ROWS = {  # rank number -> marks a..h, copied from the rules' diagram
    8: "RNBQQBNR",
    7: "PPPPPPPP",
    6: "KRNBBNRK",
    5: "PPPPPPPP",
    4: "PPPPPPPP",
    3: "KRNBBNRK",
    2: "PPPPPPPP",
    1: "RNBQQBNR",
}
MARKS = [MARK_ROWS[s // 8 + 1][s % 8] for s in range(64)]

WHITE, BLACK = 0, 1
FILES = "abcdefgh"


def name(s):
    return FILES[s % 8] + str(s // 8 + 1)


def parse_square(t):
    return FILES.index(t[0]) + 8 * (int(t[1]) - 1)


def on_board(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def forward(colour):
    return 1 if colour == WHITE else -1


# Pieces: None (empty) or a tuple (colour, royal).
def letter(p):
    ch = 'K' if p[1] else 'M'
    return ch if p[0] == WHITE else ch.lower()


def piece_of(ch):
    if ch in 'KM':
        return (WHITE, ch == 'K')
    if ch in 'km':
        return (BLACK, ch == 'k')
    raise ValueError("bad piece letter %r" % ch)


KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
ROOK_DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))
BISHOP_DIRS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
SLIDES = {'R': ROOK_DIRS, 'B': BISHOP_DIRS, 'Q': ROOK_DIRS + BISHOP_DIRS}

# Castling, per variant: FEN letter -> (colour, royal from, royal to, corner, corner to).
CASTLING_STD = {
    'K': (WHITE, 'e1', 'g1', 'h1', 'f1'),
    'Q': (WHITE, 'e1', 'c1', 'a1', 'd1'),
    'k': (BLACK, 'e8', 'g8', 'h8', 'f8'),
    'q': (BLACK, 'e8', 'c8', 'a8', 'd8'),
}
CASTLING_REV = dict(CASTLING_STD)
CASTLING_REV['k'] = (BLACK, 'd8', 'f8', 'h8', 'e8')
CASTLING_REV['q'] = (BLACK, 'd8', 'b8', 'a8', 'c8')
CASTLING = {
    'square-says': {k: tuple([v[0]] + [parse_square(x) for x in v[1:]]) for k, v in CASTLING_STD.items()},
    'square-says-reversed': {k: tuple([v[0]] + [parse_square(x) for x in v[1:]]) for k, v in CASTLING_REV.items()},
}
START = {
    'square-says': "mmmmkmmm/mmmmmmmm/8/8/8/8/MMMMMMMM/MMMMKMMM w KQkq - 0 1",
    'square-says-reversed': "mmmkmmmm/mmmmmmmm/8/8/8/8/MMMMMMMM/MMMMKMMM w KQkq - 0 1",
}
VARIANTS = tuple(START)

NORMAL, DOUBLE, EP, CASTLE = 'n', 'd', 'e', 'c'


class Pos:
    __slots__ = ('variant', 'board', 'side', 'rights', 'ep', 'halfmove', 'fullmove')

    def copy(self):
        p = Pos()
        p.variant = self.variant
        p.board = self.board[:]
        p.side = self.side
        p.rights = self.rights
        p.ep = self.ep
        p.halfmove = self.halfmove
        p.fullmove = self.fullmove
        return p


def from_fen(variant, fen):
    f = fen.split()
    p = Pos()
    p.variant = variant
    p.board = [None] * 64
    rows = f[0].split('/')
    assert len(rows) == 8, fen
    for i, row in enumerate(rows):
        r = 7 - i
        c = 0
        for ch in row:
            if ch.isdigit():
                c += int(ch)
            else:
                p.board[c + 8 * r] = piece_of(ch)
                c += 1
        assert c == 8, fen
    p.side = WHITE if f[1] == 'w' else BLACK
    p.rights = '' if f[2] == '-' else ''.join(ch for ch in 'KQkq' if ch in f[2])
    p.ep = None if f[3] == '-' else parse_square(f[3])
    p.halfmove = int(f[4]) if len(f) > 4 else 0
    p.fullmove = int(f[5]) if len(f) > 5 else 1
    return p


def to_fen(p):
    rows = []
    for r in range(7, -1, -1):
        s, run = '', 0
        for c in range(8):
            x = p.board[c + 8 * r]
            if x is None:
                run += 1
            else:
                if run:
                    s += str(run)
                run = 0
                s += letter(x)
        if run:
            s += str(run)
        rows.append(s)
    return "%s %s %s %s %d %d" % ('/'.join(rows), 'w' if p.side == WHITE else 'b', p.rights or '-',
                                  name(p.ep) if p.ep is not None else '-', p.halfmove, p.fullmove)


# ---------------------------------------------------------------------------------------------
# Movement.

def covers(board, s, x):
    """Could the piece on s capture on x (were an enemy there), moving as the mark of s says?"""
    colour = board[s][0]
    m = MARKS[s]
    sf, sr, xf, xr = s % 8, s // 8, x % 8, x // 8
    df, dr = xf - sf, xr - sr
    if m == 'P':
        return dr == forward(colour) and abs(df) == 1
    if m == 'N':
        return (abs(df), abs(dr)) in ((1, 2), (2, 1))
    if m == 'K':
        return max(abs(df), abs(dr)) == 1
    if (df, dr) == (0, 0):
        return False
    straight = df == 0 or dr == 0
    diagonal = abs(df) == abs(dr)
    if not ((m in 'RQ' and straight) or (m in 'BQ' and diagonal)):
        return False
    step_f = (df > 0) - (df < 0)
    step_r = (dr > 0) - (dr < 0)
    f, r = sf + step_f, sr + step_r
    while (f, r) != (xf, xr):
        if board[f + 8 * r] is not None:
            return False
        f += step_f
        r += step_r
    return True


def attacked(board, x, by):
    for s in range(64):
        q = board[s]
        if q is not None and q[0] == by and covers(board, s, x):
            return True
    return False


def royal_square(board, colour):
    for s in range(64):
        q = board[s]
        if q is not None and q[0] == colour and q[1]:
            return s
    return None


def pseudo_moves(p):
    """Every move of the side to move by its pieces' marks, without the royal-safety test."""
    out = []
    board, us = p.board, p.side
    for s in range(64):
        q = board[s]
        if q is None or q[0] != us:
            continue
        m = MARKS[s]
        f, r = s % 8, s // 8
        if m == 'P':
            fw = forward(us)
            if on_board(f, r + fw) and board[s + 8 * fw] is None:
                out.append((s, s + 8 * fw, NORMAL))
                second_rank = 1 if us == WHITE else 6
                if r == second_rank and board[s + 16 * fw] is None:
                    out.append((s, s + 16 * fw, DOUBLE))
            for df in (-1, 1):
                if not on_board(f + df, r + fw):
                    continue
                t = f + df + 8 * (r + fw)
                if board[t] is not None and board[t][0] != us:
                    out.append((s, t, NORMAL))
                elif board[t] is None and t == p.ep:
                    out.append((s, t, EP))
        elif m in 'NK':
            for df, dr in (KNIGHT if m == 'N' else KING):
                if on_board(f + df, r + dr):
                    t = f + df + 8 * (r + dr)
                    if board[t] is None or board[t][0] != us:
                        out.append((s, t, NORMAL))
        else:
            for df, dr in SLIDES[m]:
                ff, rr = f + df, r + dr
                while on_board(ff, rr):
                    t = ff + 8 * rr
                    if board[t] is None:
                        out.append((s, t, NORMAL))
                    else:
                        if board[t][0] != us:
                            out.append((s, t, NORMAL))
                        break
                    ff += df
                    rr += dr
    # Castling.
    for ch, (colour, kf, kt, cf, ct) in CASTLING[p.variant].items():
        if colour != us or ch not in p.rights:
            continue
        if board[kf] != (us, True) or board[cf] != (us, False):
            continue
        lo, hi = min(kf, cf), max(kf, cf)
        if any(board[x] is not None for x in range(lo + 1, hi)):
            continue
        step = 1 if kt > kf else -1
        if any(attacked(board, x, us ^ 1) for x in (kf, kf + step, kt)):
            continue
        out.append((kf, kt, CASTLE))
    return out


def make(p, mv):
    s, t, kind = mv
    n = p.copy()
    board = n.board
    us = p.side
    captured = False
    if kind == CASTLE:
        for ch, (colour, kf, kt, cf, ct) in CASTLING[p.variant].items():
            if colour == us and kf == s and kt == t:
                royal, corner = board[kf], board[cf]
                board[kf] = board[cf] = None
                board[kt], board[ct] = royal, corner
                touched = (kf, cf)
                break
        else:
            raise AssertionError("no castling %s" % (mv,))
    else:
        if kind == EP:
            victim = p.ep + 8 * forward(us ^ 1)  # the double stepper stands one step beyond
            assert board[victim] is not None and board[victim][0] != us
            board[victim] = None
            captured = True
        elif board[t] is not None:
            captured = True
        board[t] = board[s]
        board[s] = None
        touched = (s, t)
    # A right goes when its royal's or corner's square is left or entered.
    table = CASTLING[p.variant]
    n.rights = ''.join(ch for ch in p.rights if table[ch][1] not in touched and table[ch][3] not in touched)
    n.ep = (s + t) // 2 if kind == DOUBLE else None
    n.halfmove = 0 if captured else p.halfmove + 1  # pawn-square moves do not reset it
    n.fullmove = p.fullmove + (1 if us == BLACK else 0)
    n.side = us ^ 1
    return n


def leaves_royal_safe(n, mv, mover):
    """After move mv by `mover` (n is the position after it): is the mover's royal safe?"""
    k = royal_square(n.board, mover)
    if k is None:
        return False
    if attacked(n.board, k, mover ^ 1):
        return False
    if mv[2] == DOUBLE and k == mv[1]:
        # the royal double stepped: an enemy on a P square covering the passed square could
        # take it en passant
        passed = n.ep
        for s in range(64):
            q = n.board[s]
            if q is not None and q[0] != mover and MARKS[s] == 'P' and covers(n.board, s, passed):
                return False
    return True


def legal_moves(p):
    out = []
    for mv in pseudo_moves(p):
        n = make(p, mv)
        if leaves_royal_safe(n, mv, p.side):
            out.append((mv, n))
    return out


def in_check(p):
    k = royal_square(p.board, p.side)
    return k is not None and attacked(p.board, k, p.side ^ 1)


def move_text(p, mv):
    s, t, kind = mv
    if kind == CASTLE:
        for ch, (colour, kf, kt, cf, ct) in CASTLING[p.variant].items():
            if colour == p.side and kf == s and kt == t:
                return name(s) + name(cf)
    return name(s) + name(t)


# ---------------------------------------------------------------------------------------------
# Random positions.

def features(p):
    """The special situations present in p (for the coverage tally)."""
    f = set()
    moves = legal_moves(p)
    if in_check(p):
        f.add('check')
    if not moves:
        f.add('mate' if in_check(p) else 'stalemate')
    for mv, n in moves:
        if mv[2] == EP:
            f.add('ep')
            if p.board[mv[0]][1]:
                f.add('ep-by-royal')
        if mv[2] == CASTLE:
            f.add('castling')
        if mv[2] == DOUBLE and p.board[mv[0]][1]:
            f.add('royal-double-step')
    # pseudo-legal moves refused for a reason the rules name
    for mv in pseudo_moves(p):
        n = make(p, mv)
        if not leaves_royal_safe(n, mv, p.side):
            if mv[2] == DOUBLE and p.board[mv[0]][1] and not attacked(n.board, mv[1], p.side ^ 1):
                f.add('royal-double-step-refused-ep')
            if mv[2] == EP:
                f.add('ep-refused')
    if p.ep is not None:
        f.add('ep-field')
    if p.rights:
        f.add('rights')
    return f


def thinned_start(variant, rng, keep):
    """The start with each man kept with probability `keep` (Black not left in check)."""
    while True:
        p = from_fen(variant, START[variant])
        for s in range(64):
            q = p.board[s]
            if q is not None and not q[1] and rng.random() > keep:
                p.board[s] = None
        table = CASTLING[variant]
        p.rights = ''.join(ch for ch in 'KQkq' if p.board[table[ch][3]] is not None)
        if not attacked(p.board, royal_square(p.board, BLACK), WHITE):
            return p


def random_walk(p, rng, plies, capture_bias=0.0, prefer=None, royal_bias=0.0):
    """Random play; `prefer`: move kinds chosen first when present, `royal_bias`: how often a
    royal move is chosen when there is one.  A walk that reaches the end of the game usually
    steps back one ply, so that most positions have moves.  Returns the position and the moves
    played."""
    path = []
    for _ in range(plies):
        moves = legal_moves(p)
        if not moves:
            break
        pick = None
        if prefer:
            special = [x for x in moves if x[0][2] in prefer]
            if special and rng.random() < 0.7:
                pick = rng.choice(special)
        if pick is None and royal_bias and rng.random() < royal_bias:
            royal = [x for x in moves if p.board[x[0][0]][1]]
            if royal:
                pick = rng.choice(royal)
        if pick is None and capture_bias and rng.random() < capture_bias:
            caps = [x for x in moves if x[0][2] == EP or p.board[x[0][1]] is not None]
            if caps:
                pick = rng.choice(caps)
        if pick is None:
            pick = rng.choice(moves)
        path.append((p, move_text(p, pick[0])))
        p = pick[1]
    if not legal_moves(p) and path and rng.random() >= 0.2:
        p = path.pop()[0]
    return p, [text for _, text in path]


def offer_en_passant(p, rng):
    """Plays a double step after which the opponent may take en passant, when there is one:
    the position, and the move played (or none)."""
    good = [(n, move_text(p, mv)) for mv, n in legal_moves(p)
            if mv[2] == DOUBLE and any(m[2] == EP for m, _ in legal_moves(n))]
    if not good:
        return p, []
    n, text = rng.choice(good)
    return n, [text]


def random_positions(rng, o):
    """Random play from both starts in five styles: plain, capture-biased, from a thinned start
    leaning toward castling, double steps and en passant, leaning toward double steps, and from
    a thinned start with the royals walking about."""
    for i in range(o['games']):
        variant = VARIANTS[i % 2]
        style = (i // 2) % 5
        start = from_fen(variant, START[variant])
        if style == 0:
            p, path = random_walk(start, rng, rng.randint(1, 60))
        elif style == 1:
            p, path = random_walk(start, rng, rng.randint(4, 80), capture_bias=0.8)
        elif style == 2:
            start = thinned_start(variant, rng, rng.uniform(0.2, 0.7))
            p, path = random_walk(start, rng, rng.randint(0, 12), prefer=(DOUBLE, CASTLE, EP))
            p, more = offer_en_passant(p, rng)
            path += more
        elif style == 3:
            p, path = random_walk(start, rng, rng.randint(2, 40), capture_bias=0.3, prefer=(DOUBLE, EP))
            p, more = offer_en_passant(p, rng)
            path += more
        else:
            start = thinned_start(variant, rng, rng.uniform(0.3, 0.8))
            p, path = random_walk(start, rng, rng.randint(4, 30), royal_bias=0.6, prefer=(EP,))
            if rng.random() < 0.5:
                p, more = offer_en_passant(p, rng)
                path += more
        yield variant, to_fen(start), path, p


class RULES:
    """What tools/reference_driver.py needs: both forms of the game."""
    VARIANTS = VARIANTS
    start = staticmethod(lambda variant: START[variant])
    parse = staticmethod(from_fen)
    write = staticmethod(to_fen)
    moves = staticmethod(lambda variant, p: [(move_text(p, mv), n, '') for mv, n in legal_moves(p)])
    children = staticmethod(lambda variant, p: [n for _, n in legal_moves(p)])
    in_check = staticmethod(lambda variant, p: in_check(p))
    random = staticmethod(random_positions)
    features = staticmethod(lambda variant, p: features(p))
    EPD_MAX_NODES = 10000000
    RANDOM = {'games': 200, 'depth': 3, 'budget': 200000}


if __name__ == '__main__':
    sys.exit(reference_driver.main(RULES, sys.argv, __doc__))
