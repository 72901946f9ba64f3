"""tools/nnue_rescale.py: a net rescaled by a factor evaluates every position at that factor of
the original (to the rounding of its output layer's integers), changes nothing but the output
layer; a position file rescaled has every score but a mate's mark multiplied, nothing else
changed; and bad input is refused with what is wrong."""
import os
import re
import struct
import subprocess
import tempfile

from harness import REPO_ROOT, Session, sanitized

RESCALE = ["/usr/bin/python3", os.path.join(REPO_ROOT, "tools", "nnue_rescale.py")]
CHESS_NET = os.path.join(REPO_ROOT, "data", "nets", "chess.nnue")
# Positions from level to a queen up, each side to move.
FENS = ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")


def rescale(*args):
    proc = subprocess.run(RESCALE + [str(a) for a in args], capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


def evaluations(net):
    with Session() as s:
        s.send("setoption name EvalFile value " + net)
        cps = []
        for fen in FENS:
            s.send("position fen " + fen)
            s.send("eval")
            cps.append(int(re.match(r"NNUE evaluation (-?\d+) cp", s.lines_until("NNUE evaluation")[-1]).group(1)))
        return cps


def test_a_rescaled_net_evaluates_at_the_factor():
    if sanitized():  # the tool is Python, and the engine's arithmetic is test_nnue's
        return
    with tempfile.TemporaryDirectory() as tmp:
        half = os.path.join(tmp, "half.nnue")
        code, out, err = rescale(CHESS_NET, 0.5, "--out", half)
        assert code == 0 and "output layer times 0.5" in out, (code, out, err)
        before, after = open(CHESS_NET, "rb").read(), open(half, "rb").read()
        assert len(after) == len(before) and after[:-68] == before[:-68], "more than the output layer changed"
        assert after[-68:] != before[-68:]
        full, halved = evaluations(CHESS_NET), evaluations(half)
        assert max(abs(c) for c in full) > 500, full  # a queen up: the factor is seen at scale
        for f, h in zip(full, halved):
            assert abs(h - f / 2) <= 2, (full, halved)


def test_bad_input_is_refused():
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, "x.nnue")
        cut = os.path.join(tmp, "cut.nnue")
        open(cut, "wb").write(open(CHESS_NET, "rb").read()[:-1])
        for args, why in (((CHESS_NET, 0, "--out", out_path), "the factor must lie in (0, 100), not 0"),
                          ((CHESS_NET, -1, "--out", out_path), "not -1"),
                          ((CHESS_NET, 50, "--out", out_path), "out of their integer range"),
                          ((cut, 0.5, "--out", out_path), "cut short"),
                          ((os.path.join(REPO_ROOT, "README.md"), 0.5, "--out", out_path), "not a starfish net file"),
                          ((os.path.join(tmp, "none.nnue"), 0.5, "--out", out_path), "No such file")):
            code, out, err = rescale(*args)
            assert code != 0 and why in err, (args, code, out, err)
        assert not os.path.exists(out_path), "a refused net was written"


def position_file(path, scores):
    """A chess position file as gensfen writes it (docs/nnue.md), a record per score."""
    header = b"sfpos\0\0\0" + struct.pack("<5H", 1, 64, 6, 0, 70) + b"chess".ljust(22, b"\0")
    header += b"PNBRQK".ljust(24, b"\0") + bytes(sq ^ 56 for sq in range(64))
    records = b"".join(struct.pack("<hbBH", score, (-1, 0, 1)[i % 3], i % 2, 10 + i) + bytes([i % 23] * 64)
                       for i, score in enumerate(scores))
    with open(path, "wb") as f:
        f.write(header + records)
    return header, records


def test_a_position_files_scores_rescaled():
    scores = [0, 101, -101, 3000, -3000, 20000, -333, 7]
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "in.sfpos"), os.path.join(tmp, "out.sfpos")
        header, records = position_file(src, scores)
        code, out, err = rescale(src, 0.5, "--out", dst)
        assert code == 0 and "8 chess positions, scores times 0.5" in out, (code, out, err)
        data = open(dst, "rb").read()
        assert data[:len(header)] == header and len(data) == len(header) + len(records)
        body = data[len(header):]
        for i, score in enumerate(scores):
            new, old = body[70 * i:70 * (i + 1)], records[70 * i:70 * (i + 1)]
            want = score if abs(score) == 3000 else round(score * 0.5)  # a mate's mark kept
            assert struct.unpack_from("<h", new)[0] == want, (i, score, struct.unpack_from("<h", new)[0])
            assert new[2:] == old[2:], "record %d: more than the score changed" % i
        cut = os.path.join(tmp, "cut.sfpos")
        open(cut, "wb").write((header + records)[:-1])
        head = os.path.join(tmp, "head.sfpos")
        open(head, "wb").write(header[:100])
        for args, why in (((cut, 0.5, "--out", dst + "2"), "not a whole number of 70-byte records"),
                          ((head, 0.5, "--out", dst + "2"), "100 bytes, cut short in its header"),
                          ((src, 2, "--out", dst + "2"), "takes a score out of its 16-bit range")):
            code, out, err = rescale(*args)
            assert code != 0 and why in err, (args, code, out, err)
        assert not os.path.exists(dst + "2"), "a refused file was written"

