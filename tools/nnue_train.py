#!/usr/bin/python3
"""Trains a network for one variant on `starfish gensfen` positions (docs/nnue.md).

    /usr/bin/python3 tools/nnue_train.py DATA.sfpos [DATA.sfpos ...] --out NET.nnue
        [--epochs E] [--batch B] [--lr LR] [--lambda L] [--hidden H] [--seed S]
        [--lr-decay G] [--validation F] [--hold-out-last] [--plot FILE.png] [--threads T]
        [--scale CP|fit] [--king-buckets SPEC] [--factorise] [--init NET.nnue]

Debian's PyTorch (python3-torch, CPU) under Debian's own python3; numpy reads the records as
one array (no object per position).  The network: each side's view of the board (the piece's
kind, whether it is the viewer's, its cell, seen from Black's side through the file's mirror
table; the pieces in hand where a setup phase has them; with --king-buckets, a set of these
per bucket of the viewer's king's cell, as HalfKA has one per king cell) summed by one shared
feature transformer into H values per side, the side to move's first; clipped to [0, 1]; then
2H -> 32 -> 1.  With --factorise each (kind, whose) pair also has one set of weights shared by
all its cells (and, with king buckets, each piece on a cell one shared by all buckets), added
to each feature's own while training and folded into them when the net is written
(Stockfish's trainer calls these virtual features): every position then teaches the shared
set, where a cell's own weights learn only from the positions with that piece there, few on a
large board.  The engine reads the same file either way.  The output times OUTPUT_CP is
centipawns for the side to move (the engine's scale).  The loss: the mean squared difference
of sigmoid(cp / CP) and lambda x sigmoid(score / CP) + (1 - lambda) x the game's result (0,
1/2, 1), where CP (--scale, default 400) is the margin that makes a win about three times as
likely as a loss: larger in a game whose scores run larger (Megastar's), so that its large
scores still differ in the loss.  `--scale fit` takes the CP at which sigmoid(score / CP)
best predicts the training games' results: at any other the results pull the net's
centipawns away from the scores', and round after round the net's scale drifts from the
search's margins (docs/nnue.md, "The net's scale").  A fraction of the
games (whole games, chosen by a seeded shuffle: positions of one game are too alike to test
each other) is held out for the validation loss printed after each epoch; the net written is
the epoch's with the lowest validation loss.
With --init the training starts from a net file's weights instead of random ones (Stockfish's
nets are each trained on from the one before), so that new games can train the net in use
without the earlier rounds' positions, which this machine does not keep (tried once in chess,
docs/nnue.md: it fitted the new games and played no better); the net before training is
epoch 0, kept when no epoch beats it on the held-out games.  Held out from games the starting
net learnt from, it would beat every epoch unfairly: --hold-out-last draws the held-out games
from the last file alone (the newest round's, which no earlier net has seen).
The same data, options and seed give the same file.  The net is written quantised (int16
weights, int32 layer biases, docs/nnue.md); the last line says how far the quantised net's
evaluations stray from the float net's.
"""
import argparse
import os
import struct
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import posfile  # noqa: E402

OUTPUT_CP = 400.0   # centipawns per unit of the output (nnue_eval.c's OUTPUT_SCALE)
L1 = 32             # the hidden layer after the feature transformer
QA, QB = 127, 1024  # quantisation: activations in [0, QA]; layer weights times QB, in int16 (int8 at
                    # 64, Stockfish's, rounded a small net's weights of +-0.1 to +-6 steps: 14 cp astray)
FT_SHIFT = 3        # the feature transformer's weights times QA << FT_SHIFT (int16), its sums shifted back
MAGIC = b"sfnnue\0\0"
MAX_BUCKETS = 64    # nnue.h's NNUE_MAX_BUCKETS


def fail(message):
    print("%s: %s" % (os.path.splitext(os.path.basename(sys.argv[0]))[0], message), file=sys.stderr)
    sys.exit(2)


def load(paths):
    """The records of every file (one variant) as one structured array, the header, and where
    the last file's records begin in the array."""
    header, arrays = None, []
    for path in paths:
        try:
            with open(path, "rb") as f:
                head = posfile.read_header(f.read(64 + 256))
        except (OSError, ValueError) as e:
            fail("%s: %s" % (path, e))
        try:
            count = posfile.whole_records(head, os.path.getsize(path), path)
        except ValueError as e:
            fail(str(e))
        if header and (head["variant"], head["cells"]) != (header["variant"], header["cells"]):
            fail("%s holds %s positions, not %s" % (path, head["variant"], header["variant"]))
        header = header or head
        arrays.append(np.fromfile(path, dtype=posfile.dtype(head), count=count,
                                  offset=posfile.data_offset(head)))
    data = np.concatenate(arrays)
    if len(data) < 10:
        fail("too few positions (%d)" % len(data))
    return header, data, len(data) - len(arrays[-1])


def game_numbers(data):
    """Each record's game: gensfen writes a game's positions together, plies rising, so a ply
    no higher than the one before starts the next game.  (Two games whose plies happen to rise
    across the seam count as one: still whole, which is what holding games out needs.)"""
    ply = data["ply"].astype(np.int64)
    starts = np.empty(len(ply), dtype=bool)
    starts[0] = True
    starts[1:] = ply[1:] <= ply[:-1]
    return np.cumsum(starts) - 1


def split_by_games(data, share, seed, first=0):
    """(training, validation, games, games held out): whole games from those that begin at
    record `first` or later, shuffled by the seed, held out until they hold `share` of those
    records (at least one game, and at least one left to train on)."""
    games = game_numbers(data)
    count = int(games[-1]) + 1
    if count < 2:
        fail("the positions come from a single game: none can be held out")
    sizes = np.bincount(games, minlength=count)
    eligible = np.flatnonzero(np.cumsum(sizes) - sizes >= first)
    if len(eligible) == 0:
        fail("--hold-out-last: the last file begins no game of its own (it is empty, or continues "
             "the last game of the file before)")
    order = eligible[np.random.RandomState(seed).permutation(len(eligible))]
    taken = np.searchsorted(np.cumsum(sizes[order]), share * (len(data) - first)) + 1
    held = np.zeros(count, dtype=bool)
    held[order[:min(taken, count - 1)]] = True
    return data[~held[games]], data[held[games]], count, int(held.sum())


def king_buckets(spec, header):
    """The bucket of the viewer's king on each cell (seen from the viewer's side), from --king-buckets:
    a preset of the 8x8 board ("halves": the king's half of the files; "quarters": that and whether
    it stands on its first two ranks) or a bucket number per cell, comma-separated, in the
    position file's cell order.  The viewer's king is the piece whose letter is K."""
    if "K" not in header["letters"]:
        fail("--king-buckets: %s has no piece K" % header["variant"])
    cells = header["cells"]
    if spec in ("halves", "quarters"):
        if cells != 64:
            fail("--king-buckets %s is for 8x8 boards; %s has %d cells" % (spec, header["variant"], cells))
        # Cells in FEN order: a8 first, so the viewer's rank 1 is the last row.
        table = [int(c % 8 >= 4) + (2 * int(7 - c // 8 >= 2) if spec == "quarters" else 0) for c in range(64)]
    else:
        try:
            table = [int(x) for x in spec.split(",")]
        except ValueError:
            fail("--king-buckets: %r is neither halves, quarters nor a list of numbers" % spec)
        if len(table) != cells or min(table) < 0 or max(table) >= MAX_BUCKETS:
            fail("--king-buckets: %d numbers in [0, %d) wanted, one per cell" % (cells, MAX_BUCKETS))
    return np.array(table, dtype=np.int64)


class Features:
    """Each side's view of a batch of records, as EmbeddingBag inputs."""

    def __init__(self, header, buckets=None):
        self.cells, self.types, self.hand = header["cells"], header["types"], header["hand"]
        self.mirror = np.frombuffer(header["mirror"], dtype=np.uint8).astype(np.int64)
        self.board_features = 2 * self.types * self.cells
        self.buckets = buckets  # None: no king buckets (a version 1 net)
        self.bucket_count = 1 if buckets is None else int(buckets.max()) + 1
        self.king = header["letters"].find("K") + 1  # the king's type, where buckets need it
        self.count = self.board_features * self.bucket_count + self.hand  # hand: 2 x types counts

    def shared_sets(self):
        """--factorise's sets of shared weights, each as its row count and the row of every feature
        (the row count itself for a feature outside the set: the hand's): the (kind, whose) pair
        of every cell and bucket; with king buckets also the piece on its cell, in every bucket."""
        board = np.arange(self.board_features)
        sets = [(2 * self.types, board // self.cells)]
        if self.bucket_count > 1:
            sets.append((self.board_features, board))
        return [(rows, np.concatenate([np.tile(row, self.bucket_count), np.full(self.hand, rows)]))
                for rows, row in sets]

    def king_blocks(self, board, viewer):
        """Where each record's features start for `viewer`: its king's bucket's block (0 without a king)."""
        block = np.zeros(len(board), dtype=np.int64)
        if self.buckets is not None:
            rows, cells = np.nonzero(board == (viewer << 4 | self.king))
            cells = self.mirror[cells] if viewer else cells
            block[rows] = self.buckets[cells] * self.board_features
        return block

    def view(self, records, viewer):
        """(indices, offsets, weights) of the batch seen by `viewer` (0 White, 1 Black)."""
        board = records["board"]
        rows, cells = np.nonzero(board)
        codes = board[rows, cells].astype(np.int64)
        theirs = (codes >> 4) != viewer
        cell = self.mirror[cells] if viewer else cells.astype(np.int64)
        index = self.king_blocks(board, viewer)[rows] + (theirs * self.types + (codes & 15) - 1) * self.cells + cell
        weight = np.ones(len(index), dtype=np.float32)
        if self.hand:
            hand = records["hand"].reshape(len(records), 2, self.types)
            hand = hand[:, [viewer, 1 - viewer], :].reshape(len(records), -1)  # the viewer's first
            hrows, hcols = np.nonzero(hand)
            rows = np.concatenate([rows, hrows])
            index = np.concatenate([index, self.board_features * self.bucket_count + hcols])
            weight = np.concatenate([weight, hand[hrows, hcols].astype(np.float32)])
        order = np.argsort(rows, kind="stable")
        counts = np.bincount(rows, minlength=len(records))
        offsets = np.concatenate([[0], np.cumsum(counts)[:-1]])
        return index[order], offsets, weight[order]


def build_model(torch, features, hidden, factorise):
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.ft = nn.EmbeddingBag(features.count, hidden, mode="sum")
            self.ft_bias = nn.Parameter(torch.zeros(hidden))
            self.l1 = nn.Linear(2 * hidden, L1)
            self.l2 = nn.Linear(L1, 1)
            # --factorise: the shared sets' weights, and the row of each feature in each set.
            sets = features.shared_sets() if factorise else []
            self.shared = nn.ParameterList([nn.Parameter(torch.zeros(rows, hidden)) for rows, _ in sets])
            self.rows = [torch.from_numpy(row) for _, row in sets]
            with torch.no_grad():
                self.ft.weight.mul_(0.1)

        def ft_weight(self):
            """The feature transformer's weights as the net file holds them: with --factorise,
            each feature's own plus its rows of the shared sets (a zero row past each set's end)."""
            weight = self.ft.weight
            for shared, row in zip(self.shared, self.rows):
                weight = weight + torch.cat([shared, shared.new_zeros(1, hidden)])[row]
            return weight

        def forward(self, white, black, black_to_move):
            weight = self.ft_weight()
            w = nn.functional.embedding_bag(white[0], weight, white[1], mode="sum", per_sample_weights=white[2])
            b = nn.functional.embedding_bag(black[0], weight, black[1], mode="sum", per_sample_weights=black[2])
            w, b = w + self.ft_bias, b + self.ft_bias
            us = torch.where(black_to_move, b, w)
            them = torch.where(black_to_move, w, b)
            x = torch.clamp(torch.cat([us, them], dim=1), 0, 1)
            x = torch.clamp(self.l1(x), 0, 1)
            return self.l2(x).squeeze(1)

        def clip(self):
            """Keeps the layers' weights where int16 can hold them (times QB)."""
            with torch.no_grad():
                for layer in (self.l1, self.l2):
                    layer.weight.clamp_(-32767 / QB, 32767 / QB)

    return Net()


def batch_tensors(torch, features, records):
    views = []
    for viewer in (0, 1):
        index, offsets, weight = features.view(records, viewer)
        views.append((torch.from_numpy(index), torch.from_numpy(offsets), torch.from_numpy(weight)))
    black = torch.from_numpy(records["side"].astype(bool)).unsqueeze(1)
    return views[0], views[1], black


def scale_error(records, scale):
    """How far sigmoid(score / scale) misses the games' results: the mean squared difference."""
    return squared_error(records["score"].astype(np.float64), (records["result"] + 1) / 2, scale)


def squared_error(score, result, scale):
    from scipy.special import expit  # sigmoid, without overflow for large scores
    return float(np.mean((expit(score / scale) - result) ** 2))


def fit_scale(records, low=50.0, high=4000.0):
    """The scale at which the search's scores best predict the games' results (--scale fit).

    Trained at another scale, the net does not keep the scores' centipawns: where a pawn wins
    more often than sigmoid(100 / scale) says, the results pull its evaluations above the
    scores, and the next round, trained on that net's scores, grows again (chess's fifth round
    stood at 1.5 times the hand-written evaluation; docs/nnue.md, "The net's scale").  At the
    fitted scale both targets agree and the net stays in the scores' centipawns.  SciPy's
    bounded scalar minimisation of the error over the scale's logarithm, to a centipawn."""
    from scipy.optimize import minimize_scalar
    score, result = records["score"].astype(np.float64), (records["result"] + 1) / 2
    best = minimize_scalar(lambda log_scale: squared_error(score, result, np.exp(log_scale)),
                           bounds=(np.log(low), np.log(high)), method="bounded", options={"xatol": 1 / high})
    return float(np.round(np.exp(best.x)))


def targets(torch, records, lam, scale):
    score = torch.from_numpy(records["score"].astype(np.float32))
    result = torch.from_numpy((records["result"].astype(np.float32) + 1) / 2)
    return lam * torch.sigmoid(score / scale) + (1 - lam) * result


def run_epoch(torch, model, features, data, args, optimizer=None):
    """One pass (training when an optimizer is given); the mean loss."""
    total, count = 0.0, 0
    output_to_sigmoid = OUTPUT_CP / args.scale  # exactly 1 at the default scale
    for start in range(0, len(data), args.batch):
        records = data[start:start + args.batch]
        white, black, stm = batch_tensors(torch, features, records)
        with torch.set_grad_enabled(optimizer is not None):
            predicted = torch.sigmoid(model(white, black, stm) * output_to_sigmoid)
            loss = torch.mean((predicted - targets(torch, records, args.lam, args.scale)) ** 2)
        if optimizer:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            model.clip()
        total += loss.item() * len(records)
        count += len(records)
    return total / count


def quantise(model, hidden):
    """The integer arrays of the net file (docs/nnue.md)."""
    ft_w = np.round(model.ft_weight().detach().numpy() * (QA << FT_SHIFT)).astype(np.int16)
    ft_b = np.round(model.ft_bias.detach().numpy() * (QA << FT_SHIFT)).astype(np.int16)
    l1_w = np.round(model.l1.weight.detach().numpy() * QB).astype(np.int16)
    l1_b = np.round(model.l1.bias.detach().numpy() * QA * QB).astype(np.int32)
    l2_w = np.round(model.l2.weight.detach().numpy() * QB).astype(np.int16).reshape(-1)
    l2_b = np.round(model.l2.bias.detach().numpy() * QA * QB).astype(np.int32)
    return ft_w, ft_b, l1_w, l1_b, l2_w, l2_b


def quantised_eval(q, features, records):
    """Centipawns by integer arithmetic alone, as the engine will compute them."""
    ft_w, ft_b, l1_w, l1_b, l2_w, l2_b = (a.astype(np.int64) for a in q)
    acc = []
    for viewer in (0, 1):
        index, offsets, weight = features.view(records, viewer)
        rows = np.repeat(np.arange(len(records)), np.diff(np.append(offsets, len(index))))
        a = np.tile(ft_b, (len(records), 1))
        np.add.at(a, rows, ft_w[index] * weight.astype(np.int64)[:, None])
        acc.append(a)
    black = records["side"].astype(bool)[:, None]
    us, them = np.where(black, acc[1], acc[0]), np.where(black, acc[0], acc[1])
    x = np.clip((np.concatenate([us, them], axis=1) + (1 << FT_SHIFT >> 1)) >> FT_SHIFT, 0, QA)
    x = np.clip((x @ l1_w.T + l1_b + QB // 2) // QB, 0, QA)  # rounded: a floor would pull every value down
    out = x @ l2_w + l2_b[0]
    return out * OUTPUT_CP / (QA * QB)


def quantisation_stray(torch, model, q, features, records, batch=8192):
    """How far the quantised net's evaluations stray from the float net's, in centipawns, batch
    by batch: the integer evaluation holds a row of H int64 values per feature, and Megastar's
    450,000 held-out positions at once needed 20 GB."""
    stray = []
    with torch.no_grad():
        for start in range(0, len(records), batch):
            part = records[start:start + batch]
            exact = model(*batch_tensors(torch, features, part)).numpy() * OUTPUT_CP
            stray.append(np.abs(quantised_eval(q, features, part) - exact))
    return np.concatenate(stray)


def write_net(path, header, hidden, features, q):
    version = 1 if features.buckets is None else 2  # version 2: the king bucket table after the mirror
    with open(path, "wb") as f:
        f.write(MAGIC + struct.pack("<HHHHIII", version, header["cells"], header["types"], header["hand"],
                                    features.count, hidden, L1))
        f.write(header["variant"].encode().ljust(24, b"\0")[:24])
        f.write(header["mirror"])
        if features.buckets is not None:
            f.write(features.buckets.astype(np.uint8).tobytes())
        for array in q:
            f.write(array.astype(array.dtype.newbyteorder("<")).tobytes())


def net_bytes(path, option="--init"):
    """A net file's bytes (`option` names the file's source in what is refused)."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        fail("%s %s: %s" % (option, path, e.strerror))


def parse_net(raw, path, option="--init"):
    """A net file's bytes as write_net writes them: its shape (variant, cells, types, hand,
    features, hidden, king buckets or None) and its six integer arrays, for --init and
    nnue_rescale.py; anything else is refused, named by `option` and `path`."""
    head = struct.Struct("<HHHHIII")
    at = len(MAGIC) + head.size + 24
    if raw[:len(MAGIC)] != MAGIC or len(raw) < at:
        fail("%s %s: not a starfish net file" % (option, path))
    version, cells, types, hand, count, hidden, l1 = head.unpack_from(raw, len(MAGIC))
    if version not in (1, 2) or l1 != L1:
        fail("%s %s: a net of version %d with %d values in its hidden layer; this trainer writes versions 1 "
             "and 2 with %d" % (option, path, version, l1, L1))
    shape = {"variant": raw[at - 24:at].rstrip(b"\0").decode(errors="replace"), "cells": cells, "types": types,
             "hand": hand, "features": count, "hidden": hidden, "buckets": None}
    at += cells  # the mirror table
    if version == 2:
        shape["buckets"] = np.frombuffer(raw, np.uint8, cells, at).astype(np.int64) if at + cells <= len(raw) else None
        at += cells
    arrays = []
    for dtype, dims in (("<i2", (count, hidden)), ("<i2", (hidden,)), ("<i2", (L1, 2 * hidden)), ("<i4", (L1,)),
                        ("<i2", (L1,)), ("<i4", (1,))):
        size = int(np.prod(dims)) * np.dtype(dtype).itemsize
        if at + size > len(raw):
            fail("%s %s: cut short (%d bytes)" % (option, path, len(raw)))
        arrays.append(np.frombuffer(raw, dtype, int(np.prod(dims)), at).reshape(dims).astype(np.float32))
        at += size
    if at != len(raw):
        fail("%s %s: %d bytes after the net" % (option, path, len(raw) - at))
    return shape, arrays


def start_from(torch, model, path, shape, arrays, header, features, hidden):
    """--init: the model starts from a net file's weights (quantised, so within half a step of
    the float net that made it), which must have the shape being trained."""
    wanted = {"variant": header["variant"], "cells": header["cells"], "types": header["types"],
              "hand": header["hand"], "features": features.count, "hidden": hidden}
    differ = ["%s %s (the training's %s)" % (k, shape[k], v) for k, v in wanted.items() if shape[k] != v]
    ours, theirs = features.buckets, shape["buckets"]
    if (ours is None) != (theirs is None) or (ours is not None and not np.array_equal(ours, theirs)):
        differ.append("other king buckets")
    if differ:
        fail("--init %s: not the shape trained here: %s" % (path, ", ".join(differ)))
    ft_w, ft_b, l1_w, l1_b, l2_w, l2_b = (torch.from_numpy(a) for a in arrays)
    with torch.no_grad():
        model.ft.weight.copy_(ft_w / (QA << FT_SHIFT))
        model.ft_bias.copy_(ft_b / (QA << FT_SHIFT))
        model.l1.weight.copy_(l1_w / QB)
        model.l1.bias.copy_(l1_b / (QA * QB))
        model.l2.weight.copy_(l2_w.reshape(1, L1) / QB)
        model.l2.bias.copy_(l2_b / (QA * QB))


def plot(path, curves):
    """curves: name -> [(epoch, loss), ...]."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, points in curves.items():
        ax.plot(*zip(*points), marker="o", label=name)
    ax.set_xlabel("epoch")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_ylabel("loss (mean squared, probability)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)


def scale_option(text):
    """--scale's value: `fit`, or a number of centipawns."""
    if text == "fit":
        return text
    try:
        scale = float(text)
    except ValueError:
        scale = float("nan")
    if not np.isfinite(scale):
        fail("--scale is a number of centipawns or fit, not %r" % text)
    return scale


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", nargs="+", help="position files of one variant (starfish gensfen)")
    parser.add_argument("--out", required=True, help="the net file to write")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--lr-decay", type=float, default=1.0,
                        help="the learning rate is multiplied by this after each epoch (default 1: constant)")
    parser.add_argument("--lambda", dest="lam", type=float, default=0.75,
                        help="weight of the search's score against the game's result (default 0.75)")
    parser.add_argument("--hidden", type=int, help="values per side (default 128, or --init's)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--validation", type=float, default=0.05,
                        help="share of the positions held out, in whole games (default 0.05)")
    parser.add_argument("--hold-out-last", action="store_true",
                        help="hold out games of the last data file only (--validation of its positions): "
                             "with --init, the games the starting net learnt from are no test of it")
    parser.add_argument("--plot", help="a PNG of the loss curves")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--king-buckets", metavar="SPEC",
                        help="features per bucket of the viewer's king's cell (HalfKA-style): halves, quarters "
                             "(8x8 boards) or a bucket per cell, comma-separated (default: none)")
    parser.add_argument("--scale", default="400",
                        help="centipawns that sigmoid maps to 1 (default 400; larger where scores run larger), "
                             "or fit: the scale at which the scores best predict the results")
    parser.add_argument("--factorise", action="store_true",
                        help="train weights per (kind, whose) shared by all cells (with king buckets also per "
                             "piece on a cell, shared by all buckets), folded into each feature's own when written")
    parser.add_argument("--init", metavar="NET",
                        help="start from this net's weights (its shape: --hidden and --king-buckets default to "
                             "its own) instead of random ones, to train a net further on new games")
    args = parser.parse_args()
    args.scale = scale_option(args.scale)
    if not 0 <= args.lam <= 1 or not 0 < args.validation < 1 or args.epochs < 1 or args.batch < 1 or \
            not (args.scale == "fit" or args.scale > 0) or not 0 < args.lr_decay <= 1:
        fail("--lambda and --validation lie in [0, 1], --lr-decay in (0, 1], --epochs, --batch and --scale "
             "are positive")
    try:
        import torch
    except ImportError:
        fail("needs PyTorch: Debian's python3-torch, run by /usr/bin/python3 (tools/install-deps.sh)")
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)
    header, data, last_file = load(args.data)
    init = parse_net(net_bytes(args.init), args.init) if args.init else None
    if args.king_buckets:
        buckets = king_buckets(args.king_buckets, header)
    else:
        buckets = init[0]["buckets"] if init else None
    features = Features(header, buckets)
    args.hidden = args.hidden or (init[0]["hidden"] if init else 128)
    model = build_model(torch, features, args.hidden, args.factorise)
    if init:
        start_from(torch, model, args.init, *init, header, features, args.hidden)
    train, valid, games, held_games = split_by_games(data, args.validation, args.seed,
                                                     last_file if args.hold_out_last else 0)
    if args.scale == "fit":
        args.scale = fit_scale(train)
        print("scale fitted to the training games' results: %g cp (squared error %.5f; at 400 cp %.5f)" % (
            args.scale, scale_error(train, args.scale), scale_error(train, 400.0)), flush=True)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    schedule = torch.optim.lr_scheduler.ExponentialLR(optimizer, gamma=args.lr_decay)
    print("%s: %d positions of %d games (%d positions, %d games, held out), %d features%s, %d x 2 -> %d -> 1, "
          "lambda %.2f, scale %g cp%s" % (header["variant"], len(data), games, len(valid), held_games, features.count,
                                          " (%d king buckets)" % features.bucket_count if features.buckets is not None
                                          else "", args.hidden, L1, args.lam, args.scale,
                                          ", factorised" if args.factorise else ""), flush=True)
    curves = {"training": [], "validation": []}  # (epoch, loss) points
    # The loss of the net before training on the held-out games: what the training has to beat.
    # With --init that net is a candidate too (epoch 0): the games may teach it nothing new.
    start_loss = run_epoch(torch, model, features, valid, args)
    print("%s: validation %.6f" % ("start (%s)" % args.init if init else "untrained", start_loss), flush=True)
    shuffle = np.random.RandomState(args.seed + 1)
    best = (float("inf"), 0, None)  # the lowest validation loss, its epoch, the net's weights then
    if init:  # the starting net's point: what the new games teach it shows from there
        curves["validation"].append((0, start_loss))
        best = (start_loss, 0, {k: v.clone() for k, v in model.state_dict().items()})
    for epoch in range(1, args.epochs + 1):
        start = time.monotonic()
        train_loss = run_epoch(torch, model, features, train[shuffle.permutation(len(train))], args, optimizer)
        valid_loss = run_epoch(torch, model, features, valid, args)
        learning_rate = schedule.get_last_lr()[0]
        schedule.step()
        curves["training"].append((epoch, train_loss))
        curves["validation"].append((epoch, valid_loss))
        seconds = time.monotonic() - start
        print("epoch %d: training %.6f, validation %.6f, learning rate %.2e (%.1f s, %.0f positions/s)" % (
            epoch, train_loss, valid_loss, learning_rate, seconds, len(train) / seconds), flush=True)
        if valid_loss < best[0]:
            best = (valid_loss, epoch, {k: v.clone() for k, v in model.state_dict().items()})
    # The net written is the epoch's that predicted the held-out games best: once the data are
    # learnt, later epochs fit the training games only (the validation curve goes flat or up).
    model.load_state_dict(best[2])
    print("kept: the net of epoch %d (validation %.6f)" % (best[1], best[0]), flush=True)
    q = quantise(model, args.hidden)
    write_net(args.out, header, args.hidden, features, q)
    stray = quantisation_stray(torch, model, q, features, valid)
    print("quantised: %.1f cp mean, %.1f cp most from the float net over the %d held-out positions" % (
        stray.mean(), stray.max(), len(valid)))
    if args.plot:
        plot(args.plot, curves)
    print("written to %s" % args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
