"""Learning the games: piece-move diagrams (GET /api/piece-moves) and puzzles
(GET /api/puzzles/VARIANT, POST /api/puzzles/VARIANT/N).

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import os

import api_harness as h


def test_piece_moves_from_the_rules_core():
    s = h.shared()
    knight = s.call("GET", "/api/piece-moves?variant=chess&piece=N&cell=a1")
    assert sorted(t["to"] for t in knight["targets"]) == ["b3", "c2"], knight
    pawn = s.call("GET", "/api/piece-moves?variant=chess&piece=P&cell=e2")
    assert {t["to"]: (t["quiet"], t["capture"]) for t in pawn["targets"]} == {
        "e3": (True, False), "e4": (True, False), "d3": (False, True), "f3": (False, True)}, pawn
    black = s.call("GET", "/api/piece-moves?variant=chess&piece=p&cell=e7")
    assert sorted(t["to"] for t in black["targets"]) == ["d6", "e5", "e6", "f6"], black
    rook = s.call("GET", "/api/piece-moves?variant=megastar&piece=R&cell=Ui5")
    assert "Li5" in [t["to"] for t in rook["targets"]], "a Megastar rook steps to the other level in the Drum"
    s.error("GET", "/api/piece-moves?variant=nope&piece=N&cell=a1", expect=400, contains="unknown variant")
    s.error("GET", "/api/piece-moves?variant=chess&piece=X&cell=a1", expect=400, contains="has no piece 'X'")
    s.error("GET", "/api/piece-moves?variant=chess&piece=N&cell=z9", expect=400, contains="has no cell 'z9'")
    s.error("GET", "/api/piece-moves?variant=chess&piece=N", expect=400, contains="has no cell")


def test_puzzles_listed_without_solutions():
    s = h.shared()
    for variant in ("chess", "starvation", "square-says", "starchess", "megastar"):
        puzzles = s.call("GET", "/api/puzzles/" + variant)["puzzles"]
        assert len(puzzles) >= 50, (variant, len(puzzles))
        assert set(puzzles[0]) == {"number", "fen", "mate", "side", "proof", "source"}, puzzles[0]
        assert [p["number"] for p in puzzles] == list(range(1, len(puzzles) + 1))
    assert s.call("GET", "/api/puzzles/starchess-ludii")["puzzles"] == []
    s.error("GET", "/api/puzzles/nope", expect=404, contains="no such variant")


def first_puzzle(s, mate):
    return next(p for p in s.call("GET", "/api/puzzles/chess")["puzzles"] if p["mate"] == mate)


def test_puzzle_solved_and_failed():
    s = h.shared()
    p = first_puzzle(s, 1)
    start = s.call("POST", "/api/position", {"variant": "chess", "fen": p["fen"]})
    mates = [m["uci"] for m in start["legal"]
             if s.call("POST", "/api/position", {"variant": "chess", "fen": p["fen"], "moves": [m["uci"]]})["reason"]
             == "checkmate"]
    url = "/api/puzzles/chess/%d" % p["number"]
    solved = s.call("POST", url, {"moves": [mates[0]]})
    assert solved["state"] == "solved" and solved["status"] == "over" and solved["reason"] == "checkmate", solved
    assert [m["uci"] for m in solved["solution"]] and solved["why"] is None
    wrong = next(m["uci"] for m in start["legal"] if m["uci"] not in mates)
    failed = s.call("POST", url, {"moves": [wrong]})
    assert failed["state"] == "failed" and "is not checkmate" in failed["why"], failed
    two = first_puzzle(s, 2)
    going = s.call("POST", "/api/puzzles/chess/%d" % two["number"], {"moves": [keys(two["number"])[0]]})
    assert going["state"] == "going-on" and going["left"] == 1 and len(going["moves"]) == 2, going
    assert going["solution"] is None and going["legal"], "the player moves on after the defence"


def keys(number):
    """The keys of chess puzzle `number`, from its file (data/puzzles/chess.epd)."""
    with open(os.path.join(h.REPO_ROOT, "data", "puzzles", "chess.epd")) as f:
        lines = [l for l in f.read().splitlines() if l and not l.startswith("#")]
    field = next(x for x in lines[number - 1].split(";") if x.startswith("keys "))
    return field.split(" ")[1:]


def test_puzzle_bad_requests():
    s = h.shared()
    p = first_puzzle(s, 2)
    url = "/api/puzzles/chess/%d" % p["number"]
    s.error("POST", url, {"moves": []}, expect=400, contains="odd number")
    s.error("POST", url, {"moves": ["a1a1"]}, expect=409, contains="move 1")
    s.error("POST", url, {"moves": "e2e4"}, expect=400, contains="\"moves\"")
    s.error("POST", url, {"moves": ["x"] * 40}, expect=400, contains="\"moves\"")
    s.error("POST", "/api/puzzles/chess/100000", {"moves": ["e2e4"]}, expect=404, contains="no puzzle")
    s.error("POST", "/api/puzzles/chess/x", {"moves": ["e2e4"]}, expect=404, contains="no puzzle")
    s.error("GET", url, None, expect=405)
