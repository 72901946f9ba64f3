"""Takebacks and rematches: POST /api/games/ID/takeback and /rematch {token, action}.

A takeback offer, accepted, takes back the offerer's last move (and the reply after it) and is
stored as the moves' removal; the engine accepts at once without a clock and refuses with one.
A rematch offer after the end, accepted (by the friend, or at once by the engine), makes a new
game with the colours swapped in which each player keeps their token.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import api_harness as h


def friend_game(s, **options):
    r = s.create("chess", opponent="friend", **options)
    return r["game"]["id"], r["token"], r["invite"]


def act(s, gid, what, token, action, expect=200):
    return s.call("POST", "/api/games/%s/%s" % (gid, what), {"token": token, "action": action}, expect=expect)


def ucis(g):
    return [m["uci"] for m in g["moves"]]


def test_takeback_between_friends_is_stored():
    server = h.Server()
    try:
        gid, white, black = friend_game(server)
        for tok, mv in ((white, "e2e4"), (black, "e7e5"), (white, "g1f3")):
            server.move(gid, tok, mv)
        events = server.events(gid)
        events.next()
        # White asks right after its move: only that move goes.
        g = act(server, gid, "takeback", white, "offer")
        assert g["takeback_offer"] == "white" and len(g["moves"]) == 3
        assert events.until(lambda x: x["takeback_offer"] == "white")
        act(server, gid, "takeback", white, "accept", expect=409)  # not one's own offer
        g = act(server, gid, "takeback", black, "accept")
        assert ucis(g) == ["e2e4", "e7e5"] and g["side"] == "white" and g["takeback_offer"] is None
        assert g["fen"] == g["moves"][-1]["fen"] and g["last"] == {"from": "e7", "to": "e5"}
        assert events.until(lambda x: len(x["moves"]) == 2)
        events.close()
        # Black asks when it is Black's move again: its move and White's reply go.
        server.move(gid, white, "d2d4")
        g = act(server, gid, "takeback", black, "offer")
        g = act(server, gid, "takeback", white, "accept")
        assert ucis(g) == ["e2e4"] and g["side"] == "black"
        # Black has no move to take back yet; declined; a move withdraws a standing offer.
        server.error("POST", "/api/games/%s/takeback" % gid, {"token": black, "action": "offer"}, expect=409,
                     contains="no move")
        server.move(gid, black, "c7c5")
        act(server, gid, "takeback", black, "offer")
        assert act(server, gid, "takeback", white, "decline")["takeback_offer"] is None
        act(server, gid, "takeback", white, "decline", expect=409)
        act(server, gid, "takeback", black, "offer")
        assert server.move(gid, white, "g1f3")["takeback_offer"] is None
        server.error("POST", "/api/games/%s/takeback" % gid, {"token": white, "action": "maybe"}, expect=400)
        server.error("POST", "/api/games/%s/takeback" % gid, {"action": "offer"}, expect=403)
        # Stored: the same game after a restart, and play goes on from it.
        before = server.game(gid)
        server.restart()
        after = server.game(gid)
        assert ucis(after) == ucis(before) == ["e2e4", "c7c5", "g1f3"] and after["fen"] == before["fen"]
        assert server.move(gid, black, "b8c6")["moves"][-1]["san"] == "Nc6"
        # Nothing to take back at the start.
        gid2, w2, _ = friend_game(server)
        server.error("POST", "/api/games/%s/takeback" % gid2, {"token": w2, "action": "offer"}, expect=409,
                     contains="no move")
    finally:
        server.cleanup()


def test_engine_takes_back_without_a_clock_only():
    s = h.shared()
    r = s.create("chess", opponent="engine", skill=0)
    gid, tok = r["game"]["id"], r["token"]
    s.move(gid, tok, "e2e4")
    g = s.wait_game(gid, lambda x: len(x["moves"]) == 2, what="the engine's reply")
    g = act(s, gid, "takeback", tok, "offer")
    assert ucis(g) == [] and g["side"] == "white", "the engine takes back its reply and our move"
    s.move(gid, tok, "d2d4")
    s.wait_game(gid, lambda x: len(x["moves"]) == 2)
    timed = s.create("chess", opponent="engine", skill=0, clock={"base_ms": 600000, "inc_ms": 0})
    tgid, ttok = timed["game"]["id"], timed["token"]
    s.move(tgid, ttok, "e2e4")
    s.error("POST", "/api/games/%s/takeback" % tgid, {"token": ttok, "action": "offer"}, expect=409,
            contains="without a clock")


def test_rematch_between_friends_swaps_colours_and_keeps_tokens():
    s = h.shared()
    gid, white, black = friend_game(s, clock={"base_ms": 120000, "inc_ms": 2000})
    s.error("POST", "/api/games/%s/rematch" % gid, {"token": white, "action": "offer"}, expect=409, contains="not over")
    s.call("POST", "/api/games/%s/resign" % gid, {"token": black})
    events = s.events(gid)
    events.next()
    g = act(s, gid, "rematch", white, "offer")
    assert g["rematch"] == {"offer": "white", "game": None}
    assert events.until(lambda x: x["rematch"]["offer"] == "white")
    act(s, gid, "rematch", white, "accept", expect=409)
    g = act(s, gid, "rematch", black, "accept")
    new = g["rematch"]["game"]
    assert new and new != gid and g["rematch"]["offer"] is None
    assert events.until(lambda x: x["rematch"]["game"] == new)
    events.close()
    assert s.game(new, white)["you"] == "black" and s.game(new, black)["you"] == "white"
    n = s.game(new)
    assert n["variant"] == "chess" and n["status"] == "ongoing" and n["moves"] == []
    assert (n["clock"]["base_ms"], n["clock"]["inc_ms"]) == (120000, 2000)
    assert n["player_kinds"] == {"white": "human", "black": "human"}
    s.move(new, black, "e2e4")  # the old Black now plays White
    assert act(s, gid, "rematch", white, "offer")["rematch"]["game"] == new, "one rematch per game"


def test_rematch_against_the_engine_starts_at_once():
    s = h.shared()
    r = s.create("chess", opponent="engine", skill=0, color="white")
    gid, tok = r["game"]["id"], r["token"]
    s.call("POST", "/api/games/%s/resign" % gid, {"token": tok})
    new = act(s, gid, "rematch", tok, "offer")["rematch"]["game"]
    assert new
    assert s.game(new, tok)["you"] == "black"
    g = s.wait_game(new, lambda x: len(x["moves"]) == 1, what="the engine's first move as White")
    assert g["player_kinds"] == {"white": "engine", "black": "human"}


def test_offers_and_arrivals_are_stored():
    """A standing takeback or rematch offer and a friend's arrival outlive the server: they are
    in the store (so that every instance on a shared store knows them), not in one process."""
    server = h.Server()
    try:
        gid, white, black = friend_game(server)
        server.move(gid, white, "e2e4")
        act(server, gid, "takeback", white, "offer")
        server.restart()
        g = server.game(gid)
        assert (g["takeback_offer"], g["joined"]) == ("white", {"white": True, "black": False}), g["joined"]
        assert server.game(gid, black)["joined"]["black"] is True  # the friend comes
        g = act(server, gid, "takeback", black, "accept")
        assert ucis(g) == [] and g["takeback_offer"] is None
        server.restart()
        g = server.game(gid)
        assert (g["takeback_offer"], g["joined"]) == (None, {"white": True, "black": True}), g["joined"]
        server.call("POST", "/api/games/%s/resign" % gid, {"token": black})
        act(server, gid, "rematch", black, "offer")
        server.restart()
        assert server.game(gid)["rematch"] == {"offer": "black", "game": None}
        new = act(server, gid, "rematch", white, "accept")["rematch"]["game"]
        server.restart()
        assert server.game(gid)["rematch"] == {"offer": None, "game": new}
        assert server.game(new, black)["you"] == "white"
    finally:
        server.cleanup()
