"""The web API, playing: variants and boards, creating games in every variant, moves by both
players with their tokens, a friend game through the invite, spectators, engine replies (by
polling and through the event stream), Server-Sent Events.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import time

import api_harness as h  # tests/api is on the path; the name differs from tests/protocol's harness

GAME_KEYS = {"id", "variant", "start_fen", "fen", "moves", "side", "legal", "check", "last", "hand", "status",
             "result", "reason", "clock", "draw_offer", "players", "player_kinds", "rated", "engine", "created"}
LEGAL_KEYS = {"uci", "from", "to", "promotion", "place", "castle", "removed"}


def check_game_shape(g):
    assert GAME_KEYS <= set(g), "GAME lacks %r" % (GAME_KEYS - set(g))
    assert isinstance(g["id"], str) and g["id"].isalnum() and len(g["id"]) >= 6, g["id"]
    assert g["side"] in ("white", "black")
    assert g["status"] in ("ongoing", "over")
    assert g["result"] in ("1-0", "0-1", "1/2-1/2", "*")
    assert (g["status"] == "ongoing") == (g["result"] == "*") == (g["reason"] is None), (g["status"], g["reason"])
    if g["status"] == "over":
        assert g["legal"] == [], "no legal moves in a finished game"
    for m in g["legal"]:
        assert set(m) == LEGAL_KEYS, m
    for m in g["moves"]:
        assert set(m) == {"uci", "san", "fen"} and m["uci"] and m["san"] and m["fen"], m
    if g["moves"]:  # each move carries the position after it; the last one is the current one
        assert g["moves"][-1]["fen"] == g["fen"], (g["moves"][-1], g["fen"])
    assert set(g["hand"]) == {"white", "black"}
    assert set(g["players"]) == set(g["player_kinds"]) == {"white", "black"}
    assert all(p in ("human", "engine") for p in g["player_kinds"].values())
    assert all(p is None or {"name", "id", "rating", "prov", "closed"} == set(p) for p in g["players"].values())
    assert g["created"].endswith("Z") and "T" in g["created"], g["created"]
    if g["last"] is not None:
        assert g["last"]["to"], g["last"]


def test_variants_and_boards():
    s = h.shared()
    variants = s.call("GET", "/api/variants")
    names = [v["name"] for v in variants]
    assert names == h.VARIANTS, names
    by_name = {v["name"]: v for v in variants}
    for v in variants:
        assert v["description"], v["name"]
        assert v["pieces"] and all(set(p) == {"letter", "name"} and len(p["letter"]) == 1 for p in v["pieces"])
        assert isinstance(v["promotion"], list)
        board = v["board"]
        assert board["kind"] in ("square", "hexstar", "megastar") and board["levels"] in (1, 2)
        names = [c["name"] for c in board["cells"]]
        assert len(names) == len(set(names)), "cell names must be unique in %s" % v["name"]
        for c in board["cells"]:
            assert {"name", "q", "r", "level", "x", "y"} <= set(c), c
    assert len(by_name["chess"]["board"]["cells"]) == 64 and by_name["chess"]["board"]["kind"] == "square"
    assert by_name["chess"]["promotion"] == ["Q", "R", "B", "N"]
    e4 = [c for c in by_name["chess"]["board"]["cells"] if c["name"] == "e4"][0]
    assert (e4["q"], e4["r"], e4["level"], e4["x"], e4["y"]) == (4, 3, 0, 4, 4), e4
    marks = [c.get("mark") for c in by_name["square-says"]["board"]["cells"]]
    assert all(m in "RNBQKP" and m for m in marks), "every square-says cell has a mark"
    assert [c["mark"] for c in by_name["square-says"]["board"]["cells"] if c["name"] == "d1"] == ["Q"]
    assert "mark" not in by_name["chess"]["board"]["cells"][0]
    star = by_name["starchess"]["board"]
    assert star["kind"] == "hexstar" and len(star["cells"]) == 37 and star["levels"] == 1
    mega = by_name["megastar"]["board"]
    assert mega["kind"] == "megastar" and mega["levels"] == 2
    assert sum(1 for c in mega["cells"] if c.get("drum")) == 122, "the Drum: 61 cells on each level"
    assert {c["level"] for c in mega["cells"]} == {0, 1}


def test_create_and_play_every_variant():
    """A friend game in each variant: both players move, by their tokens, through the legal list."""
    s = h.shared()
    for variant in h.VARIANTS:
        created = s.create(variant, opponent="friend", color="white")
        g = created["game"]
        check_game_shape(g)
        assert created["side"] == "white" and created["invite"] and created["token"] != created["invite"]
        assert g["variant"] == variant and g["moves"] == [] and g["side"] == "white" and g["status"] == "ongoing"
        assert g["player_kinds"] == {"white": "human", "black": "human"} and g["engine"] is None and g["clock"] is None
        assert g["players"] == {"white": None, "black": None} and g["rated"] is False
        assert g.get("you") == "white"
        tokens = {"white": created["token"], "black": created["invite"]}
        played = []
        for ply in range(4):
            side = g["side"]
            move = g["legal"][ply % len(g["legal"])]
            g = s.move(g["id"], tokens[side], move["uci"])
            check_game_shape(g)
            played.append(move["uci"])
            assert h.moves_of(g) == played, (variant, h.moves_of(g), played)
            assert g["side"] == h.other(side) and g["you"] == side
            assert g["last"]["to"] == move["to"] and g["last"]["from"] == move["from"]
        # A spectator reads the same game without a token, and without "you".
        seen = s.game(g["id"])
        assert "you" not in seen and seen["fen"] == g["fen"] and h.moves_of(seen) == played
    # Starchess begins with placements: pieces in hand, moves like N@4.
    g = s.create("starchess")["game"]
    assert g["hand"] == {"white": "NBRQK", "black": "nbrqk"} or sorted(g["hand"]["white"]) == sorted("KQRBN"), g["hand"]
    assert all(m["place"] and m["from"] is None and "@" in m["uci"] for m in g["legal"])


def test_friend_game_with_invite():
    s = h.shared()
    created = s.create("chess", opponent="friend", color="black")
    gid, mine, invite = created["game"]["id"], created["token"], created["invite"]
    assert created["side"] == "black" and created["game"]["you"] == "black"
    assert s.game(gid, token=invite)["you"] == "white", "the invite is White's secret"
    assert s.game(gid, token=mine)["you"] == "black"
    s.error("POST", "/api/games/%s/moves" % gid, {"move": "e2e4", "token": mine}, expect=409, contains="turn")
    g = s.move(gid, invite, "e4")  # SAN works too
    assert h.moves_of(g) == ["e2e4"] and g["moves"][0]["san"] == "e4"
    g = s.move(gid, mine, "e7e5")
    g = s.move(gid, invite, "Nf3")
    g = s.move(gid, mine, "Nc6")
    assert [m["san"] for m in g["moves"]] == ["e4", "e5", "Nf3", "Nc6"]
    assert g["fen"] == "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", g["fen"]


def test_check_castling_promotion_in_state():
    s = h.shared()
    created = s.create("chess", fen="r3k3/1P6/8/8/8/8/8/R3K2R w KQq - 0 1")
    g = created["game"]
    promos = [m for m in g["legal"] if m["from"] == "b7"]
    assert {m["promotion"] for m in promos} == {"q", "r", "b", "n"}, promos
    castles = [m for m in g["legal"] if m["castle"]]
    assert {m["uci"] for m in castles} == {"e1g1", "e1c1"}, castles
    g = s.move(g["id"], created["token"], "b7a8q")
    assert g["check"] == "e8", g["check"]
    assert g["moves"][0]["san"] == "bxa8=Q+"


def test_engine_replies():
    """Engine games in every variant: the engine moves first when it has White, and replies."""
    s = h.shared()
    for variant in h.VARIANTS:
        created = s.create(variant, opponent="engine", color="black", skill=0)
        assert created["invite"] is None and created["side"] == "black"
        g = created["game"]
        assert g["player_kinds"] == {"white": "engine", "black": "human"} and g["engine"] == {"skill": 0}
        g = s.wait_game(g["id"], lambda x: len(x["moves"]) == 1, what="the engine's first move")
        legal = g["legal"]
        g = s.move(g["id"], created["token"], legal[0]["uci"])
        g = s.wait_game(g["id"], lambda x: len(x["moves"]) == 3 or x["status"] == "over", what="the engine's reply")
        assert g["side"] == "black" or g["status"] == "over"
    # The engine's token is nobody's: a human cannot move for it.
    created = s.create("chess", opponent="engine", color="white", skill=20)
    g = s.move(created["game"]["id"], created["token"], "d2d4")
    s.error("POST", "/api/games/%s/moves" % g["id"], {"move": "d7d5", "token": created["token"]}, expect=409)
    s.wait_game(g["id"], lambda x: len(x["moves"]) == 2, what="the engine's reply at skill 20")


def test_events_stream():
    s = h.shared()
    created = s.create("chess", opponent="friend")
    gid, white, black = created["game"]["id"], created["token"], created["invite"]
    stream = s.events(gid)
    try:
        name, first = stream.next()
        assert name == "state" and first["id"] == gid and first["moves"] == [], "the state at once on connection"
        check_game_shape(first)
        assert "you" not in first
        s.move(gid, white, "e2e4")
        g = stream.until(lambda x: len(x["moves"]) == 1)
        assert g["side"] == "black" and g["last"] == {"from": "e2", "to": "e4"}
        s.call("POST", "/api/games/%s/draw" % gid, {"token": black, "action": "offer"})
        g = stream.until(lambda x: x["draw_offer"] == "black")
        s.call("POST", "/api/games/%s/resign" % gid, {"token": black})
        g = stream.until(lambda x: x["status"] == "over")
        assert g["result"] == "1-0" and g["reason"] == "resignation" and g["draw_offer"] is None
    finally:
        stream.close()
    # An engine game: the engine's move arrives as an event.
    created = s.create("chess", opponent="engine", color="white", skill=2)
    stream = s.events(created["game"]["id"])
    try:
        stream.until(lambda x: True)
        s.move(created["game"]["id"], created["token"], "e2e4")
        g = stream.until(lambda x: len(x["moves"]) == 2)
        assert g["side"] == "white" and g["player_kinds"]["black"] == "engine"
    finally:
        stream.close()


def test_many_streams_open_and_close():
    """Streams that clients drop are cleaned up; the server keeps answering."""
    s = h.shared()
    created = s.create("chess", opponent="friend")
    gid = created["game"]["id"]
    for _ in range(3):
        streams = [s.events(gid) for _ in range(8)]
        for st in streams:
            st.next()
        for st in streams:
            st.close()
    time.sleep(0.2)
    stream = s.events(gid)
    try:
        stream.next()
        s.move(gid, created["token"], "d2d4")
        assert stream.until(lambda x: len(x["moves"]) == 1)["moves"][0]["san"] == "d4"
    finally:
        stream.close()
    assert s.call("GET", "/api/variants")


def test_concurrent_clients():
    """Many clients at once: games of their own, and two clients racing for the same move."""
    import threading
    s = h.shared()
    errors = []

    def friend_games(variant):
        try:
            created = s.create(variant, opponent="friend")
            tokens = {"white": created["token"], "black": created["invite"]}
            g = created["game"]
            for _ in range(8):
                if g["status"] != "ongoing":
                    break
                g = s.move(g["id"], tokens[g["side"]], g["legal"][-1]["uci"])
            assert len(s.game(g["id"])["moves"]) == len(g["moves"])
        except Exception as e:  # reported below
            errors.append(repr(e))

    def engine_game(variant):
        try:
            created = s.create(variant, opponent="engine", color="black", skill=0)
            s.wait_game(created["game"]["id"], lambda x: len(x["moves"]) == 1)
        except Exception as e:
            errors.append(repr(e))

    threads = [threading.Thread(target=friend_games, args=(v,)) for v in h.VARIANTS * 2]
    threads += [threading.Thread(target=engine_game, args=(v,)) for v in h.VARIANTS]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors

    # Two clients send White's first move at once, many times: exactly one wins each race.
    created = s.create("chess", opponent="friend")
    gid, token = created["game"]["id"], created["token"]
    results = []

    def race(move):
        r = s.request("POST", "/api/games/%s/moves" % gid, {"move": move, "token": token})
        results.append(r.status)

    racers = [threading.Thread(target=race, args=(m,)) for m in ("e2e4", "d2d4", "c2c4", "g1f3") * 3]
    for t in racers:
        t.start()
    for t in racers:
        t.join(30)
    assert sorted(results) == [200] + [409] * 11, results
    assert len(s.game(gid)["moves"]) == 1
