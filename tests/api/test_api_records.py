"""The web API, records: PGN export and import, import from a position, analysis, the list of
recent games.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""

import api_harness as h  # tests/api is on the path; the name differs from tests/protocol's harness


def play(s, variant, n, **options):
    """A friend game with the first legal move played n times; returns (game, tokens)."""
    created = s.create(variant, opponent="friend", **options)
    tokens = {"white": created["token"], "black": created["invite"]}
    g = created["game"]
    for _ in range(n):
        if g["status"] != "ongoing":
            break
        g = s.move(g["id"], tokens[g["side"]], g["legal"][0]["uci"])
    return g, tokens


def test_pgn_export():
    s = h.shared()
    created = s.create("chess", opponent="friend")
    gid, white, black = created["game"]["id"], created["token"], created["invite"]
    for i, m in enumerate(["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]):
        s.move(gid, white if i % 2 == 0 else black, m)
    r = s.request("GET", "/api/games/%s/pgn" % gid)
    assert r.status == 200, r
    assert r.headers.get("Content-Type", "").startswith("application/x-chess-pgn"), r.headers.get("Content-Type")
    assert '[Variant "chess"]' in r.text and '[Result "*"]' in r.text, r.text
    assert "1. e4 e5 2. Nf3 Nc6 3. Bb5 *" in r.text, r.text
    s.call("POST", "/api/games/%s/resign" % gid, {"token": black})
    text = s.request("GET", "/api/games/%s/pgn" % gid).text
    assert '[Result "1-0"]' in text and text.rstrip().endswith("1-0"), text
    # Starchess: placements numbered with Roman numerals, and a FEN tag for another start.
    g, _ = play(s, "starchess", 3)
    text = s.request("GET", "/api/games/%s/pgn" % g["id"]).text
    assert '[Variant "starchess"]' in text and "I." in text, text
    created = s.create("chess", opponent="friend", fen="4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    text = s.request("GET", "/api/games/%s/pgn" % created["game"]["id"]).text
    assert '[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]' in text, text


def test_pgn_import_round_trip():
    s = h.shared()
    for variant in h.VARIANTS:
        g, _ = play(s, variant, 6)
        pgn = s.request("GET", "/api/games/%s/pgn" % g["id"]).text
        imported = s.create(variant, opponent="friend", color="white", path="/api/import", pgn=pgn)
        i = imported["game"]
        assert i["id"] != g["id"] and i["variant"] == variant
        assert h.moves_of(i) == h.moves_of(g), (variant, h.moves_of(i), h.moves_of(g))
        assert i["fen"] == g["fen"] and i["start_fen"] == g["start_fen"], variant
        assert [m["san"] for m in i["moves"]] == [m["san"] for m in g["moves"]]
        # The imported game goes on.
        if i["status"] == "ongoing":
            token = imported["token"] if i["side"] == "white" else imported["invite"]
            after = s.move(i["id"], token, i["legal"][0]["uci"])
            assert len(after["moves"]) == len(g["moves"]) + 1
    # A PGN from elsewhere, with comments, NAGs and a variation; the variant from its tag.
    pgn = ('[Event "x"]\n[Variant "chess"]\n\n1. e4 {best by test} e5 2. Nf3 $1 (2. f4 exf4) Nc6 3. Bc4 Bc5 *\n')
    created = s.call("POST", "/api/import", {"pgn": pgn, "opponent": "engine", "color": "white", "skill": 0},
                     expect=201)
    assert [m["san"] for m in created["game"]["moves"]] == ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"]
    assert created["game"]["player_kinds"]["black"] == "engine" and created["invite"] is None
    g = s.move(created["game"]["id"], created["token"], "O-O")
    s.wait_game(g["id"], lambda x: len(x["moves"]) == 8, what="the engine's reply after an import")


def test_import_position():
    s = h.shared()
    fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"
    created = s.call("POST", "/api/import", {"variant": "chess", "fen": fen, "opponent": "friend"}, expect=201)
    g = created["game"]
    assert g["start_fen"] == fen and g["fen"] == fen and g["moves"] == []
    g = s.move(g["id"], created["token"], "Rd8#")
    assert (g["status"], g["result"], g["reason"]) == ("over", "1-0", "checkmate"), g
    assert g["check"] == "g8"
    # A finished position imports as a finished game.
    mated = "3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1"
    g = s.call("POST", "/api/import", {"variant": "chess", "fen": mated}, expect=201)["game"]
    assert (g["status"], g["reason"]) == ("over", "checkmate") and g["legal"] == []
    # Bad imports.
    s.error("POST", "/api/import", {"variant": "chess", "pgn": "1. e4 e5 2. Ke3 *"}, contains="bad PGN")
    s.error("POST", "/api/import", {"variant": "starvation", "pgn": '[Variant "chess"]\n\n1. e4 *'},
            contains="chess")
    s.error("POST", "/api/import", {"pgn": '[Variant "nonesuch"]\n\n1. e4 *'})
    s.error("POST", "/api/import", {"variant": "chess"}, contains="pgn")
    s.error("POST", "/api/import", {"variant": "chess", "fen": fen, "pgn": "1. e4 *"})
    s.error("POST", "/api/import", {"fen": fen}, contains="variant")
    s.error("POST", "/api/import", {"variant": "chess", "fen": "8/8/8 w - - 0 1"}, contains="fen")
    s.error("POST", "/api/import", {"variant": "chess", "pgn": 42})


def test_analysis():
    s = h.shared()
    a = s.call("POST", "/api/analysis", {"variant": "chess", "fen": "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
                                         "movetime_ms": 300})
    assert a["mate"] == 1 and a["score_cp"] is None and a["bestmove"] == "d1d8", a
    assert a["pv"][0] == "d1d8" and a["pv_san"][0] == "Rd8#", a
    a = s.call("POST", "/api/analysis", {"variant": "chess", "moves": ["e2e4", "e7e5", "Nf3"], "movetime_ms": 200})
    assert isinstance(a["score_cp"], int) and a["mate"] is None and a["depth"] >= 1, a
    assert a["bestmove"] == a["pv"][0] and len(a["pv"]) == len(a["pv_san"]) >= 1, a
    assert a["pv_san"][0][0] in "NBRQKabcdefghO", a  # Black's reply in SAN
    for variant in h.VARIANTS:
        a = s.call("POST", "/api/analysis", {"variant": variant, "movetime_ms": 100})
        assert a["bestmove"] and a["pv"], (variant, a)
    # A finished position: nothing to search.
    a = s.call("POST", "/api/analysis", {"variant": "chess", "fen": "3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1"})
    assert a["bestmove"] is None and a["pv"] == [] and a["score_cp"] is None, a
    # Bad requests.
    s.error("POST", "/api/analysis", {"variant": "chess", "movetime_ms": 20000}, contains="movetime_ms")
    s.error("POST", "/api/analysis", {"variant": "chess", "movetime_ms": "fast"})
    s.error("POST", "/api/analysis", {"variant": "chess", "moves": "e2e4"}, contains="moves")
    s.error("POST", "/api/analysis", {"variant": "chess", "moves": [1, 2]})
    s.error("POST", "/api/analysis", {"variant": "chess", "moves": ["e2e5"]}, expect=409, contains="illegal")
    s.error("POST", "/api/analysis", {"variant": "xiangqi"}, contains="variant")
    s.error("POST", "/api/analysis", {"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, contains="variant")
    s.error("POST", "/api/analysis", {"variant": "chess", "fen": "nonsense"}, contains="fen")


def test_recent_games_list():
    s = h.shared()
    made = []
    for variant in ("megastar", "starvation", "chess"):
        g, _ = play(s, variant, 2)
        made.append(g["id"])
    listed = s.call("GET", "/api/games?limit=3")
    assert [x["id"] for x in listed] == made[::-1], "newest first: %r vs %r" % ([x["id"] for x in listed], made)
    first = listed[0]
    assert set(first) == {"id", "variant", "result", "reason", "moves", "created", "createdAt", "players",
                          "player_kinds", "rated"}, first
    assert (first["variant"], first["moves"], first["result"], first["reason"]) == ("chess", 2, "*", None), first
    assert first["player_kinds"] == {"white": "human", "black": "human"}
    assert first["players"] == {"white": None, "black": None} and first["rated"] is False
    tokens = play(s, "chess", 0)[1]
    gid = s.call("GET", "/api/games?limit=1")[0]["id"]
    s.call("POST", "/api/games/%s/resign" % gid, {"token": tokens["white"]})
    top = s.call("GET", "/api/games?limit=1")[0]
    assert (top["id"], top["result"], top["reason"]) == (gid, "0-1", "resignation"), top
    assert len(s.call("GET", "/api/games")) <= 20
    for bad in ("0", "101", "x", "-3", "", "2.5"):
        s.error("GET", "/api/games?limit=" + bad, contains="limit")
