"""The command line: `starfish perft`, `starfish bench perft`, `starfish help`, and the help
and the errors of every subcommand's options.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import os
import tempfile

from harness import cli, parse_divide

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def perft_ok(args):
    """Runs a successful `starfish perft ...`; checks the output shape; returns ({move: count}, total)."""
    code, out, err = cli(["perft"] + list(args))
    assert code == 0, "perft %r: exit status %d, stderr %r" % (args, code, err)
    assert err == "", "perft %r wrote to stderr: %r" % (args, err)
    assert out.endswith("\n"), "output must end with a newline: %r" % out[-80:]
    moves, total, rest = parse_divide(out.split("\n")[:-1])
    assert len(rest) == 2, "expected 'Time:' and 'Nodes per second:' after the total, got %r" % (rest,)
    time_line, nps_line = rest
    assert time_line.startswith("Time: ") and time_line.endswith(" s"), "bad time line %r" % time_line
    seconds = time_line[len("Time: "):-2]
    assert seconds.replace(".", "", 1).isdigit() and "." in seconds, "bad time value %r" % time_line
    assert nps_line.startswith("Nodes per second: ") and nps_line[18:].isdigit(), "bad nps line %r" % nps_line
    return moves, total


def usage_error(args, expect, command=None):
    """Checks exit status 2, nothing on stdout and one line `starfish: COMMAND: ...` naming the
    problem and pointing to the command's help (to `starfish help` without a command)."""
    code, out, err = cli(args)
    assert code == 2, "%r: expected exit status 2, got %d (stdout %r, stderr %r)" % (args, code, out[:200], err)
    assert out == "", "%r: nothing may go to stdout on an error, got %r" % (args, out[:200])
    prefix, helper = ("starfish: %s: " % command, "'starfish %s --help'" % command) if command else \
        ("starfish: ", "'starfish help'")
    assert err.startswith(prefix), "%r: the message must start with %r: %r" % (args, prefix, err)
    assert err.count("\n") == 1 and err.endswith("\n"), "%r: one line: %r" % (args, err)
    assert expect in err, "%r: expected %r in the message %r" % (args, expect, err)
    assert helper in err, "%r: the message should point to %s: %r" % (args, helper, err)


def test_perft_output_format():
    moves, total = perft_ok(["chess", "1"])
    assert total == 20 and len(moves) == 20, "perft 1 from the start: %d nodes, %d moves" % (total, len(moves))
    assert all(c == 1 for c in moves.values()), "every count at depth 1 must be 1: %r" % (moves,)
    code, out, _ = cli(["perft", "chess", "1"])
    lines = out.split("\n")
    assert lines[20] == "" and lines[21] == "Nodes searched: 20", "expected blank line then total: %r" % lines[19:]
    assert lines[22].startswith("Time: ") and lines[23].startswith("Nodes per second: "), "got %r" % lines[22:]


def test_perft_start_position_depths():
    for depth, expected in ((1, 20), (2, 400), (3, 8902), (4, 197281)):
        _, total = perft_ok(["chess", str(depth)])
        assert total == expected, "chess perft %d: expected %d, got %d" % (depth, expected, total)


def test_perft_with_fen():
    _, total = perft_ok(["chess", "2", KIWIPETE])
    assert total == 2039, "kiwipete perft 2: expected 2039, got %d" % total
    moves, total = perft_ok(["chess", "3", KIWIPETE])
    assert total == 97862, "kiwipete perft 3: expected 97862, got %d" % total
    assert "e1g1" in moves and "e1c1" in moves, "castling missing from the divide %r" % (sorted(moves),)
    _, total = perft_ok(["chess", "1", START_FEN])
    assert total == 20, "explicit start FEN: expected 20, got %d" % total
    _, total = perft_ok(["chess", "1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"])
    assert total == 20, "EPD-style text without counters: expected 20, got %d" % total


def test_perft_starvation():
    _, total = perft_ok(["starvation", "3"])
    assert total == 8902, "starvation perft 3 from the start: expected 8902, got %d" % total
    moves, total = perft_ok(["starvation", "1", "4k3/8/8/8/8/8/8/N3K3 w - - 0 1"])
    assert total == 2 and set(moves) == {"a1b3", "a1c2"}, \
        "starvation: a king away from pawns may not move, got %r" % (moves,)
    _, total = perft_ok(["chess", "1", "4k3/8/8/8/8/8/8/N3K3 w - - 0 1"])
    assert total == 7, "chess: the same position has 7 moves, got %d" % total


def test_perft_checkmated_position():
    moves, total = perft_ok(["chess", "1", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"])
    assert total == 0 and moves == {}, "a mated side has no moves: %r" % (moves,)


def test_perft_unknown_variant():
    usage_error(["perft", "nosuchvariant", "1"], "unknown variant 'nosuchvariant'", "perft")
    usage_error(["perft", "Chess", "1"], "unknown variant 'Chess'", "perft")
    usage_error(["perft", "", "1"], "unknown variant", "perft")


def test_perft_bad_depth():
    for depth in ("0", "-1", "x", "65", "3x", "", "1.5", "99999999999999999999", " 3"):
        usage_error(["perft", "chess", depth], "bad depth '%s'" % depth, "perft")


def test_perft_bad_fen():
    cases = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "fields"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "unknown piece letter 'X'"),
        ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 cells"),
        ("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 rows"),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "White has 2 kings"),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "Black has 0 kings"),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "White pawn on a1"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "White pawn on a8"),
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "not to move, is in check"),
        ("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "castling right"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "en-passant"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en-passant"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "bad move counters"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "bad move counters"),
        ("", "fields"),
        ("\xff\xfe garbage", "bad position"),
    ]
    for fen, expect in cases:
        usage_error(["perft", "chess", "1", fen], expect, "perft")
    usage_error(["perft", "starvation", "1", "8/8/8/8/8/8/8/8 w - - 0 1"], "kings", "perft")


def test_perft_wrong_argument_count():
    usage_error(["perft"], "needs VARIANT DEPTH [FEN]", "perft")
    usage_error(["perft", "chess"], "needs VARIANT DEPTH [FEN]", "perft")
    usage_error(["perft", "chess", "1", START_FEN, "extra"], "unexpected argument 'extra'", "perft")
    usage_error(["perft", "--depth", "3"], "unknown option '--depth'", "perft")


def test_unknown_subcommand():
    usage_error(["frobnicate"], "unknown command 'frobnicate'")
    usage_error(["PERFT", "chess", "1"], "unknown command 'PERFT'")
    usage_error(["--verbose"], "unknown command '--verbose'")  # --version is a command (test_version.py)


def test_bench_usage_errors():
    usage_error(["bench", "nosuchkind"], "usage: starfish bench", "bench")
    usage_error(["bench", "perft", "nosuchvariant"], "unknown variant 'nosuchvariant'", "bench")
    usage_error(["bench", "perft", "chess", "3"], "unexpected argument '3'", "bench")


def test_help_lists_variants_and_exits_0():
    for flag in ("help", "--help", "-h"):
        code, out, err = cli([flag])
        assert code == 0, "%s: exit status %d" % (flag, code)
        assert err == "", "%s wrote to stderr: %r" % (flag, err)
        lines = out.split("\n")
        variants = [line for line in lines if line.startswith("variants:")]
        assert variants, "%s: no 'variants:' line in %r" % (flag, out)
        names = variants[0].split()[1:]
        assert names[:2] == ["chess", "starvation"], "%s: variants listed %r" % (flag, names)
        assert "perft VARIANT DEPTH [FEN]" in out, "%s: the perft usage is missing: %r" % (flag, out)
        assert out.endswith("\n"), "%s: output must end with a newline" % flag


def test_success_exits_0():
    code, out, err = cli(["perft", "starvation", "1"])
    assert code == 0 and err == "" and "Nodes searched: 20" in out, \
        "perft starvation 1: status %d, stderr %r" % (code, err)


def test_cli_variant_names_match_uci_option():
    from harness import uci
    _, out, _ = cli(["help"])
    listed = [line for line in out.split("\n") if line.startswith("variants:")][0].split()[1:]
    option = [line for line in uci(["uci"]) if line.startswith("option name UCI_Variant")][0]
    offered = option.split(" var ")[1:]
    assert listed == offered, "help lists %r but UCI offers %r" % (listed, offered)


# Every subcommand and a few of its options: `--help` (and `-h`) prints the usage and every
# option of its table on stdout with status 0; a bad option is named, with status 2.
SUBCOMMANDS = {
    ("perft",): ["VARIANT DEPTH [FEN]"],
    ("bench",): ["[perft [VARIANT]]"],
    ("serve",): ["--port N", "--db FILE", "--web DIR", "--host ADDR", "--evict-after SECONDS"],
    ("match",): ["--engine1 CMD", "--sprt ELO0 ELO1", "--max-plies N"],
    ("tune",): ["VARIANT FILE.pgn|FILE.epd", "--generate GAMES", "--ridge R", "--tables-only", "--export FILE"],
    ("gensfen",): ["VARIANT --positions N", "--depth D", "--nodes N", "--threads T", "--out FILE", "--seed S"],
    ("bot",): ["--server URL", "--token TOKEN", "--engine CMD", "--config FILE", "--join IDS"],
    ("tb", "generate"): ["--max-pieces N", "--only SIG", "--force"],
    ("tb", "probe"): ["FEN", "--dir DIR"],
    ("tb", "verify"): ["[SIG...]", "--sample K", "--derived", "--threads T"],
    ("tb", "stats"): ["--write-docs FILE", "--write-data FILE", "--max-pieces N"],
    ("tb", "dump"): ["SIG", "--dir DIR"],
}


def test_every_subcommand_has_help():
    for words, expected in SUBCOMMANDS.items():
        for flag in ("--help", "-h"):
            code, out, err = cli(list(words) + [flag])
            name = " ".join(words)
            assert code == 0 and err == "", "%s %s: status %d, stderr %r" % (name, flag, code, err)
            assert out.startswith("usage: starfish %s " % name), "%s %s: %r" % (name, flag, out[:200])
            for text in expected + ["--help"]:
                assert text in out, "%s %s: %r is missing from the help:\n%s" % (name, flag, text, out)
    code, out, err = cli(["tb", "help"])
    assert code == 0 and all("starfish tb %s" % w[1] in out for w in SUBCOMMANDS if w[0] == "tb"), out


def test_every_subcommand_names_a_bad_option():
    for words in SUBCOMMANDS:
        name = " ".join(words)
        usage_error(list(words) + ["--frobnicate"], "unknown option '--frobnicate'", name)
    usage_error(["serve", "--port", "http"], "bad --port 'http'", "serve")
    usage_error(["serve", "--db"], "--db needs a value", "serve")
    usage_error(["tune", "chess", "x.pgn", "--ridge", "2"], "bad --ridge '2'", "tune")
    usage_error(["tune", "nosuch", "x.pgn"], "unknown variant 'nosuch'", "tune")
    usage_error(["tune", "chess"], "needs VARIANT FILE.pgn", "tune")
    usage_error(["tb", "generate", "--max-pieces", "7"], "bad --max-pieces '7'", "tb generate")
    usage_error(["tb", "generate", "--force=yes"], "--force takes no value", "tb generate")
    usage_error(["tb", "probe"], "needs FEN", "tb probe")
    usage_error(["tb", "verify", "KQvKQQQQQQ"], "bad signature 'KQvKQQQQQQ'", "tb verify")
    usage_error(["tb", "stats", "KQvK", "--write-docs", "x.md"], "need every signature", "tb stats")
    usage_error(["tb", "dump"], "needs SIG", "tb dump")
    usage_error(["tb", "frobnicate"], "unknown tb command 'frobnicate'", "tb")


def test_tune_exports_positions_and_reads_labelled_ones():
    """`tune --export` writes the chosen positions of the games as FEN lines; a FILE.epd of
    'FEN ; LABEL' lines is fitted like games (the labels: results or expected scores)."""
    game = ('[Event "t"]\n[Result "1-0"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. d4 c6 5. Nf3 Bg4 1-0\n\n')
    with tempfile.TemporaryDirectory() as tmp:
        pgn, fens, epd = (os.path.join(tmp, n) for n in ("g.pgn", "fens.txt", "l.epd"))
        with open(pgn, "w") as f:
            f.write(game * 4)
        code, out, err = cli(["tune", "chess", pgn, "--export", fens, "--skip", "0"])
        assert code == 0 and err == "", (code, out, err)
        lines = open(fens).read().split("\n")[:-1]
        assert len(lines) == 28 and "28 positions written" in out, (len(lines), out)
        assert lines[0] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", lines[0]
        with open(epd, "w") as f:
            for i, fen in enumerate(lines):
                f.write("%s ; %s\n" % (fen, ("0.8", "1-0", "1/2-1/2")[i % 3]))
            f.write("8/8/8 w - - 0 1 ; 0.5\n")
        code, out, err = cli(["tune", "chess", epd, "--iterations", "2"])
        assert code == 0, (code, out, err)
        assert "29 labelled positions (1 unreadable)" in out, out
        assert "line 29 skipped" in err, err
        assert "final: error" in out, out
