#!/usr/bin/python3
"""Rescales a net's evaluations: multiplies its output layer (the 32 weights and the bias that
make centipawns, docs/nnue.md) by a factor and writes the net again, the rest byte for byte.

    /usr/bin/python3 tools/nnue_rescale.py NET.nnue FACTOR --out NEW.nnue

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
from nnue_train import L1, fail, net_bytes, parse_net  # noqa: E402

# The file ends with the output layer: int16 weights[L1], then the int32 bias.
TAIL = 2 * L1 + 4


def rescaled(raw, arrays, factor):
    """The file's bytes with its output layer multiplied by `factor` (rounded to integers)."""
    weights, bias = arrays[4] * factor, arrays[5] * factor
    if np.abs(weights).max(initial=0) > 32767 or np.abs(bias).max(initial=0) > 2**31 - 1:
        fail("a factor of %g takes the output layer's weights out of their integer range" % factor)
    tail = np.round(weights).astype("<i2").tobytes() + np.round(bias).astype("<i4").tobytes()
    return raw[:-TAIL] + tail


def main():
    parser = argparse.ArgumentParser(description="Multiplies a net's evaluations by a factor.")
    parser.add_argument("net", help="the net file (as tools/nnue_train.py writes it)")
    parser.add_argument("factor", type=float, help="the factor, greater than 0 (0.65: two thirds)")
    parser.add_argument("--out", required=True, help="the file to write")
    args = parser.parse_args()
    if not 0 < args.factor < 100:
        fail("the factor must lie in (0, 100), not %g" % args.factor)
    raw = net_bytes(args.net, "net")
    shape, arrays = parse_net(raw, args.net, "net")  # refuses anything that is not a whole net file
    net = rescaled(raw, arrays, args.factor)
    with open(args.out, "wb") as f:
        f.write(net)
    print("%s: %s's net, output layer times %g, written to %s" % (args.net, shape["variant"], args.factor, args.out))


if __name__ == "__main__":
    main()
