"""Reads the training-position files of `starfish gensfen` (layout: docs/nnue.md).

    import posfile
    header, records = posfile.read("chess.sfpos")

header: a dict (version, cells, types, hand, record, variant, letters, mirror); records: a list of
Record tuples (score, result, side, ply, hand, board), hand and board as bytes (board: a
piece code per cell, 0 empty, the type plus 16 for Black).  Plain Python, for tests and
small files; a trainer reads the same fixed-size records as one array with `dtype(header)`.
"""
import collections
import struct

MAGIC = b"sfpos\0\0\0"
HEADER = 64
Record = collections.namedtuple("Record", "score result side ply hand board")


def read_header(data):
    if data[:8] != MAGIC:
        raise ValueError("not a starfish position file (magic %r)" % data[:8])
    if len(data) < HEADER:
        raise ValueError("%d bytes, cut short in its header" % len(data))
    version, cells, types, hand, record = struct.unpack_from("<5H", data, 8)
    return {"version": version, "cells": cells, "types": types, "hand": hand, "record": record,
            "variant": data[18:40].rstrip(b"\0").decode(), "letters": data[40:64].rstrip(b"\0").decode(),
            "mirror": bytes(data[HEADER:HEADER + cells])}


def data_offset(header):
    """Where the first record begins: after the header and the mirror table."""
    return HEADER + header["cells"]


def whole_records(header, size, path):
    """How many records a file of `size` bytes holds, refused (ValueError) when the file is
    cut short: in its header, or within a record."""
    if size < data_offset(header):
        raise ValueError("%s: %d bytes, cut short in its header" % (path, size))
    body = size - data_offset(header)
    if body % header["record"]:
        raise ValueError("%s: %d bytes after the header, not a whole number of %d-byte records"
                         % (path, body, header["record"]))
    return body // header["record"]


def records_body(data, path):
    """A whole file's header and the bytes of its records (whole_records' checks)."""
    header = read_header(data)
    whole_records(header, len(data), path)
    return header, data[data_offset(header):]


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    header, body = records_body(data, path)
    size = header["record"]
    records = []
    for at in range(0, len(body), size):
        score, result, side, ply = struct.unpack_from("<hbBH", body, at)
        hand = body[at + 6:at + 6 + header["hand"]]
        board = body[at + 6 + header["hand"]:at + size]
        records.append(Record(score, result, side, ply, hand, board))
    return header, records


def dtype(header):
    """The numpy structured type of one record (numpy imported only here)."""
    import numpy
    return numpy.dtype([("score", "<i2"), ("result", "i1"), ("side", "u1"), ("ply", "<u2"),
                        ("hand", "u1", (header["hand"],)), ("board", "u1", (header["cells"],))])
