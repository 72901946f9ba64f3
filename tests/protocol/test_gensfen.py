"""`starfish gensfen`: self-play training positions (docs/nnue.md).  The file's layout read
back by tools/posfile.py, the positions it must leave out, the same file for a seed whatever
the threads, Starchess's setup phase, stopping a run with a signal, and bad command lines."""
import contextlib
import os
import signal
import sys
import tempfile
import time

from harness import REPO_ROOT, cli, running, time_scale, uci, wait_for
from test_cli import usage_error

sys.path.insert(0, os.path.join(REPO_ROOT, "tools"))
import posfile  # noqa: E402


def gensfen(tmp, name, *args):
    path = os.path.join(tmp, name)
    code, out, err = cli(["gensfen"] + list(args) + ["--out", path], timeout=120)
    assert code == 0, (args, code, out, err)
    assert "written to %s" % path in out, out
    assert "positions/s" in err and "ETA" in err, err  # the progress line
    return path


def chess_fen(record):
    """The position text of a chess record (square8's cells run a8, b8, ... h1)."""
    rows = []
    for rank in range(8):
        row, empty = "", 0
        for code in record.board[rank * 8:rank * 8 + 8]:
            if not code:
                empty += 1
                continue
            letter = "PNBRQK"[(code & 15) - 1]
            row += (str(empty) if empty else "") + (letter if code < 16 else letter.lower())
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if record.side == 0 else " b") + " - - 0 1"


def test_chess_positions_and_their_fields():
    with tempfile.TemporaryDirectory() as tmp:
        path = gensfen(tmp, "c.sfpos", "chess", "--positions", "300", "--nodes", "300", "--seed", "5")
        header, records = posfile.read(path)
        mirror = header.pop("mirror")  # a8 <-> a1: cell 8 * rank + file <-> 8 * (7 - rank) + file
        assert mirror == bytes(8 * (7 - c // 8) + c % 8 for c in range(64)), mirror
        assert header == {"version": 1, "cells": 64, "types": 6, "hand": 0, "record": 70, "variant": "chess",
                          "letters": "PNBRQK"}, header
        assert len(records) == 300, len(records)
        assert {r.result for r in records} <= {-1, 0, 1} and {r.side for r in records} == {0, 1}
        assert all(abs(r.score) < 29000 for r in records), "a mate score was kept"
        assert all(r.board.count(6) == 1 and r.board.count(22) == 1 for r in records), "two kings a position"
        assert all(1 not in r.board[:8] + r.board[56:] and 17 not in r.board[:8] + r.board[56:] for r in records)
        assert len({(r.board, r.side) for r in records}) == 300, "a position twice"
        assert any(r.ply < 12 for r in records) and any(r.ply > 40 for r in records)
        # Nobody is in check in a kept position: asked of the engine itself.
        lines = []
        for r in records[::7]:
            lines += ["position fen " + chess_fen(r), "d"]
        checks = [line for line in uci(lines) if line.startswith("In check:")]
        assert len(checks) == len(records[::7]) and set(checks) == {"In check: no"}, set(checks)


def test_keep_tactical_keeps_checks_and_clamps_mates():
    """--keep-tactical keeps what the default leaves out: positions in check (the engine says
    so of some) and mate scores, written as +-3000; nothing beyond that clamp."""
    with tempfile.TemporaryDirectory() as tmp:
        # About ten games: enough that some end in a mate the search sees (600 positions of
        # seed 5 held none with chess's round 7 net).
        path = gensfen(tmp, "t.sfpos", "chess", "--positions", "1000", "--nodes", "300", "--seed", "5",
                       "--keep-tactical")
        _, records = posfile.read(path)
        assert len(records) == 1000, len(records)
        assert max(abs(r.score) for r in records) == 3000, "no mate score kept, or one beyond the clamp"
        lines = []
        for r in records:
            lines += ["position fen " + chess_fen(r), "d"]
        checks = [line for line in uci(lines) if line.startswith("In check:")]
        assert len(checks) == len(records) and "In check: yes" in checks, set(checks)


def test_same_file_whatever_threads():
    with tempfile.TemporaryDirectory() as tmp:
        common = ["starvation", "--positions", "250", "--nodes", "200", "--random-plies", "6"]
        one = gensfen(tmp, "1.sfpos", *common, "--seed", "9")
        two = gensfen(tmp, "2.sfpos", *common, "--seed", "9", "--threads", "2")
        other = gensfen(tmp, "3.sfpos", *common, "--seed", "10", "--threads", "2")
        data = [open(p, "rb").read() for p in (one, two, other)]
        assert data[0] == data[1], "one thread and two wrote different files"
        assert data[0] != data[2], "another seed, the same file"
        assert len(data[0]) == 64 + 64 + 250 * 70, len(data[0])


@contextlib.contextmanager
def running_gensfen(path, *args):
    """A long gensfen run in the background (harness.running), its stderr in path + ".err"."""
    with open(path + ".err", "wb") as err, running(["gensfen"] + list(args) + ["--out", path], stderr=err) as proc:
        yield proc


def test_a_signal_ends_the_run_with_whole_records():
    """Ctrl-C (or SIGTERM): the games under way are given up, the file keeps whole records and is
    the beginning of the whole run's file (the same as a run asked for that many positions)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "stopped.sfpos")
        common = ["chess", "--nodes", "100", "--seed", "3"]
        with running_gensfen(path, *common, "--positions", "100000000", "--threads", "2") as proc:
            wait_for(lambda: os.path.exists(path) and os.path.getsize(path) > 128 + 70 * 500, seconds=60,
                     what="500 positions in the file", step=0.05)
            proc.send_signal(signal.SIGINT)
            out, _ = proc.communicate(timeout=60)
            err = open(path + ".err").read()
            assert proc.returncode == 0, (proc.returncode, err)
            assert "SIGINT: stopping after the moves being searched" in err, err
            size = os.path.getsize(path)
            written = (size - 128) // 70
            assert (size - 128) % 70 == 0 and written > 500, size
            assert out.decode().strip().endswith("written to %s, stopped early by SIGINT" % path), out
            assert out.decode().startswith("%d positions of chess" % written), out
            whole = gensfen(tmp, "whole.sfpos", *common, "--positions", str(written))
            assert open(path, "rb").read() == open(whole, "rb").read(), "not the beginning of the run's file"


def test_a_signal_gives_up_the_games_under_way():
    """Games of 300,000 nodes a move take a minute; after the signal only the moves being
    searched are finished (a second or so each), and their games are not written."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "given-up.sfpos")
        with running_gensfen(path, "chess", "--nodes", "300000", "--positions", "1000", "--threads", "2") as proc:
            time.sleep(1)
            began = time.time()
            proc.send_signal(signal.SIGINT)
            out, _ = proc.communicate(timeout=60 * time_scale())
            took = time.time() - began
            assert proc.returncode == 0 and took < 10 * time_scale(), (proc.returncode, took)
            assert out.decode().startswith("0 positions of chess from 0 games"), out
            assert os.path.getsize(path) == 128


def test_a_second_signal_ends_the_run_at_once():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "killed.sfpos")
        # Searches to depth 40: the first signal waits for a move that takes minutes.
        with running_gensfen(path, "chess", "--depth", "40", "--positions", "1000") as proc:
            time.sleep(0.5)
            proc.send_signal(signal.SIGTERM)
            wait_for(lambda: "SIGTERM: stopping" in open(path + ".err").read(), seconds=60,
                     what="the first signal's line", step=0.05)
            assert proc.poll() is None, "the first signal ended the run before its search"
            proc.send_signal(signal.SIGTERM)
            proc.communicate(timeout=10)
            assert proc.returncode == -signal.SIGTERM, proc.returncode


def test_starchess_setup_positions_have_their_hands():
    with tempfile.TemporaryDirectory() as tmp:
        path = gensfen(tmp, "s.sfpos", "starchess", "--positions", "200", "--depth", "2", "--seed", "3")
        header, records = posfile.read(path)
        assert (header["cells"], header["types"], header["hand"], header["record"]) == (37, 6, 12, 55), header
        in_setup = [r for r in records if any(r.hand)]
        assert in_setup and len(in_setup) < len(records), "setup positions and played ones, both"
        for r in in_setup:
            pieces = [sum(r.hand[side * 6:side * 6 + 6]) + sum(1 for c in r.board if c and (c >= 16) == side)
                      for side in (0, 1)]
            assert pieces == [10, 10], pieces  # nothing is taken during the setup: 5 pawns and 5 pieces a side


def test_bad_command_lines():
    usage_error(["gensfen", "chess", "--nodes", "100"], "needs --positions N", "gensfen")
    usage_error(["gensfen", "chess", "--positions", "10"], "needs one of --depth D and --nodes N", "gensfen")
    usage_error(["gensfen", "chess", "--positions", "10", "--depth", "2", "--nodes", "9"], "needs one of", "gensfen")
    usage_error(["gensfen", "nosuch", "--positions", "10", "--depth", "2"], "unknown variant 'nosuch'", "gensfen")
    usage_error(["gensfen", "chess", "--positions", "10", "--depth", "0"], "bad --depth '0'", "gensfen")
    usage_error(["gensfen", "chess", "--positions", "10", "--depth", "2", "--out", "/nonexistent/x.sfpos"],
                "cannot write '/nonexistent/x.sfpos'", "gensfen")
