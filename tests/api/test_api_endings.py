"""The web API, game ends: resignation, draw offers (offer, accept, decline; the engine's
answer), clocks (increments, a time forfeit noticed by the server, the setup phase timed).

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import time

import api_harness as h  # tests/api is on the path; the name differs from tests/protocol's harness


def friend_game(s, variant="chess", **options):
    created = s.create(variant, opponent="friend", color="white", **options)
    return created["game"]["id"], created["token"], created["invite"]


def draw(s, gid, token, action, expect=200):
    return s.call("POST", "/api/games/%s/draw" % gid, {"token": token, "action": action}, expect=expect)


def test_resign():
    s = h.shared()
    gid, white, black = friend_game(s)
    s.move(gid, white, "e2e4")
    g = s.call("POST", "/api/games/%s/resign" % gid, {"token": black})
    assert (g["status"], g["result"], g["reason"]) == ("over", "1-0", "resignation"), g
    assert g["legal"] == []
    # After the end nothing more: moves, resignations and offers are conflicts.
    s.error("POST", "/api/games/%s/moves" % gid, {"move": "e7e5", "token": black}, expect=409, contains="over")
    s.error("POST", "/api/games/%s/resign" % gid, {"token": white}, expect=409)
    s.error("POST", "/api/games/%s/draw" % gid, {"token": white, "action": "offer"}, expect=409)
    assert s.game(gid)["reason"] == "resignation"
    # Resigning out of turn is allowed; White resigns here.
    gid, white, black = friend_game(s)
    g = s.call("POST", "/api/games/%s/resign" % gid, {"token": white})
    assert (g["result"], g["reason"]) == ("0-1", "resignation")
    # Against the engine.
    created = s.create("starvation", opponent="engine", color="white", skill=0)
    g = s.call("POST", "/api/games/%s/resign" % created["game"]["id"], {"token": created["token"]})
    assert g["result"] == "0-1"


def test_draw_offer_decline_accept():
    s = h.shared()
    gid, white, black = friend_game(s)
    g = draw(s, gid, white, "offer")
    assert g["draw_offer"] == "white" and g["status"] == "ongoing"
    assert draw(s, gid, white, "offer")["draw_offer"] == "white", "offering twice changes nothing"
    s.error("POST", "/api/games/%s/draw" % gid, {"token": white, "action": "accept"}, expect=409)
    s.error("POST", "/api/games/%s/draw" % gid, {"token": white, "action": "decline"}, expect=409)
    g = draw(s, gid, black, "decline")
    assert g["draw_offer"] is None and g["status"] == "ongoing"
    s.error("POST", "/api/games/%s/draw" % gid, {"token": black, "action": "accept"}, expect=409,
            contains="no draw offer")
    # An offer stands until the offerer moves ...
    draw(s, gid, white, "offer")
    g = s.move(gid, white, "e2e4")
    assert g["draw_offer"] is None, "the offerer's move withdraws the offer"
    # ... but not when the opponent moves.
    draw(s, gid, white, "offer")
    g = s.move(gid, black, "e7e5")
    assert g["draw_offer"] == "white"
    g = draw(s, gid, black, "accept")
    assert (g["status"], g["result"], g["reason"], g["draw_offer"]) == ("over", "1/2-1/2", "agreement", None), g
    # Offering back an offer made is accepting it.
    gid, white, black = friend_game(s)
    draw(s, gid, black, "offer")
    g = draw(s, gid, white, "offer")
    assert (g["result"], g["reason"]) == ("1/2-1/2", "agreement")


def test_square_says_agreement_has_a_winner():
    """square-says: an agreed draw goes to the side that captured more (ties to Black)."""
    s = h.shared()
    gid, white, black = friend_game(s, "square-says")
    draw(s, gid, white, "offer")
    g = draw(s, gid, black, "accept")
    assert (g["result"], g["reason"]) == ("0-1", "agreement"), g


def test_engine_answers_draw_offers():
    s = h.shared()
    # The engine (Black) is a queen up: it declines at once; the offer never stands.
    created = s.create("chess", opponent="engine", color="white", skill=5,
                       fen="3qk3/8/8/8/8/8/8/4K3 w - - 0 1")
    g = draw(s, created["game"]["id"], created["token"], "offer")
    assert g["status"] == "ongoing" and g["draw_offer"] is None, g
    # The engine (Black) is a queen down: it accepts.
    created = s.create("chess", opponent="engine", color="white", skill=5,
                       fen="4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
    g = draw(s, created["game"]["id"], created["token"], "offer")
    assert (g["status"], g["result"], g["reason"]) == ("over", "1/2-1/2", "agreement"), g
    # square-says: the agreement's winner decides (captures tied: Black wins).
    created = s.create("square-says", opponent="engine", color="white", skill=0)
    g = draw(s, created["game"]["id"], created["token"], "offer")
    assert (g["result"], g["reason"]) == ("0-1", "agreement"), "the engine (Black) wins the agreement: %r" % g
    created = s.create("square-says", opponent="engine", color="black", skill=0)
    gid = created["game"]["id"]
    s.wait_game(gid, lambda x: len(x["moves"]) == 1)
    g = draw(s, gid, created["token"], "offer")
    assert g["status"] == "ongoing" and g["draw_offer"] is None, "the engine (White) would lose the agreement"
    # The engine never offers, so there is nothing to accept.
    s.error("POST", "/api/games/%s/draw" % gid, {"token": created["token"], "action": "accept"}, expect=409)


def test_clock_increment_and_running():
    s = h.shared()
    gid, white, black = friend_game(s, clock={"base_ms": 60000, "inc_ms": 2000})
    g = s.game(gid)
    c = g["clock"]
    assert c["base_ms"] == 60000 and c["inc_ms"] == 2000 and c["running"] == "white", c
    assert c["black_ms"] == 60000 and 55000 < c["white_ms"] <= 60000, c
    time.sleep(0.3)
    g = s.move(gid, white, "e2e4")
    c = g["clock"]
    assert c["running"] == "black" and 60000 < c["white_ms"] <= 62000 - 250, "increment added after the move: %r" % c
    time.sleep(0.2)
    c = s.game(gid)["clock"]
    assert c["black_ms"] <= 60000 - 150, "Black's time runs: %r" % c
    g = s.call("POST", "/api/games/%s/resign" % gid, {"token": black})
    assert g["clock"]["running"] is None
    frozen = g["clock"]["black_ms"]
    time.sleep(0.2)
    assert s.game(gid)["clock"]["black_ms"] == frozen, "a finished game's clock stands still"


def test_time_forfeit():
    s = h.shared()
    gid, white, black = friend_game(s, clock={"base_ms": 400, "inc_ms": 0})
    stream = s.events(gid)
    try:
        stream.next()
        g = stream.until(lambda x: x["status"] == "over")  # the server notices by itself
    finally:
        stream.close()
    assert (g["result"], g["reason"]) == ("0-1", "timeout"), g
    assert g["clock"]["white_ms"] == 0 and g["clock"]["running"] is None, g["clock"]
    s.error("POST", "/api/games/%s/moves" % gid, {"move": "e2e4", "token": white}, expect=409)
    # Black's flag after White's quick move.
    gid, white, black = friend_game(s, clock={"base_ms": 1500, "inc_ms": 0})
    s.move(gid, white, "e2e4")
    g = s.wait_game(gid, lambda x: x["status"] == "over", timeout=10, what="Black's flag fall")
    assert (g["result"], g["reason"]) == ("1-0", "timeout"), g
    assert g["clock"]["black_ms"] == 0 and g["clock"]["white_ms"] > 0, g["clock"]
    # The setup phase of Starchess is timed too.
    gid, white, black = friend_game(s, "starchess", clock={"base_ms": 300})
    g = s.wait_game(gid, lambda x: x["status"] == "over", timeout=10, what="a flag fall in the setup phase")
    assert (g["result"], g["reason"]) == ("0-1", "timeout") and g["hand"]["white"], g


def test_engine_on_the_clock():
    """The engine's clock runs while it thinks; a tiny clock makes it move fast."""
    s = h.shared()
    created = s.create("chess", opponent="engine", color="white", skill=20, clock={"base_ms": 20000, "inc_ms": 0})
    gid = created["game"]["id"]
    s.move(gid, created["token"], "e2e4")
    g = s.wait_game(gid, lambda x: len(x["moves"]) == 2, timeout=10)
    assert g["clock"]["black_ms"] < 20000 and g["clock"]["running"] == "white", g["clock"]
    # Skill 20 thinks 1.5 s, here less: 1/20 of its time (1 s); sanitizer builds overrun a little.
    assert 20000 - g["clock"]["black_ms"] <= 2500, "the engine kept to its time: %r" % g["clock"]
