"""The net in the engine (src/nnue): a net tools/nnue_train.py wrote, loaded by UCI's EvalFile,
evaluates positions exactly as docs/nnue.md's arithmetic says (computed here again in plain
Python from the file, an oracle independent of both the engine and the trainer); it is named
after `isready`, searched with, and a bad file is refused with one line, the net in use kept;
`Use NNUE false` goes back to the hand-written evaluation."""
import os
import struct
import subprocess
import sys
import tempfile

from harness import REPO_ROOT, Session, cli, sanitized

sys.path.insert(0, os.path.join(REPO_ROOT, "tools"))
import posfile  # noqa: E402

TRAIN = ["/usr/bin/python3", os.path.join(REPO_ROOT, "tools", "nnue_train.py")]


def read_net(path):
    """The net's arrays as Python lists (the layout of docs/nnue.md)."""
    data = open(path, "rb").read()
    _, version, cells, types, hand, features, hidden, l1 = struct.unpack_from("<8sHHHHIII", data)
    at = 52 + cells
    mirror = data[52:at]
    buckets = bytes(cells)  # version 1: every king in bucket 0
    if version == 2:  # the king bucket table follows the mirror
        buckets, at = data[at:at + cells], at + cells

    def take(fmt, n):
        nonlocal at
        values = struct.unpack_from("<%d%s" % (n, fmt), data, at)
        at += n * struct.calcsize(fmt)
        return list(values)
    ft_w, ft_b = take("h", features * hidden), take("h", hidden)
    l1_w, l1_b, l2_w, l2_b = take("h", l1 * 2 * hidden), take("i", l1), take("h", l1), take("i", 1)
    assert at == len(data)
    return dict(cells=cells, types=types, hidden=hidden, l1=l1, mirror=mirror, buckets=buckets, ft_w=ft_w, ft_b=ft_b,
                l1_w=l1_w, l1_b=l1_b, l2_w=l2_w, l2_b=l2_b[0])


def oracle_cp(net, board, side):
    """Centipawns for the side to move, by docs/nnue.md's integer arithmetic."""
    h, cells, types = net["hidden"], net["cells"], net["types"]
    acc = []
    for view in (0, 1):
        a = list(net["ft_b"])
        # The view's king (chess's type 6) picks the block of features: its bucket's.
        king = board.index(view << 4 | 6)
        block = net["buckets"][net["mirror"][king] if view else king] * 2 * types * cells
        for cell, code in enumerate(board):
            if code:
                theirs = (code >> 4) != view
                f = block + ((theirs * types + (code & 15) - 1) * cells + (net["mirror"][cell] if view else cell))
                a = [x + w for x, w in zip(a, net["ft_w"][f * h:(f + 1) * h])]
        acc.append(a)
    x = [min(127, max(0, (v + 4) >> 3)) for v in acc[side] + acc[1 - side]]
    out = net["l2_b"]
    for o in range(net["l1"]):
        s = net["l1_b"][o] + sum(a * w for a, w in zip(x, net["l1_w"][o * 2 * h:(o + 1) * 2 * h]))
        out += min(127, max(0, (s + 512) >> 10)) * net["l2_w"][o]
    return int(out * 400 / (127 * 1024))  # toward zero, as C's division


def chess_fen(letters, board, side):
    rows = []
    for rank in range(8):
        row, empty = "", 0
        for code in board[rank * 8:rank * 8 + 8]:
            if not code:
                empty += 1
                continue
            letter = letters[(code & 15) - 1]
            row += (str(empty) if empty else "") + (letter.lower() if code >> 4 else letter)
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" b" if side else " w") + " - - 0 1"


def trained_chess_net(tmp, *options):
    data = os.path.join(tmp, "chess.sfpos")
    if not os.path.exists(data):
        code, out, err = cli(["gensfen", "chess", "--positions", 3000, "--depth", 1, "--seed", 5, "--out", data],
                             timeout=120)
        assert code == 0, (code, out, err)
    net = os.path.join(tmp, "trained.nnue")
    proc = subprocess.run(TRAIN + [data, "--out", net, "--epochs", "2", "--hidden", "32"] + list(options),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return data, net


def test_a_trained_net_evaluates_as_the_documented_arithmetic():
    if sanitized():  # no PyTorch run under the sanitizers: the unit tests' random nets serve
        return
    with tempfile.TemporaryDirectory() as tmp:
        evaluates_as_the_arithmetic(*trained_chess_net(tmp))
        # King buckets (HalfKA-style): a version 2 net, whose features are the king's bucket's.
        data, path = trained_chess_net(tmp, "--king-buckets", "quarters")
        assert struct.unpack_from("<H", open(path, "rb").read(), 8) == (2,)
        assert len(set(read_net(path)["buckets"])) == 4
        evaluates_as_the_arithmetic(data, path)


def evaluates_as_the_arithmetic(data, path):
    """Its evaluations (`eval`) of positions from the data equal the oracle's, and it searches."""
    header, records = posfile.read(data)
    net = read_net(path)
    with Session() as s:
        s.send("setoption name EvalFile value " + path)
        s.send("isready")
        said = s.lines_until("readyok")
        assert said == ["info string NNUE evaluation using trained.nnue (%d KiB)" %
                        ((os.path.getsize(path) + 1023) // 1024), "readyok"], said
        checked = 0
        for r in records[::150]:
            s.send("position fen " + chess_fen(header["letters"], r.board, r.side))
            s.send("eval")
            lines = s.lines_until("NNUE evaluation")
            assert lines[-1].endswith("cp (side to move, trained.nnue)"), lines
            assert int(lines[-1].split()[2]) == oracle_cp(net, r.board, r.side), (r, lines)
            checked += 1
        assert checked >= 20
        # It searches with it (and the hand-written evaluation searches otherwise).
        s.send("position startpos moves e2e4")
        lines = [line for _, line in s.search([], "go depth 6")[0]]
        assert lines[-1].startswith("bestmove "), lines


def test_a_bad_eval_file_is_refused_and_the_net_kept():
    with tempfile.TemporaryDirectory() as tmp:
        good = os.path.join(tmp, "good.nnue")  # all zero: it says 0 everywhere
        net = bytearray(struct.pack("<8sHHHHIII", b"sfnnue\0\0", 1, 64, 6, 0, 768, 16, 32))
        net += b"chess".ljust(24, b"\0")
        net += bytes((7 - c // 8) * 8 + c % 8 for c in range(64))  # the rank flipped
        net += bytes(2 * (768 * 16 + 16) + 2 * 32 * 32 + 4 * 32 + 2 * 32 + 4)
        open(good, "wb").write(net)
        cut = os.path.join(tmp, "cut.nnue")
        open(cut, "wb").write(net[:-1])
        named = "info string NNUE evaluation using good.nnue (27 KiB)"  # 26,968 bytes
        with Session() as s:
            s.send("setoption name EvalFile value " + good)
            s.send("isready")
            assert s.lines_until("readyok")[0] == named
            for bad, why in ((cut, "truncated or damaged"), (os.path.join(REPO_ROOT, "README.md"), "no 'sfnnue' header"),
                             (os.path.join(tmp, "none.nnue"), "cannot open")):
                s.send("setoption name EvalFile value " + bad)
                s.send("isready")
                lines = s.lines_until("readyok")
                assert len(lines) == 2 and lines[0].startswith("info string error: EvalFile '%s' refused: " % bad), lines
                assert why in lines[0] and lines[0].endswith("the net in use is kept"), lines
            s.send("isready")  # nothing new to say
            assert s.lines_until("readyok") == ["readyok"]
            s.send("position startpos")
            s.send("eval")
            assert s.lines_until("NNUE evaluation")[-1] == "NNUE evaluation 0 cp (side to move, good.nnue)"
            s.send("setoption name Use NNUE value false")
            s.send("isready")
            assert s.lines_until("readyok")[0] == "info string hand-written evaluation enabled (Use NNUE false)"
            s.send("setoption name Use NNUE value true")
            s.send("setoption name EvalFile value <built in>")
            s.send("isready")
            built_in = os.path.exists(os.path.join(REPO_ROOT, "data", "nets", "chess.nnue"))
            assert s.lines_until("readyok")[0].startswith("info string NNUE evaluation using chess.nnue (" if built_in else
                                                   "info string hand-written evaluation: no net for chess yet"), built_in
            # A net for another variant than the one played is loaded for its own, and said so.
            s.send("setoption name UCI_Variant value starchess")
            s.send("setoption name EvalFile value " + good)
            s.send("isready")
            lines = s.lines_until("readyok")
            assert lines[1] == ("info string EvalFile good.nnue is a net for chess: chess plays with it from now on, "
                                "starchess does not"), lines
            assert lines[2].startswith("info string NNUE evaluation using starchess.nnue ("), lines


def test_commands_take_a_net_and_refuse_a_bad_one():
    for command in (["bench"], ["gensfen", "chess", "--positions", "1", "--depth", "1"]):
        code, out, err = cli(command + ["--evalfile", os.path.join(REPO_ROOT, "README.md")])
        assert code == 2 and "net '%s' refused: not a starfish net" % os.path.join(REPO_ROOT, "README.md") in err, \
            (command, code, err)
    code, out, err = cli(["bench", "--no-nnue", "--evalfile"])
    assert code == 2 and "--evalfile" in err, (code, err)
