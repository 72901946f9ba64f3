"""`starfish tb ...` and the engine's use of the tables, through the real binary.

The 3-man tables are built once into a temporary folder (well under a second).  The position
KQK below: White king 7, queen 9, Black king on the star tip 37, White to move; by the tables
White mates in 6 (11 plies), and 7-13, 7-14, 9-20, 9-25 are the moves that keep that distance.
"""
import atexit
import os
import re
import shutil
import tempfile

from harness import cli, errors, uci_search

KQK = "1/2/3K1Q1/6/5/6/7/2/k[] w 0 1"
KQK_BEST = {"7-13", "7-14", "9-20", "9-25"}
_folder = []


def tables():
    """The folder holding the 3-man tables (built on first use, removed at exit)."""
    if not _folder:
        path = tempfile.mkdtemp(prefix="starfish-tb-protocol-")
        atexit.register(shutil.rmtree, path, True)
        code, out, err = cli(["tb", "generate", "--max-pieces", "3", "--dir", path, "--quiet"], timeout=300)
        assert code == 0, "tb generate failed (%d): %s %s" % (code, out, err)
        _folder.append(path)
    return _folder[0]


def test_generate_builds_every_3_man_table_and_keeps_them():
    folder = tables()
    names = sorted(os.listdir(folder))
    assert names == sorted(["KvK.stb", "KQvK.stb", "KRvK.stb", "KBvK.stb", "KNvK.stb", "KPvK.stb"]), names
    code, out, err = cli(["tb", "generate", "--max-pieces", "3", "--dir", folder])
    assert code == 0, err
    assert out.count("present") == 6, "a second run must keep the checked files: %r" % out


def test_probe_reports_result_distance_and_best_moves():
    code, out, err = cli(["tb", "probe", KQK, "--dir", tables()])
    assert code == 0, err
    assert "table:    KQvK" in out, out
    assert "result:   White to move: win: mate in 6 (11 plies); DTZ 11 plies" in out, out
    best = re.search(r"^best moves: (.*)$", out, re.M)
    assert best and set(best.group(1).split()) == KQK_BEST, out


def test_probe_explains_what_it_cannot_answer():
    code, out, err = cli(["tb", "probe", "1/2/3K1Q1/6/5/6/7/2/k w 0 1", "--dir", tables()])
    assert code == 2 and "bad position" in err and "pieces in hand" in err, (code, err)
    # Four men: no 4-man table in this folder.
    code, out, err = cli(["tb", "probe", "1/2/3K1QR/6/5/6/7/2/k[] w 0 1", "--dir", tables()])
    assert code == 1 and "not in the tables" in err and "KQRvK" in err, (code, err)


def test_corrupted_file_is_rejected_with_a_clear_error():
    folder = tempfile.mkdtemp(prefix="starfish-tb-bad-")
    try:
        shutil.copy(os.path.join(tables(), "KQvK.stb"), folder)
        path = os.path.join(folder, "KQvK.stb")
        with open(path, "r+b") as f:
            f.seek(5000)
            byte = f.read(1)
            f.seek(5000)
            f.write(bytes([byte[0] ^ 0x5A]))
        code, out, err = cli(["tb", "probe", KQK, "--dir", folder])
        assert code == 1, (code, out, err)
        assert "checksum mismatch" in err and "corrupted" in err, err
    finally:
        shutil.rmtree(folder, True)


def test_verify_and_stats_agree_with_the_rules_core():
    code, out, err = cli(["tb", "verify", "--dir", tables(), "--max-pieces", "3"], timeout=300)
    assert code == 0 and "0 tables failed" in out, (code, out, err)
    code, out, err = cli(["tb", "stats", "--dir", tables(), "--max-pieces", "3"])
    assert code == 0, err
    # K+Q v K: every position with White to move is won, the longest mate in 17 plies.
    assert re.search(r"^KQvK\s+white\s+25668\s+25668\s+0\s+0\s+0\s+17\s+17$", out, re.M), out


def test_stats_writes_the_docs_section_and_the_data_image():
    work = tempfile.mkdtemp(prefix="starfish-tb-stats-")
    try:
        docs, data = os.path.join(work, "tb.md"), os.path.join(work, "derived.bin")
        with open(docs, "w") as f:
            f.write("before\n<!-- tb-stats begin -->\nold text\n<!-- tb-stats end -->\nafter\n")
        code, out, err = cli(["tb", "stats", "--dir", tables(), "--max-pieces", "3", "--write-docs", docs,
                              "--write-data", data])
        assert code == 0, (code, out, err)
        with open(docs) as f:
            text = f.read()
        assert text.startswith("before\n<!-- tb-stats begin") and text.endswith("<!-- tb-stats end -->\nafter\n"), text
        assert "old text" not in text and "KQvK" in text, text
        with open(data, "rb") as f:
            image = f.read()
        # The header (tb_derived.h): magic, max men, then the image's size at offset 20.
        assert image[:8] == b"SFTBDRV1", image[:32]
        assert int.from_bytes(image[8:12], "little") == 3, image[:32]
        assert int.from_bytes(image[20:24], "little") == len(image), (len(image), image[:32])
    finally:
        shutil.rmtree(work, True)


def engine(lines, stderr=None):
    return uci_search(["setoption name UCI_Variant value starchess"] + lines, stderr=stderr)


def test_engine_plays_the_tables_fastest_mate():
    out = engine(["setoption name TablebasePath value " + tables(), "position fen " + KQK, "go depth 8"])
    assert errors(out) == [], out
    assert any(" score mate 6 " in line for line in out if line.startswith("info")), out
    assert out[-1].split()[1] in KQK_BEST, out


def test_engine_without_tables_searches():
    out = engine(["setoption name TablebasePath value <empty>", "position fen " + KQK, "go depth 3"])
    assert errors(out) == [], out
    assert not any(" score mate 6 " in line for line in out), "no tables, no exact mate in 6: %r" % out
    assert out[-1].startswith("bestmove "), out


def test_engine_ignores_a_corrupted_or_truncated_table():
    # The tables' mate in 6 is out of a depth-3 search's reach (see the test above): a score
    # of mate 6 would come from the bad file.
    with open(os.path.join(tables(), "KQvK.stb"), "rb") as f:
        good = f.read()
    flipped = bytearray(good)
    flipped[5000] ^= 0x10
    for name, data, why in (("flipped", bytes(flipped), "payload checksum mismatch"),
                            ("truncated", good[:3000], "truncated file")):
        folder = tempfile.mkdtemp(prefix="starfish-tb-bad-")
        try:
            with open(os.path.join(folder, "KQvK.stb"), "wb") as f:
                f.write(data)
            err = []
            out = engine(["setoption name TablebasePath value " + folder, "position fen " + KQK, "go depth 3"],
                         stderr=err)
            assert errors(out) == [] and out[-1].startswith("bestmove "), (name, out)
            assert not any(" score mate 6 " in line for line in out), (name, out)
            assert err[0].count("tablebase: rejected") == 1 and why in err[0], (name, err)
        finally:
            shutil.rmtree(folder, True)


def test_engine_in_a_won_ending_the_clock_will_draw_reports_no_mate():
    # Halfmove clock 95: the next zeroing move is 11 plies away whatever White does, so best
    # defence reaches the 50-move rule first; the engine still plays on but scores it 0.
    fen = KQK.replace(" w 0 1", " w 95 80")
    out = engine(["setoption name TablebasePath value " + tables(), "position fen " + fen, "go depth 8"])
    assert errors(out) == [], out
    assert any(" score cp 0 " in line for line in out if line.startswith("info")), out
