#!/usr/bin/env python3
"""
An independent reference move generator for Starvation (shared/rules/starvation.md), used to
check `starfish perft starvation`.

It shares no code with src/: the orthodox layer (pseudo-legal moves, attacks, FEN) is written
here from scratch on a 10x12 mailbox, and the Starvation layer applies the rules text literally:

  after each move the moved piece is removed unless (1) it was a pawn, (2) it moved FROM a
  square adjacent to a pawn of either colour on the board BEFORE the move, (3) it moved TO a
  square adjacent to a pawn on the board AFTER the move, or (4) it captured a pawn; in
  castling only the king is subject (the rook stays); a move is legal when afterwards (after
  the removal) the mover's king is still on the board and not attacked by an orthodox capture.

The brief asked for python-chess as the orthodox layer, but it cannot be had here (Debian 12
has no python3-chess and PyPI is not reachable), so the orthodox layer is self-written and
checked by `selftest` against the published orthodox perft counts of the six standard
positions (which exercise castling, en passant, promotions, pins and discovered checks).

Runs under python3 or, about ten times faster, pypy3 (Debian package pypy3).

The command line (perft, moves, compare, fen, epd, random) is tools/reference_driver.py's,
shared by every reference file; this file adds selftest, split and firstremoval.  Run it
without arguments for the list.
"""
import random
import sys

import reference_driver

# ---------------------------------------------------------------------------------------------
# Board: 10x12 mailbox, square = 21 + file + 10 * rank (rank 0 = rank 1).  Pieces are ints:
# colour * 8 + type, types P=1 N=2 B=3 R=4 Q=5 K=6; 0 is empty, OFF marks the border.

EMPTY, OFF = 0, 7
P, N, B, R, Q, K = 1, 2, 3, 4, 5, 6
WHITE, BLACK = 0, 1
LETTERS = {P: 'p', N: 'n', B: 'b', R: 'r', Q: 'q', K: 'k'}
TYPE_OF = {v: k for k, v in LETTERS.items()}

KNIGHT_STEPS = (-21, -19, -12, -8, 8, 12, 19, 21)
KING_STEPS = (-11, -10, -9, -1, 1, 9, 10, 11)
BISHOP_DIRS = (-11, -9, 9, 11)
ROOK_DIRS = (-10, -1, 1, 10)

NORMAL, DOUBLE, EP, CASTLE = 0, 1, 2, 3


def sq(file, rank):
    return 21 + file + 10 * rank


def sq_name(s):
    return 'abcdefgh'[(s - 21) % 10] + str((s - 21) // 10 + 1)


def parse_sq(text):
    return sq('abcdefgh'.index(text[0]), int(text[1]) - 1)


ALL_SQUARES = [sq(f, r) for r in range(8) for f in range(8)]
E1, A1, H1, E8, A8, H8 = sq(4, 0), sq(0, 0), sq(7, 0), sq(4, 7), sq(0, 7), sq(7, 7)
# Castling: right letter -> (colour, king from, king to, rook from, rook to, must be empty, must be safe)
CASTLINGS = {
    'K': (WHITE, E1, sq(6, 0), H1, sq(5, 0), (sq(5, 0), sq(6, 0)), (E1, sq(5, 0), sq(6, 0))),
    'Q': (WHITE, E1, sq(2, 0), A1, sq(3, 0), (sq(1, 0), sq(2, 0), sq(3, 0)), (E1, sq(3, 0), sq(2, 0))),
    'k': (BLACK, E8, sq(6, 7), H8, sq(5, 7), (sq(5, 7), sq(6, 7)), (E8, sq(5, 7), sq(6, 7))),
    'q': (BLACK, E8, sq(2, 7), A8, sq(3, 7), (sq(1, 7), sq(2, 7), sq(3, 7)), (E8, sq(3, 7), sq(2, 7))),
}
# A move touching one of these squares (from or to) loses these rights.
RIGHTS_LOST = {E1: 'KQ', A1: 'Q', H1: 'K', E8: 'kq', A8: 'q', H8: 'k'}


def colour(p):
    return p >> 3


def ptype(p):
    return p & 7


class Pos:
    __slots__ = ('board', 'side', 'castling', 'ep', 'halfmove', 'fullmove')

    def copy(self):
        c = Pos()
        c.board = self.board[:]
        c.side, c.castling, c.ep = self.side, self.castling, self.ep
        c.halfmove, c.fullmove = self.halfmove, self.fullmove
        return c


def from_fen(fen):
    f = fen.split()
    pos = Pos()
    pos.board = [OFF] * 120
    for s in ALL_SQUARES:
        pos.board[s] = EMPTY
    rows = f[0].split('/')
    assert len(rows) == 8, fen
    for i, row in enumerate(rows):
        rank, file = 7 - i, 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                pos.board[sq(file, rank)] = (WHITE if ch.isupper() else BLACK) * 8 + TYPE_OF[ch.lower()]
                file += 1
        assert file == 8, fen
    pos.side = WHITE if f[1] == 'w' else BLACK
    pos.castling = '' if len(f) < 3 or f[2] == '-' else ''.join(c for c in 'KQkq' if c in f[2])
    pos.ep = None if len(f) < 4 or f[3] == '-' else parse_sq(f[3])
    pos.halfmove = int(f[4]) if len(f) > 4 else 0
    pos.fullmove = int(f[5]) if len(f) > 5 else 1
    return pos


def to_fen(pos):
    rows = []
    for rank in range(7, -1, -1):
        row, gap = '', 0
        for file in range(8):
            p = pos.board[sq(file, rank)]
            if p == EMPTY:
                gap += 1
                continue
            if gap:
                row += str(gap)
                gap = 0
            letter = LETTERS[ptype(p)]
            row += letter.upper() if colour(p) == WHITE else letter
        rows.append(row + (str(gap) if gap else ''))
    return '%s %s %s %s %d %d' % ('/'.join(rows), 'wb'[pos.side], pos.castling or '-',
                                  sq_name(pos.ep) if pos.ep is not None else '-', pos.halfmove, pos.fullmove)


def move_text(m):
    frm, to, promo, _ = m
    return sq_name(frm) + sq_name(to) + (LETTERS[promo] if promo else '')


# ---------------------------------------------------------------------------------------------
# Orthodox layer.

def attacked(board, s, by):
    """Could a piece of colour `by` capture on s by an orthodox move?"""
    base = by * 8
    # Pawns: a white pawn attacks s from s-9 and s-11, a black one from s+9 and s+11.
    pawn = base + P
    if by == WHITE:
        if board[s - 9] == pawn or board[s - 11] == pawn:
            return True
    elif board[s + 9] == pawn or board[s + 11] == pawn:
        return True
    knight, king = base + N, base + K
    for d in KNIGHT_STEPS:
        if board[s + d] == knight:
            return True
    for d in KING_STEPS:
        if board[s + d] == king:
            return True
    bishop, rook, queen = base + B, base + R, base + Q
    for d in BISHOP_DIRS:
        t = s + d
        while board[t] == EMPTY:
            t += d
        if board[t] == bishop or board[t] == queen:
            return True
    for d in ROOK_DIRS:
        t = s + d
        while board[t] == EMPTY:
            t += d
        if board[t] == rook or board[t] == queen:
            return True
    return False


def find_king(board, side):
    king = side * 8 + K
    for s in ALL_SQUARES:
        if board[s] == king:
            return s
    return None


def pseudo_moves(pos):
    """Orthodox pseudo-legal moves: (from, to, promotion type or 0, kind)."""
    board, us = pos.board, pos.side
    out = []
    fwd = 10 if us == WHITE else -10
    start_rank, last_rank = (1, 7) if us == WHITE else (6, 0)
    for s in ALL_SQUARES:
        p = board[s]
        if p == EMPTY or colour(p) != us:
            continue
        t = ptype(p)
        if t == P:
            rank = (s - 21) // 10
            targets = []
            one = s + fwd
            if board[one] == EMPTY:
                targets.append((one, NORMAL))
                if rank == start_rank and board[one + fwd] == EMPTY:
                    out.append((s, one + fwd, 0, DOUBLE))
            for d in (fwd - 1, fwd + 1):
                c = s + d
                q = board[c]
                if q != OFF and q != EMPTY and colour(q) != us:
                    targets.append((c, NORMAL))
                elif q == EMPTY and c == pos.ep:
                    out.append((s, c, 0, EP))
            for c, kind in targets:
                if (c - 21) // 10 == last_rank:
                    for promo in (Q, R, B, N):
                        out.append((s, c, promo, kind))
                else:
                    out.append((s, c, 0, kind))
        elif t == N or t == K:
            for d in (KNIGHT_STEPS if t == N else KING_STEPS):
                c = s + d
                q = board[c]
                if q == EMPTY or (q != OFF and colour(q) != us):
                    out.append((s, c, 0, NORMAL))
        else:
            dirs = BISHOP_DIRS if t == B else ROOK_DIRS if t == R else KING_STEPS
            for d in dirs:
                c = s + d
                while board[c] == EMPTY:
                    out.append((s, c, 0, NORMAL))
                    c += d
                q = board[c]
                if q != OFF and colour(q) != us:
                    out.append((s, c, 0, NORMAL))
    for right in pos.castling:
        side, kf, kt, rf, rt, empty, safe = CASTLINGS[right]
        if side != us or board[kf] != us * 8 + K or board[rf] != us * 8 + R:
            continue
        if any(board[c] != EMPTY for c in empty):
            continue
        if any(attacked(board, c, us ^ 1) for c in safe):
            continue
        out.append((kf, kt, 0, CASTLE))
    return out


def next_to_pawn(board, s):
    for d in KING_STEPS:
        q = board[s + d]
        if q != OFF and q != EMPTY and ptype(q) == P:
            return True
    return False


def make(pos, m, starvation):
    """The position after m; also whether the moved piece was removed by the event."""
    frm, to, promo, kind = m
    new = pos.copy()
    board = new.board
    us = pos.side
    moved = board[frm]
    # Condition 2 is judged on the board BEFORE the move.
    from_next_to_pawn = next_to_pawn(pos.board, frm)
    captured = EMPTY
    if kind == EP:
        victim = to - 10 if us == WHITE else to + 10
        captured = board[victim]
        board[victim] = EMPTY
    elif kind != CASTLE:
        captured = board[to]
    board[to] = us * 8 + promo if promo else moved
    board[frm] = EMPTY
    if kind == CASTLE:
        for right, (side, kf, kt, rf, rt, _, _) in CASTLINGS.items():
            if side == us and kf == frm and kt == to:
                board[rf] = EMPTY
                board[rt] = us * 8 + R
    removed = False
    if starvation:
        survives = (ptype(moved) == P or (captured != EMPTY and ptype(captured) == P) or from_next_to_pawn
                    or next_to_pawn(board, to))
        if not survives:
            board[to] = EMPTY
            removed = True
    lost = RIGHTS_LOST.get(frm, '') + RIGHTS_LOST.get(to, '')
    if lost:
        new.castling = ''.join(c for c in new.castling if c not in lost)
    new.ep = (frm + to) // 2 if kind == DOUBLE else None
    new.halfmove = 0 if (ptype(moved) == P or captured != EMPTY) else pos.halfmove + 1
    if us == BLACK:
        new.fullmove += 1
    new.side = us ^ 1
    return new, removed


def legal_after(new, us):
    """Legal iff the mover's king is still on the board and no enemy piece could capture it."""
    k = find_king(new.board, us)
    return k is not None and not attacked(new.board, k, us ^ 1)


def legal_moves(pos, starvation=True):
    """[(move, position after it, removed)] for every legal move."""
    out = []
    for m in pseudo_moves(pos):
        new, removed = make(pos, m, starvation)
        if legal_after(new, pos.side):
            out.append((m, new, removed))
    return out


def in_check(pos):
    k = find_king(pos.board, pos.side)
    return k is not None and attacked(pos.board, k, pos.side ^ 1)


# ---------------------------------------------------------------------------------------------
# Modes.

STANDARD = [  # (FEN, orthodox perft counts by depth), the published values
    ('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', [20, 400, 8902, 197281, 4865609]),
    ('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', [48, 2039, 97862, 4085603]),
    ('8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', [14, 191, 2812, 43238, 674624]),
    ('r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', [6, 264, 9467, 422333]),
    ('rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', [44, 1486, 62379, 2103487]),
    ('r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10', [46, 2079, 89890, 3894594]),
]
START = STANDARD[0][0]
KIWIPETE = STANDARD[1][0]


def mode_selftest(args):
    depth = int(args[0]) if args else 3
    ok = True
    for fen, counts in STANDARD:
        for d in range(1, min(depth, len(counts)) + 1):
            got = reference_driver.perft(RULES, 'chess', from_fen(fen), d)
            good = got == counts[d - 1]
            ok &= good
            print('%s depth %d: %d %s' % (fen, d, got, 'ok' if good else 'WRONG, expected %d' % counts[d - 1]))
    print('orthodox self-test', 'passed' if ok else 'FAILED')
    return 0 if ok else 1


def playout(rng, fen, plies, capture_bias):
    """Random legal Starvation play; with capture_bias, captures (of pawns most) are preferred.
    Returns the position and the moves played."""
    pos, path = from_fen(fen), []
    for _ in range(plies):
        moves = legal_moves(pos)
        if not moves:
            break
        if capture_bias and rng.random() < capture_bias:
            pawn_caps = [x for x in moves if ptype(pos.board[x[0][1]]) == P or x[0][3] == EP]
            caps = pawn_caps or [x for x in moves if pos.board[x[0][1]] != EMPTY]
            if caps:
                moves = caps
        m, pos, _ = rng.choice(moves)
        path.append(move_text(m))
    return pos, path


def thin_pawns(rng, pos, keep):
    """pos with all but `keep` of its pawns taken off (None if that leaves an illegal position)."""
    new = pos.copy()
    pawns = [s for s in ALL_SQUARES if new.board[s] != EMPTY and ptype(new.board[s]) == P]
    rng.shuffle(pawns)
    for s in pawns[keep:]:
        new.board[s] = EMPTY
    new.ep = None  # the double-stepped pawn may be gone
    # The side not to move must not be in check.
    k = find_king(new.board, new.side ^ 1)
    if k is None or attacked(new.board, k, new.side):
        return None
    return new


def random_positions(rng, o):
    """Random play from the start and from Kiwipete: plain, capture-biased, and with the pawns
    thinned out afterwards."""
    for game in range(o['games']):
        start = (START, KIWIPETE)[game % 2]
        kind = ('plain', 'capture-biased', 'thinned')[(game // 2) % 3]
        pos, path = playout(rng, start, rng.randint(4, o['plies']), 0.0 if kind == 'plain' else 0.7)
        root = start
        if kind == 'thinned':
            thinned = thin_pawns(rng, pos, rng.randint(0, 4))
            if thinned:
                pos, root, path = thinned, to_fen(thinned), []
        if legal_moves(pos):
            yield 'starvation', root, path, pos


def features(variant, pos):
    moves = legal_moves(pos, variant == 'starvation')
    found = {'pawns %d' % sum(1 for s in ALL_SQUARES if pos.board[s] != EMPTY and ptype(pos.board[s]) == P)}
    if any(removed for _, _, removed in moves):
        found.add('a move starves')
    if in_check(pos):
        found.add('in check')
    return found


def mode_split(args):
    o = reference_driver.read_options(args, {'prefix': 2, 'samples': 40, 'seed': 1, 'depth': 6})
    rng = random.Random(o['seed'])
    prefixes = [((), from_fen(START))]
    for _ in range(o['prefix']):
        prefixes = [(path + (move_text(m),), new) for path, p in prefixes for m, new, _ in legal_moves(p)]
    chosen = prefixes if o['samples'] == 0 else rng.sample(prefixes, min(o['samples'], len(prefixes)))
    rest = o['depth'] - o['prefix']
    mismatches, nodes = 0, 0
    for path, pos in chosen:
        ok, n, problem = reference_driver.compare(RULES, 'starvation', pos, rest, START, path)
        mismatches += not ok
        nodes += n
        print('%-16s depth %d: %9d %s %s' % (' '.join(path), rest, n, 'ok' if ok else 'MISMATCH', problem), flush=True)
    print('%d of %d %d-ply subtrees compared at depth %d (%d leaves of the depth-%d tree), %d mismatches' % (
        len(chosen), len(prefixes), o['prefix'], rest, nodes, o['depth'], mismatches))
    return 1 if mismatches else 0


def mode_firstremoval(args):
    """Per ply from the start: the legal moves whose moved piece starves, and the moves that
    orthodox chess allows but Starvation forbids (the king would starve, or the removal would
    expose it)."""
    depth = int(args[0])
    positions, removals, forbidden = [0] * (depth + 1), [0] * (depth + 1), [0] * (depth + 1)
    examples, forbidden_examples = {}, {}

    def walk(pos, ply, path):
        positions[ply] += 1
        legal = legal_moves(pos)
        legal_set = set(m for m, _, _ in legal)
        for m, _, _ in legal_moves(pos, starvation=False):
            if m not in legal_set:
                forbidden[ply] += 1
                forbidden_examples.setdefault(ply, path + (move_text(m) + '(illegal)',))
        for m, new, removed in legal:
            if removed:
                removals[ply] += 1
                examples.setdefault(ply, path + (move_text(m) + '^',))
            if ply < depth:
                walk(new, ply + 1, path + (move_text(m),))

    walk(from_fen(START), 1, ())
    for ply in range(1, depth + 1):
        print('ply %d: %d positions, %d starving moves%s; %d orthodox moves forbidden%s' % (
            ply, positions[ply], removals[ply], ' (e.g. %s)' % ' '.join(examples[ply]) if ply in examples else '',
            forbidden[ply], ' (e.g. %s)' % ' '.join(forbidden_examples[ply]) if ply in forbidden_examples else ''))
    return 0


class RULES:
    """What tools/reference_driver.py needs: Starvation, and orthodox chess (no removal)."""
    VARIANTS = ['starvation', 'chess']
    start = staticmethod(lambda variant: START)
    parse = staticmethod(lambda variant, fen: from_fen(fen))
    write = staticmethod(to_fen)
    moves = staticmethod(lambda variant, pos: [(move_text(m), new, '^' if removed else '')
                                               for m, new, removed in legal_moves(pos, variant == 'starvation')])
    children = staticmethod(lambda variant, pos: [new for _, new, _ in legal_moves(pos, variant == 'starvation')])
    in_check = staticmethod(lambda variant, pos: in_check(pos))
    random = staticmethod(random_positions)
    features = staticmethod(features)
    EPD_MAX_NODES = 200000000
    RANDOM = {'games': 40, 'plies': 80, 'budget': 200000, 'max_depth': 5}
    MODES = {
        'selftest': ('selftest [DEPTH]                  orthodox perft of the 6 standard positions vs. published '
                     'counts', mode_selftest),
        'split': ('split [--prefix P] [--samples N] [--seed S] [--depth D]\n'
                  '                                    the start position at depth D (default 6) by splitting: the\n'
                  '                                    subtrees after N random P-ply prefixes (N=0: all of them)\n'
                  '                                    compared at depth D-P, move by move', mode_split),
        'firstremoval': ('firstremoval DEPTH                per ply from the start, up to DEPTH: how many legal moves '
                         'starve\n                                    and how many orthodox moves Starvation forbids',
                         mode_firstremoval),
    }


if __name__ == '__main__':
    sys.exit(reference_driver.main(RULES, sys.argv, __doc__))
