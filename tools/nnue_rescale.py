#!/usr/bin/python3
"""Rescales a net's evaluations: multiplies its output layer (the 32 weights and the bias that
make centipawns, docs/nnue.md) by a factor and writes the net again, the rest byte for byte.
Given a position file of `starfish gensfen` instead, multiplies its scores (a mate's +-3000
left as it is), so that positions searched with a net at its old scale can train one at the
new scale.

    /usr/bin/python3 tools/nnue_rescale.py NET.nnue FACTOR --out NEW.nnue
    /usr/bin/python3 tools/nnue_rescale.py DATA.sfpos FACTOR --out NEW.sfpos

Why: the search's margins (reverse futility, futility, razoring, delta pruning) are centipawns, and the
exchange evaluator's piece values are the hand-written evaluation's, so a net whose pawn is
worth 150 of them prunes as if every margin were two thirds of its size.  Each training round
learns from the search scores of the round before and from game results, and where results
say a pawn wins more often than sigmoid(100 / 400) would have it, the scale grows round after
round (docs/nnue.md, "The net's scale").  The factor is the one a match proves best.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import posfile  # noqa: E402
from nnue_train import L1, fail, net_bytes, parse_net  # noqa: E402

# The file ends with the output layer: int16 weights[L1], then the int32 bias.
TAIL = 2 * L1 + 4
# gensfen --keep-tactical writes a mate as this score: a mark, not centipawns, kept as it is.
MATE_MARK = 3000


def rescaled(raw, arrays, factor):
    """The file's bytes with its output layer multiplied by `factor` (rounded to integers)."""
    weights, bias = arrays[4] * factor, arrays[5] * factor
    if np.abs(weights).max(initial=0) > 32767 or np.abs(bias).max(initial=0) > 2**31 - 1:
        fail("a factor of %g takes the output layer's weights out of their integer range" % factor)
    tail = np.round(weights).astype("<i2").tobytes() + np.round(bias).astype("<i4").tobytes()
    return raw[:-TAIL] + tail


def rescaled_positions(raw, path, factor):
    """A position file's bytes with every score but a mate's multiplied by `factor` (rounded)."""
    try:
        header, body = posfile.records_body(raw, path)
    except ValueError as e:
        fail(str(e))
    records = np.frombuffer(body, dtype=posfile.dtype(header)).copy()
    scores = records["score"].astype(np.int64)
    scaled = np.where(np.abs(scores) == MATE_MARK, scores, np.rint(scores * factor))
    if np.abs(scaled).max(initial=0) > 32767:
        fail("a factor of %g takes a score out of its 16-bit range" % factor)
    records["score"] = scaled.astype("<i2")
    return raw[:len(raw) - len(body)] + records.tobytes(), header["variant"], len(records)


def main():
    parser = argparse.ArgumentParser(
        description="Multiplies a net's evaluations, or a position file's scores, by a factor.")
    parser.add_argument("net", help="the net file (as tools/nnue_train.py writes it), or a position file (gensfen's)")
    parser.add_argument("factor", type=float, help="the factor, greater than 0 (0.65: two thirds)")
    parser.add_argument("--out", required=True, help="the file to write")
    args = parser.parse_args()
    if not 0 < args.factor < 100:
        fail("the factor must lie in (0, 100), not %g" % args.factor)
    raw = net_bytes(args.net, "net")
    if raw.startswith(posfile.MAGIC):
        out, variant, n = rescaled_positions(raw, args.net, args.factor)
        what = "%d %s positions, scores times %g" % (n, variant, args.factor)
    else:
        shape, arrays = parse_net(raw, args.net, "net")  # refuses anything that is not a whole net file
        out = rescaled(raw, arrays, args.factor)
        what = "%s's net, output layer times %g" % (shape["variant"], args.factor)
    with open(args.out, "wb") as f:
        f.write(out)
    print("%s: %s, written to %s" % (args.net, what, args.out))


if __name__ == "__main__":
    main()
