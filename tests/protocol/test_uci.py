"""The UCI session: `./starfish` with no arguments, driven over stdin/stdout.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import time

import harness
from harness import Session, errors, field, parse_divide

# The first `isready` names the net chess plays with (test_nnue.py checks that line); the
# session's own answers are what these tests read, so the helpers leave the line out.
NET_NAMED = "info string NNUE evaluation using "


def without_net_named(lines):
    return [line for line in lines if not line.startswith(NET_NAMED)]


def uci(lines, timeout=60):
    return without_net_named(harness.uci(lines, timeout))


def uci_perft(lines, timeout=60):
    return without_net_named(harness.uci_perft(lines, timeout))


def uci_raw(data, timeout=60):
    code, out, err = harness.uci_raw(data, timeout)
    return code, without_net_named(out), err

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
AFTER_E4_FEN = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# Variants are being added; the option must begin like this and list at least these.
OPTION_PREFIX = "option name UCI_Variant type combo default chess var chess var starvation"

START_MOVES = {"a2a3", "a2a4", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4", "e2e3", "e2e4", "f2f3",
               "f2f4", "g2g3", "g2g4", "h2h3", "h2h4", "b1a3", "b1c3", "g1f3", "g1h3"}


def divide(lines):
    """The divide of a session whose only output is one `go perft` (after any `info string
    variant` lines that choosing a variant prints): ({move: count}, total)."""
    lines = [line for line in lines if not line.startswith("info string variant ")]
    moves, total, rest = parse_divide(lines)
    assert rest == [], "unexpected output after 'Nodes searched': %r" % (rest,)
    return moves, total


def board_state(lines):
    """(variant, fen, status) from the output of `d`."""
    return field(lines, "Variant"), field(lines, "Fen"), field(lines, "Status")


# --- identification and readiness ---------------------------------------------------------

def test_uci_lists_variant_option_and_ends_with_uciok():
    out = uci(["uci"])
    assert out, "no answer to 'uci'"
    assert out[-1] == "uciok", "the answer to 'uci' must end with uciok: %r" % (out,)
    assert out.count("uciok") == 1, "uciok printed more than once: %r" % (out,)
    assert any(line.startswith("id name ") for line in out), "no 'id name' line: %r" % (out,)
    assert any(line.startswith("id author ") for line in out), "no 'id author' line: %r" % (out,)
    options = [line for line in out if line.startswith("option name UCI_Variant ")]
    assert len(options) == 1, "expected one UCI_Variant option line: %r" % (out,)
    option = options[0]
    assert option == OPTION_PREFIX or option.startswith(OPTION_PREFIX + " var "), \
        "expected %r (then any further 'var NAME'), got %r" % (OPTION_PREFIX, option)
    names = option.split(" var ")[1:]
    assert len(names) == len(set(names)) and all(n and " " not in n for n in names), \
        "bad variant list %r" % (names,)
    assert out.index(option) < out.index("uciok"), "the option must come before uciok: %r" % (out,)
    assert errors(out) == [], "errors in the answer to 'uci': %r" % (out,)


def test_isready_answers_readyok():
    out = uci(["isready"])
    assert out == ["readyok"], "expected exactly ['readyok'], got %r" % (out,)
    out = uci(["uci", "isready", "isready"])
    assert out[-2:] == ["readyok", "readyok"], "each isready needs its own readyok: %r" % (out,)


def test_quit_ends_the_session_and_ignores_the_rest():
    code, out, err = uci_raw(b"isready\nquit\nisready\n")
    assert code == 0, "exit status %d after quit (stderr %r)" % (code, err)
    assert out == ["readyok"], "commands after quit must not run: %r" % (out,)


def test_end_of_input_ends_the_session():
    code, out, err = uci_raw(b"isready")
    assert code == 0, "exit status %d at end of input (stderr %r)" % (code, err)
    assert out == ["readyok"], "a last line without a newline must still run: %r" % (out,)


# --- perft ---------------------------------------------------------------------------------

def test_go_perft_startpos_depth_1():
    moves, total = divide(uci_perft(["position startpos", "go perft 1"]))
    assert total == 20, "perft 1 from the start: expected 20, got %d" % total
    assert set(moves) == START_MOVES, "start moves differ: missing %r, extra %r" % (
        sorted(START_MOVES - set(moves)), sorted(set(moves) - START_MOVES))
    assert all(c == 1 for c in moves.values()), "every count at depth 1 must be 1: %r" % (moves,)


def test_go_perft_startpos_depth_2():
    moves, total = divide(uci_perft(["position startpos", "go perft 2"]))
    assert total == 400, "perft 2 from the start: expected 400, got %d" % total
    assert set(moves) == START_MOVES and all(c == 20 for c in moves.values()), \
        "each start move has 20 replies: %r" % (moves,)


def test_go_perft_startpos_depth_3():
    moves, total = divide(uci_perft(["position startpos", "go perft 3"]))
    assert total == 8902, "perft 3 from the start: expected 8902, got %d" % total
    assert len(moves) == 20, "expected 20 moves in the divide, got %d" % len(moves)
    assert moves["e2e4"] == 600 and moves["g1f3"] == 440 and moves["a2a3"] == 380, \
        "known divide counts differ: %r" % (moves,)


def test_go_perft_exact_divide_format():
    out = uci_perft(["go perft 1"])
    assert len(out) == 22, "expected 20 move lines, a blank line and the total, got %r" % (out,)
    for line in out[:20]:
        move, sep, count = line.partition(": ")
        assert sep == ": " and count == "1" and len(move) == 4, "bad divide line %r" % line
    assert out[20] == "", "expected a blank line before the total, got %r" % out[20]
    assert out[21] == "Nodes searched: 20", "expected 'Nodes searched: 20', got %r" % out[21]


def test_go_perft_without_position_uses_the_start():
    _, total = divide(uci_perft(["go perft 2"]))
    assert total == 400, "a fresh session must start from the start position, perft 2 gave %d" % total


def test_go_perft_from_fen_kiwipete():
    _, total = divide(uci_perft(["position fen " + KIWIPETE, "go perft 1"]))
    assert total == 48, "kiwipete perft 1: expected 48, got %d" % total
    moves, total = divide(uci_perft(["position fen " + KIWIPETE, "go perft 2"]))
    assert total == 2039, "kiwipete perft 2: expected 2039, got %d" % total
    assert "e1g1" in moves and "e1c1" in moves, "castling moves missing from the divide: %r" % (sorted(moves),)


def test_position_fen_with_moves_then_perft():
    # The divide count of a move equals perft one ply shallower after playing it.
    parent, _ = divide(uci_perft(["position fen " + KIWIPETE, "go perft 3"]))
    for move in ("e1g1", "e5f7", "d5e6", "a2a4"):
        _, total = divide(uci_perft(["position fen %s moves %s" % (KIWIPETE, move), "go perft 2"]))
        assert total == parent[move], "after %s: perft 2 gave %d, the divide said %d" % (
            move, total, parent[move])
    out = uci(["position fen %s moves e1g1" % KIWIPETE, "d"])
    fen = field(out, "Fen")
    assert fen == "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1", \
        "castling must move king and rook and end White's rights: %r" % fen


def test_position_startpos_with_moves_then_perft():
    parent, _ = divide(uci_perft(["position startpos", "go perft 3"]))
    _, total = divide(uci_perft(["position startpos moves e2e4", "go perft 2"]))
    assert total == parent["e2e4"] == 600, "after e2e4: perft 2 gave %d, divide %d" % (total, parent["e2e4"])
    _, total = divide(uci_perft(["position startpos moves e2e4 e7e5", "go perft 1"]))
    assert total == 29, "after e2e4 e7e5 White has 29 moves, got %d" % total


def test_go_perft_is_stopped_like_a_search():
    # A perft far too deep to end: `isready` is answered while it runs, `stop` ends it at once
    # (no total: only the moves counted in full are listed), and the session goes on.
    with Session("megastar") as s:
        s.send("go perft 9")
        time.sleep(0.3)
        s.send("isready")
        assert s.lines_until("readyok", timeout=5)[-1] == "readyok"
        start = time.monotonic()
        s.send("stop")
        out = s.lines_until("info string perft", timeout=10)
        assert time.monotonic() - start < 5, "stop took %.1f s to end the perft" % (time.monotonic() - start)
        assert out[-1] == "info string perft 9 stopped: only the moves above were counted", out[-1]
        assert not any(line.startswith("Nodes searched") for line in out), "a stopped perft printed a total: %r" % out
        s.send("position startpos")
        s.send("go perft 1")
        assert s.lines_until("Nodes searched", timeout=10)[-1] == "Nodes searched: 89"


def test_go_perft_ends_on_quit_and_on_other_commands():
    # `position` (any command but isready, ponderhit and go) ends a running perft first;
    # `quit` ends it and the session.
    for ending in (b"position startpos\nd\n", b"quit\n", b"quit\nd\n"):
        start = time.monotonic()
        code, out, _ = uci_raw(b"go perft 9\n" + ending, timeout=30)
        assert code == 0 and time.monotonic() - start < 10, "%r after go perft 9: status %d, %.1f s" % (
            ending, code, time.monotonic() - start)
        assert out[0] == "info string perft 9 stopped: only the moves above were counted", (ending, out)


def test_go_perft_finishes_when_the_input_ends():
    # As Stockfish's: input that ends after `go perft N` still gets the whole count (a search,
    # by contrast, ends at once, as on `quit`).
    code, out, _ = uci_raw(b"position startpos\ngo perft 5\n", timeout=120)
    assert code == 0, "status %d: %r" % (code, out[-3:])
    moves, total = divide(out)
    assert total == 4865609 and len(moves) == 20, "perft 5 at the end of the input: %r" % out[-3:]
    assert moves["e2e4"] == 405385, moves


def test_go_while_a_search_runs_is_refused():
    # One error line each; the running search (or perft) goes on unchanged, and answers once
    # when stopped.
    refusal = "info string error: go: a search is running (stop ends it)"
    with Session() as s:
        s.send("position fen " + KIWIPETE)
        s.send("go infinite")
        s.send("go depth 1")
        s.send("go perft 1")
        s.send("isready")
        lines = s.lines_until("readyok", timeout=10)
        assert errors(lines) == [refusal, refusal], lines
        assert not any(l.startswith(("bestmove", "Nodes searched")) for l in lines), lines
        s.send("stop")
        lines = s.lines_until("bestmove", timeout=10)
        s.send("isready")
        lines += s.lines_until("readyok", timeout=10)
        assert len([l for l in lines if l.startswith("bestmove")]) == 1 and errors(lines) == [], lines
        # Nothing changed: the same position, and a new `go` is taken once the search is over.
        s.send("go perft 1")
        assert s.lines_until("Nodes searched", timeout=10)[-1] == "Nodes searched: 48"
    with Session("megastar") as s:
        s.send("go perft 9")
        s.send("go depth 1")
        s.send("isready")
        lines = s.lines_until("readyok", timeout=10)
        assert errors(lines) == [refusal] and not any(l.startswith("bestmove") for l in lines), lines
        s.send("stop")
        assert s.lines_until("info string perft", timeout=10)[-1].startswith("info string perft 9 stopped")


def test_go_after_the_answer_needs_no_stop():
    # Once bestmove (or a perft's total) is out, the next `go` starts at once, even sent the
    # moment that line arrives.
    with Session() as s:
        for go in ("go depth 1", "go depth 2", "go perft 2", "go depth 1", "go perft 1", "go perft 1"):
            s.send(go)
            lines = s.lines_until("Nodes searched" if "perft" in go else "bestmove", timeout=10)
            assert errors(lines) == [], (go, lines)


def test_position_fen_without_counters_and_empty_move_list():
    out = uci(["position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - moves", "d"])
    assert errors(out) == [], "EPD-style text without counters must be accepted: %r" % (errors(out),)
    assert field(out, "Fen") == START_FEN, "got %r" % field(out, "Fen")


def test_setoption_starvation_then_perft():
    out = uci(["setoption name UCI_Variant value starvation", "d"])
    assert errors(out) == [], "switching to starvation failed: %r" % (errors(out),)
    assert field(out, "Variant") == "starvation", "d must show the variant: %r" % field(out, "Variant")
    assert field(out, "Fen") == START_FEN, "starvation starts from the orthodox setup: %r" % field(out, "Fen")
    _, total = divide(uci_perft(["setoption name UCI_Variant value starvation", "go perft 3"]))
    assert total == 8902, "starvation perft 3 from the start: expected 8902, got %d" % total


def test_starvation_rules_differ_from_chess():
    # A king away from every pawn would be removed by its own move: in starvation it cannot
    # move at all.  The knight may move, and dies doing so.
    fen = "4k3/8/8/8/8/8/8/N3K3 w - - 0 1"
    chess_moves, chess_total = divide(uci_perft(["position fen " + fen, "go perft 1"]))
    starv_moves, starv_total = divide(uci_perft(["setoption name UCI_Variant value starvation",
                                           "position fen " + fen, "go perft 1"]))
    assert chess_total == 7, "chess: K 5 moves + N 2 moves, got %d %r" % (chess_total, chess_moves)
    assert starv_total == 2 and set(starv_moves) == {"a1b3", "a1c2"}, \
        "starvation: only the knight moves, got %d %r" % (starv_total, starv_moves)
    out = uci(["setoption name UCI_Variant value starvation", "position fen %s moves a1b3" % fen, "d"])
    variant, after, status = board_state(out)
    assert variant == "starvation", "variant %r" % variant
    assert after == "4k3/8/8/8/8/8/8/4K3 b - - 1 1", "the knight must be removed: %r" % after
    assert status == "1-0 starvation-stalemate", "a starved stalemate loses: %r" % status
    out = uci(["position fen %s moves a1b3" % fen, "d"])
    assert field(out, "Fen") == "4k3/8/8/8/8/1N6/8/4K3 b - - 1 1", "in chess the knight stays: %r" % field(out, "Fen")


def test_ucinewgame_resets_position_keeps_variant():
    out = uci(["setoption name UCI_Variant value starvation", "position startpos moves e2e4", "ucinewgame", "d"])
    variant, fen, status = board_state(out)
    assert errors(out) == [], "errors: %r" % (errors(out),)
    assert variant == "starvation", "ucinewgame must keep the variant: %r" % variant
    assert fen == START_FEN and status == "ongoing", "ucinewgame must reset the game: %r %r" % (fen, status)


def test_setoption_back_to_chess():
    out = uci(["setoption name UCI_Variant value starvation", "setoption name UCI_Variant value chess", "d"])
    assert field(out, "Variant") == "chess", "variant %r" % field(out, "Variant")


# --- the board display ---------------------------------------------------------------------

def test_d_shows_fen_and_ongoing_status():
    out = uci(["position startpos", "d"])
    variant, fen, status = board_state(out)
    assert variant == "chess", "Variant line: %r in %r" % (variant, out)
    assert fen == START_FEN, "Fen line: %r" % fen
    assert status == "ongoing", "Status line: %r" % status
    assert field(out, "Side to move") == "white", "side to move %r" % field(out, "Side to move")
    out = uci(["position startpos moves e2e4", "d"])
    assert field(out, "Fen") == AFTER_E4_FEN, "Fen after e2e4: %r" % field(out, "Fen")
    assert field(out, "Side to move") == "black"


def test_d_shows_checkmate_after_fools_mate():
    out = uci(["position startpos moves f2f3 e7e5 g2g4 d8h4", "d"])
    assert errors(out) == [], "fool's mate moves rejected: %r" % (errors(out),)
    assert field(out, "Fen") == "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", \
        "Fen after fool's mate: %r" % field(out, "Fen")
    assert field(out, "Status") == "0-1 checkmate", "expected 'Status: 0-1 checkmate', got %r" % field(out, "Status")
    assert field(out, "In check") == "yes"
    moves, total = divide(uci_perft(["position startpos moves f2f3 e7e5 g2g4 d8h4", "go perft 1"]))
    assert total == 0 and moves == {}, "a mated side has no moves: %r" % (moves,)


def test_d_shows_white_checkmate():
    # Scholar's mate: 1-0.
    out = uci(["position startpos moves e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#", "d"])
    assert errors(out) == [], "scholar's mate moves rejected: %r" % (errors(out),)
    assert field(out, "Status") == "1-0 checkmate", "expected 'Status: 1-0 checkmate', got %r" % field(out, "Status")


def test_d_shows_stalemate():
    out = uci(["position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "d"])
    assert field(out, "Status") == "1/2-1/2 stalemate", "got %r" % field(out, "Status")


# --- move notation -------------------------------------------------------------------------

def test_promotion_moves_accepted():
    fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
    moves, _ = divide(uci_perft(["position fen " + fen, "go perft 1"]))
    for m in ("a7a8q", "a7a8r", "a7a8b", "a7a8n"):
        assert m in moves, "promotion %s missing from the divide %r" % (m, sorted(moves))
    for text, piece in (("a7a8q", "Q"), ("a7a8n", "N"), ("a7a8Q", "Q"), ("a8=R", "R")):
        out = uci(["position fen %s moves %s" % (fen, text), "d"])
        assert errors(out) == [], "promotion %r rejected: %r" % (text, errors(out))
        assert field(out, "Fen") == "%s3k3/8/8/8/8/8/8/4K3 b - - 0 1" % piece, \
            "after %s: %r" % (text, field(out, "Fen"))
    out = uci(["position startpos moves e2e4 d7d5 e4d5 e7e6 d5e6 f8b4 e6f7 e8e7 f7g8q", "d"])
    assert errors(out) == [], "e7e8q-style promotion with capture rejected: %r" % (errors(out),)
    assert field(out, "Fen").startswith("rnbq2Qr/ppp1k1pp/"), "got %r" % field(out, "Fen")


def test_san_moves_accepted():
    out = uci(["position startpos moves e4 e5 Nf3", "d"])
    assert errors(out) == [], "SAN moves rejected: %r" % (errors(out),)
    assert field(out, "Fen") == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", \
        "Fen after e4 e5 Nf3: %r" % field(out, "Fen")
    out = uci(["position startpos moves e4 d5 exd5 Qxd5 Nc3 Qa5 Nf3 Nf6 Be2 Bg4 O-O", "d"])
    assert errors(out) == [], "SAN captures/castling rejected: %r" % (errors(out),)
    assert field(out, "Fen") == "rn2kb1r/ppp1pppp/5n2/q7/6b1/2N2N2/PPPPBPPP/R1BQ1RK1 b kq - 7 6", \
        "got %r" % field(out, "Fen")


def test_mixed_coordinate_and_san_moves():
    a = field(uci(["position startpos moves e2e4 e7e5 g1f3 b8c6", "d"]), "Fen")
    b = field(uci(["position startpos moves e4 e7e5 Nf3 b8c6", "d"]), "Fen")
    assert a == b, "coordinate and SAN moves must give the same position: %r vs %r" % (a, b)



def test_polgar_notation_moves_accepted():
    """The Starchess documents' notation: placements cell first with a figurine ("17 ♗", two
    tokens), figurine moves, pawn moves by their destination; the same as coordinates."""
    polgar = ("position startpos moves 17 ♗ 21 ♗ 22 ♘ 27 ♘ 4 ♔ 10 ♖ 28 ♕ 16 ♕ 11 ♖ 34 ♔ 14 14 ♖14")
    coords = ("position startpos moves B@17 B@21 N@22 N@27 K@4 R@10 Q@28 Q@16 R@11 K@34 12-14 20-14 11-14")
    a = uci(["setoption name UCI_Variant value starchess", polgar, "d"])
    b = uci(["setoption name UCI_Variant value starchess", coords, "d"])
    assert errors(a) == [], "Polgár notation rejected: %r" % (errors(a),)
    assert field(a, "Fen") == field(b, "Fen"), "%r vs %r" % (field(a, "Fen"), field(b, "Fen"))
    out = uci(["setoption name UCI_Variant value starchess", "position startpos moves 17 ♗ 17 ♘", "d"])
    assert errors(out) == ["info string error: illegal move '17♘': Black places pieces only on its own back rank, "
                           "not on 17"], "got %r" % (errors(out),)

# --- bad input: one error line, the session unchanged -------------------------------------

SETUP = "position startpos moves e2e4"


def assert_one_error_and_intact(bad, expect=None, setup=(SETUP,), variant="chess", fen=AFTER_E4_FEN):
    """Sends `bad` after `setup`; checks one error line, then that the session still works."""
    before = uci(list(setup) + ["d"])
    assert field(before, "Fen") == fen and field(before, "Variant") == variant, \
        "setup gave %r / %r" % (field(before, "Variant"), field(before, "Fen"))
    bad_lines = bad if isinstance(bad, list) else [bad]
    out = uci_perft(list(setup) + bad_lines + ["isready", "d", "go perft 1"])
    out = out[len(uci(list(setup))):]  # what the setup itself printed
    errs = errors(out)
    assert len(errs) == 1, "%r: expected exactly one error line, got %r" % (bad_lines[0][:80], errs)
    if expect:
        assert expect in errs[0], "%r: expected %r in %r" % (bad_lines[0][:80], expect, errs[0])
    assert out[0] == errs[0], "%r: the error must be the only answer to the bad line: %r" % (
        bad_lines[0][:80], out[:3])
    assert out[1] == "readyok", "%r: the next command must still answer: %r" % (bad_lines[0][:80], out[:3])
    assert field(out, "Fen") == fen, "%r changed the position: %r" % (bad_lines[0][:80], field(out, "Fen"))
    assert field(out, "Variant") == variant, "%r changed the variant: %r" % (bad_lines[0][:80], field(out, "Variant"))
    start = out.index("Status: " + field(out, "Status"))
    moves, total, rest = parse_divide(out[start + 1:])
    assert total == len(moves) > 0 and rest == [], "perft after %r: %r" % (bad_lines[0][:80], out[start + 1:])


def test_error_unknown_variant():
    assert_one_error_and_intact("setoption name UCI_Variant value nosuchvariant", "unknown variant 'nosuchvariant'")
    assert_one_error_and_intact("setoption name UCI_Variant value Chess960", "unknown variant")
    assert_one_error_and_intact("setoption name UCI_Variant value", "unknown variant")
    # The variant in use stays, with its position.
    assert_one_error_and_intact("setoption name UCI_Variant value nosuch", "unknown variant",
                                setup=("setoption name UCI_Variant value starvation", SETUP), variant="starvation")


def test_error_unknown_option():
    assert_one_error_and_intact("setoption name NoSuchOption value 16", "unknown option 'NoSuchOption'")
    assert_one_error_and_intact("setoption name No Such Option value 4", "unknown option 'No Such Option'")
    assert_one_error_and_intact("setoption value chess", "malformed setoption")
    assert_one_error_and_intact("setoption", "unknown option")


def test_error_malformed_fen_field_count():
    assert_one_error_and_intact("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "fields")
    assert_one_error_and_intact("position fen %s extra" % START_FEN, "fields")
    assert_one_error_and_intact("position fen", "fields")
    assert_one_error_and_intact("position fen moves e2e4", "fields")


def test_error_malformed_fen_unknown_letter():
    assert_one_error_and_intact("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
                                "unknown piece letter 'X'")
    assert_one_error_and_intact("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN? w KQkq - 0 1",
                                "unknown piece letter")


def test_error_malformed_fen_too_many_cells_in_a_row():
    assert_one_error_and_intact("position fen rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                "more than 8 cells")
    assert_one_error_and_intact("position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                "more than 8 cells")
    assert_one_error_and_intact("position fen rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                "more than 8 cells")
    # 2^32 + 8 must not wrap around to 8.
    assert_one_error_and_intact("position fen rnbqkbnr/pppppppp/4294967304/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                "more than 8 cells")
    assert_one_error_and_intact("position fen rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                "7 cells, expected 8")


def test_error_malformed_fen_row_count():
    assert_one_error_and_intact("position fen rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                "7 rows, expected 8")
    assert_one_error_and_intact("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
                                "more than 8 rows")


def test_error_fen_two_white_kings():
    assert_one_error_and_intact("position fen 4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "White has 2 kings")


def test_error_fen_no_black_king():
    assert_one_error_and_intact("position fen 8/8/8/8/8/8/8/4K3 w - - 0 1", "Black has 0 kings")


def test_error_fen_white_pawn_on_rank_1_or_8():
    assert_one_error_and_intact("position fen 4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "White pawn on a1")
    assert_one_error_and_intact("position fen P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "White pawn on a8")
    assert_one_error_and_intact("position fen 4k2p/8/8/8/8/8/8/4K3 w - - 0 1", "Black pawn on h8")


def test_error_fen_side_not_to_move_in_check():
    assert_one_error_and_intact("position fen 4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "Black, not to move, is in check")
    assert_one_error_and_intact("position fen 4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", "White, not to move, is in check")


def test_error_fen_bad_side_to_move():
    assert_one_error_and_intact("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                                "side to move")


def test_error_fen_bad_castling_rights():
    assert_one_error_and_intact("position fen 4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "castling right 'K'")
    assert_one_error_and_intact("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkX - 0 1",
                                "bad castling field character 'X'")
    assert_one_error_and_intact("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKQkq - 0 1",
                                "bad castling field character 'K'")
    assert_one_error_and_intact("position fen r3k2r/8/8/8/8/8/8/R3K1R1 w K - 0 1", "castling right 'K'")


def test_error_fen_bad_en_passant_square():
    base = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq %s 0 1"
    assert_one_error_and_intact("position fen " + base % "e9", "bad en-passant cell 'e9'")
    assert_one_error_and_intact("position fen " + base % "z3", "bad en-passant cell")
    assert_one_error_and_intact("position fen " + base % "e3", "does not follow a double step")
    assert_one_error_and_intact("position fen " + base % "e6", "does not follow a double step")
    assert_one_error_and_intact(
        "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", "does not follow a double step")
    # Only a pawn double steps: a knight on e4 cannot have passed e3.
    assert_one_error_and_intact(
        "position fen rnbqkbnr/pppp1ppp/8/8/3pN3/8/PPPP1PPP/RNBQKB1R b KQkq e3 0 1", "does not follow a double step")


def test_error_fen_bad_counters():
    base = "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - %s"
    for counters in ("x 1", "-1 1", "0 0", "0 1x", "0 -5", "1.5 1", "0 99999999999"):
        assert_one_error_and_intact(base % counters, "bad move counters")


def test_error_malformed_position_command():
    assert_one_error_and_intact("position", "malformed position")
    assert_one_error_and_intact("position nonsense", "malformed position")
    assert_one_error_and_intact("position startpos e2e4", "unexpected 'e2e4'")


def test_error_illegal_move():
    assert_one_error_and_intact("position startpos moves e2e5", "illegal move 'e2e5'")
    # A bad move late in the list must not leave the earlier moves played.
    assert_one_error_and_intact("position startpos moves d2d4 d7d5 e1e3", "illegal move 'e1e3'")
    assert_one_error_and_intact("position startpos moves Ke2", "Ke2")
    # After fool's mate nothing is legal.
    assert_one_error_and_intact("position startpos moves f2f3 e7e5 g2g4 d8h4 a2a3", "illegal move 'a2a3'")


def test_error_unparsable_move():
    assert_one_error_and_intact("position startpos moves xyz", "unknown move 'xyz'")
    assert_one_error_and_intact("position startpos moves e2e4 " + "q" * 200, "unknown move")
    assert_one_error_and_intact("position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8x", "a7a8x",
                                setup=("position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1",),
                                fen="4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    # Promotion to a king is no move either.
    assert_one_error_and_intact("position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8k", "a7a8k",
                                setup=("position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1",),
                                fen="4k3/P7/8/8/8/8/8/4K3 w - - 0 1")


def test_error_unknown_command():
    assert_one_error_and_intact("foo", "unknown command 'foo'")
    assert_one_error_and_intact("UCI", "unknown command 'UCI'")


def test_go_perft_without_depth_gives_one_error():
    for line in ("go perft",):
        out = uci([SETUP, line, "isready", "d"])
        assert len(errors(out)) == 1, "%r: expected one error line, got %r" % (line, errors(out))
        assert "readyok" in out and field(out, "Fen") == AFTER_E4_FEN, "%r broke the session: %r" % (line, out)


def test_error_line_longer_than_65535_bytes():
    assert_one_error_and_intact("x" * 70000, "longer than 65535 bytes")
    assert_one_error_and_intact("position startpos moves " + "e2e4 " * 20000, "longer than 65535 bytes")
    assert_one_error_and_intact("isready" + " " * (65536 - 7), "longer than 65535 bytes")


def test_line_of_exactly_65535_bytes_is_accepted():
    line = "isready" + " " * (65535 - 7)
    out = uci([line])
    assert out == ["readyok"], "a 65535-byte line is within the limit: %r" % ([o[:80] for o in out],)


def test_long_move_list_is_played_in_full():
    # 9000 moves, more words than fit a fixed token table of 8192: none may be dropped.
    shuffle = "g1f3 g8f6 f3g1 f6g8 "
    out = uci(["position startpos moves " + shuffle * 2250 + "e2e4", "d"])
    assert errors(out) == [], "errors: %r" % ([e[:100] for e in errors(out)],)
    assert field(out, "Fen") == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 4501", \
        "all 9001 moves must be played: %r" % field(out, "Fen")


def test_empty_lines_are_ignored():
    out = uci([SETUP, "", "   ", "\t", "\r", "isready", "d"])
    assert errors(out) == [], "empty lines must not give errors: %r" % (errors(out),)
    assert out[0] == "readyok", "empty lines must give no output at all: %r" % (out[:3],)
    assert field(out, "Fen") == AFTER_E4_FEN, "empty lines changed the position: %r" % field(out, "Fen")


def test_error_binary_garbage():
    assert_one_error_and_intact(b"\xff\xfe\x01\x02\x03garbage\x7f\x80\x9b[31m", "unknown command")
    assert_one_error_and_intact(bytes(b for b in range(1, 256) if b not in b" \t\r\n"), "unknown command")
    # The junk echoed in the error has no control bytes left in it.
    out = uci([bytes(b for b in range(1, 256) if b not in b" \t\r\n")])
    assert len(out) == 1 and not any(ord(c) < 0x20 or ord(c) == 0x7f for c in out[0]), out
    assert_one_error_and_intact(b"position fen \xff\xfe\xfd w - - 0 1", "bad position")
    assert_one_error_and_intact(b"position startpos moves \xc3\xa9\xff", "unknown move")
    assert_one_error_and_intact(b"\x00\xff\xfe", "NUL")
    assert_one_error_and_intact(b"isready\x00garbage", "NUL")
    assert_one_error_and_intact(b"\x00" + b"z" * 70000 + b" isready", "longer than 65535 bytes")


def test_crlf_line_endings():
    code, out, err = uci_raw(b"position startpos moves e2e4\r\nisready\r\nd\r\nquit\r\n")
    assert code == 0 and errors(out) == [], "CRLF input: status %d, errors %r" % (code, errors(out))
    assert field(out, "Fen") == AFTER_E4_FEN, "got %r" % field(out, "Fen")


def test_error_go_perft_bad_depth():
    for depth in ("0", "x", "-1", "65", "3x", "1.5", "99999999999999999999"):
        assert_one_error_and_intact("go perft " + depth, "bad perft depth '%s'" % depth)


def test_many_errors_in_one_session():
    bad = ["foo", "position startpos moves e2e5", "setoption name UCI_Variant value nope",
           "position fen 8/8/8/8/8/8/8/8 w - - 0 1", "go perft 0", "x" * 70000, "setoption name NoSuchOption value 1"]
    out = uci_perft([SETUP] + bad + ["d", "go perft 2"])
    assert len(errors(out)) == len(bad), "expected %d error lines, got %r" % (len(bad), errors(out))
    assert field(out, "Fen") == AFTER_E4_FEN, "the errors changed the position: %r" % field(out, "Fen")
    start = out.index("Status: ongoing")
    _, total, _ = parse_divide(out[start + 1:])
    assert total == 600, "perft 2 after e2e4 is 600, got %d" % total
