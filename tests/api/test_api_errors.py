"""The web API, bad input: every bad request gets a 4xx with {"error": "..."} and changes
nothing stored (the database is read directly, read-only, before and after).

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""

import api_harness as h  # tests/api is on the path; the name differs from tests/protocol's harness


def snapshot(s):
    """Every stored row."""
    return (h.stored_rows(s, "SELECT * FROM games ORDER BY id"),
            h.stored_rows(s, "SELECT * FROM moves ORDER BY game_id, ply"))


class Unchanged:
    """with Unchanged(s, gid): ... checks that neither the store nor the game changed."""

    def __init__(self, s, gid=None):
        self.s, self.gid = s, gid

    def __enter__(self):
        self.before = snapshot(self.s)
        self.game = self.s.game(self.gid) if self.gid else None

    def __exit__(self, kind, value, tb):
        if kind is None:
            assert snapshot(self.s) == self.before, "a bad request changed the store"
            if self.gid:
                after = self.s.game(self.gid)
                for key in ("fen", "moves", "status", "result", "draw_offer", "side"):
                    assert after[key] == self.game[key], "a bad request changed the game's %s" % key


def test_bad_requests_to_create():
    s = h.shared()
    with Unchanged(s):
        s.error("POST", "/api/games", raw=b"{not json", contains="invalid JSON")
        s.error("POST", "/api/games", raw=b"", contains="invalid JSON")
        s.error("POST", "/api/games", raw=b'["chess"]', contains="object")
        s.error("POST", "/api/games", raw=b'{"variant": "chess"} trailing')
        s.error("POST", "/api/games", raw=b'{"variant": "chess", "variant": "chess"}')
        s.error("POST", "/api/games", raw=b'\xff\xfe{"variant": 1}')
        s.error("POST", "/api/games", {}, contains="variant")
        s.error("POST", "/api/games", {"variant": 7}, contains="variant")
        s.error("POST", "/api/games", {"variant": "shogi"}, contains="unknown variant")
        s.error("POST", "/api/games", {"variant": "chess", "opponent": "computer"}, contains="opponent")
        s.error("POST", "/api/games", {"variant": "chess", "opponent": 1}, contains="opponent")
        s.error("POST", "/api/games", {"variant": "chess", "color": "red"}, contains="color")
        s.error("POST", "/api/games", {"variant": "chess", "skill": 21}, contains="skill")
        s.error("POST", "/api/games", {"variant": "chess", "skill": -1}, contains="skill")
        s.error("POST", "/api/games", {"variant": "chess", "skill": "10"}, contains="skill")
        s.error("POST", "/api/games", {"variant": "chess", "skill": 2.5}, contains="skill")
        s.error("POST", "/api/games", {"variant": "chess", "fen": 5}, contains="fen")
        s.error("POST", "/api/games", {"variant": "chess", "fen": "rnbqkbnr/pppppppp w"}, contains="fen")
        s.error("POST", "/api/games", {"variant": "starchess", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, contains="fen")
        s.error("POST", "/api/games", {"variant": "chess", "clock": 300}, contains="clock")
        s.error("POST", "/api/games", {"variant": "chess", "clock": {}}, contains="base_ms")
        s.error("POST", "/api/games", {"variant": "chess", "clock": {"base_ms": 0}}, contains="base_ms")
        s.error("POST", "/api/games", {"variant": "chess", "clock": {"base_ms": "5m"}}, contains="base_ms")
        s.error("POST", "/api/games", {"variant": "chess", "clock": {"base_ms": 1000, "inc_ms": -1}},
                contains="inc_ms")
        s.error("POST", "/api/import", raw=b"nope", contains="invalid JSON")
        s.error("POST", "/api/analysis", raw=b"{", contains="invalid JSON")


def test_bad_requests_to_a_game():
    s = h.shared()
    created = s.create("chess", opponent="friend")
    gid, white, black = created["game"]["id"], created["token"], created["invite"]
    s.move(gid, white, "e2e4")
    moves = "/api/games/%s/moves" % gid
    with Unchanged(s, gid):
        # Bodies and fields.
        s.error("POST", moves, raw=b"e7e5", contains="invalid JSON")
        s.error("POST", moves, raw=b"[]", contains="object")
        s.error("POST", moves, {"token": black}, contains="move")
        s.error("POST", moves, {"move": 57, "token": black}, contains="move")
        s.error("POST", moves, {"move": "e7e5", "token": 12})
        s.error("POST", "/api/games/%s/draw" % gid, {"token": black}, contains="action")
        s.error("POST", "/api/games/%s/draw" % gid, {"token": black, "action": "propose"}, contains="action")
        # Tokens.
        s.error("POST", moves, {"move": "e7e5"}, expect=403, contains="token")
        s.error("POST", moves, {"move": "e7e5", "token": ""}, expect=403)
        s.error("POST", moves, {"move": "e7e5", "token": "x" * 32}, expect=403, contains="token")
        s.error("POST", moves, {"move": "e7e5", "token": white[:-1]}, expect=403)
        s.error("POST", "/api/games/%s/resign" % gid, {"token": "guess"}, expect=403)
        s.error("POST", "/api/games/%s/resign" % gid, {}, expect=403)
        s.error("POST", "/api/games/%s/draw" % gid, {"action": "offer", "token": "guess"}, expect=403)
        s.error("GET", "/api/games/%s?token=guess" % gid, expect=403)
        # Moves: illegal, unknown, out of turn.
        s.error("POST", moves, {"move": "e7e4", "token": black}, expect=409, contains="illegal")
        s.error("POST", moves, {"move": "Ke7", "token": black}, expect=409)
        s.error("POST", moves, {"move": "zz", "token": black}, expect=409)
        s.error("POST", moves, {"move": "e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8", "token": black}, expect=409)
        s.error("POST", moves, {"move": "d2d4", "token": white}, expect=409, contains="turn")
        s.error("POST", moves, {"move": "", "token": black}, expect=409)
        s.error("POST", "/api/games/%s/draw" % gid, {"action": "accept", "token": black}, expect=409)
        # Unknown games.
        for path in ("/api/games/NoSuchGm", "/api/games/NoSuchGm/pgn", "/api/games/NoSuchGm/events",
                     "/api/games/..%2f..%2fetc", "/api/games/" + "A" * 40):
            s.error("GET", path, expect=404)
        s.error("POST", "/api/games/NoSuchGm/moves", {"move": "e2e4", "token": white}, expect=404,
                contains="unknown game")
        s.error("POST", "/api/games/NoSuchGm/resign", {"token": white}, expect=404)
        s.error("POST", "/api/games/NoSuchGm/draw", {"token": white, "action": "offer"}, expect=404)
        # Unknown paths and wrong methods.
        s.error("GET", "/api/nothing", expect=404)
        s.error("GET", "/api/games/%s/undo" % gid, expect=404)
        s.error("GET", "/api", expect=404)
        s.error("DELETE", "/api/games/%s" % gid, expect=405)
        s.error("GET", moves, expect=405)
        s.error("PUT", "/api/games", {"variant": "chess"}, expect=405)
        s.error("POST", "/api/variants", {}, expect=405)
        s.error("GET", "/api/analysis", expect=405)
        s.error("POST", "/api/games/%s/pgn" % gid, {}, expect=405)
        s.error("POST", "/api/games/%s/events" % gid, {}, expect=405)
        r = s.request("DELETE", "/api/games/%s" % gid)
        assert "GET" in r.headers.get("Allow", ""), r.headers
        # Bodies over 64 KiB.
        big = b'{"move": "e7e5", "token": "%s", "pad": "%s"}' % (black.encode(), b"x" * (64 * 1024))
        s.error("POST", moves, raw=big, expect=413)
        s.error("POST", "/api/games", raw=b'{"variant": "chess", "pad": "' + b"y" * 200000 + b'"}', expect=413)
        s.error("POST", "/api/import", {"variant": "chess", "pgn": "1. e4 " * 20000}, expect=413)
    # Exactly 64 KiB is still accepted.
    body = b'{"move": "e7e5", "token": "%s", "pad": "' % black.encode()
    body += b"z" * (64 * 1024 - len(body) - 2) + b'"}'
    assert len(body) == 64 * 1024
    r = s.request("POST", moves, raw=body)
    assert r.status == 200 and len(r.json()["moves"]) == 2, r
    # After the end: moves, resignation, offers are conflicts, and change nothing.
    s.call("POST", "/api/games/%s/resign" % gid, {"token": white})
    with Unchanged(s, gid):
        s.error("POST", moves, {"move": "d2d4", "token": white}, expect=409, contains="over")
        s.error("POST", moves, {"move": "d2d4", "token": "wrong"}, expect=403)
        s.error("POST", "/api/games/%s/resign" % gid, {"token": black}, expect=409)
        s.error("POST", "/api/games/%s/draw" % gid, {"token": black, "action": "offer"}, expect=409)


def test_spectators_cannot_act():
    """A token of another game is no token here; spectators only read."""
    s = h.shared()
    created = s.create("chess", opponent="engine", color="white", skill=0)
    gid = created["game"]["id"]
    other = s.create("chess", opponent="friend")
    with Unchanged(s, gid):
        s.error("POST", "/api/games/%s/moves" % gid, {"move": "e2e4", "token": other["token"]}, expect=403)
        s.error("POST", "/api/games/%s/resign" % gid, {"token": other["invite"]}, expect=403)
        s.error("POST", "/api/games/%s/draw" % gid, {"token": other["token"], "action": "offer"}, expect=403)
        assert "you" not in s.game(gid)
        assert s.request("GET", "/api/games/%s/pgn" % gid).status == 200
