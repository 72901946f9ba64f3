"""GAME's `joined`: has each player read the game with their token.  The creator (and the
engine) from the start; the friend from their first read with the invite's token, which the
creator's event stream is told of (the play page then drops the invite card).

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import api_harness as h


def test_the_friend_joins_by_reading_the_game():
    s = h.shared()
    r = s.create("chess", opponent="friend", color="black")
    gid, invite = r["game"]["id"], r["invite"]
    assert r["game"]["joined"] == {"white": False, "black": True}, r["game"]["joined"]
    events = s.events(gid)
    try:
        assert events.next()[1]["joined"]["white"] is False
        assert s.game(gid)["joined"]["white"] is False  # a spectator's read is no join
        assert s.game(gid, invite)["joined"] == {"white": True, "black": True}
        assert events.until(lambda g: g["joined"]["white"])
    finally:
        events.close()
    s.error("GET", "/api/games/%s?token=%s" % (gid, "x" * 32), expect=403)
    assert s.game(gid)["joined"]["white"] is True


def test_everyone_has_joined_a_finished_game():
    # A finished game reads as joined by both, whatever the store says.
    s = h.shared()
    r = s.create("chess", opponent="friend", color="white")
    gid = r["game"]["id"]
    s.call("POST", "/api/games/%s/resign" % gid, {"token": r["token"]})
    assert s.game(gid)["joined"] == {"white": True, "black": True}


def test_the_engine_has_joined():
    s = h.shared()
    g = s.create("chess", opponent="engine", color="white", skill=0)["game"]
    assert g["joined"] == {"white": True, "black": True}, g["joined"]
