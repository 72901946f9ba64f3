"""The Board and Bot APIs, in lichess's shapes: a game's stream for its players (gameFull, then a
gameState after every change, ending with the game) and the actions of an account's side
(move, resign, abort, draw and takeback yes/no), each answered {"ok": true}, under /api/board/
and /api/bot/; placements written K@17 in the path."""
import accounts as a
import api_harness as h
import lichess as li
from test_api_challenges import challenge

FULL_KEYS = {"type", "id", "variant", "clock", "speed", "perf", "rated", "createdAt", "white", "black", "initialFen",
             "state"}
STATE_KEYS = {"type", "moves", "wtime", "btime", "winc", "binc", "status"}


def bot(user):
    """The user acting by a personal token, as a bot or board client does."""
    token = user.call("POST", "/api/account/tokens", {"description": "board"}, expect=201)["token"]
    return a.User(user.server, user.name, None, bearer=token)


def stream(user, gid, api="board"):
    return li.NdjsonStream(user.server, "/api/%s/game/stream/%s" % (api, gid), user.headers(origin=False))


def game_between(s, variant="chess", black_bot=False, **fields):
    """A game by a challenge: alice (a person) white; bob black, a bot account when black_bot."""
    alice, bob = bot(a.signup(s)), bot(a.signup(s))
    if black_bot:
        assert bob.call("POST", "/api/bot/account/upgrade", {}) == {"ok": True}
    made = challenge(alice, bob.name, variant=variant, color="white", **fields)
    assert bob.call("POST", "/api/challenge/%s/accept" % made["id"], {}) == {"ok": True}
    return alice, bob, made["id"]


def test_game_stream_and_moves():
    s = h.shared()
    alice, bob, gid = game_between(s, black_bot=True, **{"clock.limit": "600", "clock.increment": "5"})
    w, b = stream(alice, gid), stream(bob, gid, "bot")
    full = w.next()
    assert FULL_KEYS <= set(full) and full["type"] == "gameFull" and full["id"] == gid, full
    assert full["initialFen"] == "startpos" and full["clock"] == {"initial": 600000, "increment": 5000}, full
    assert full["white"]["name"] == alice.name and full["black"]["name"] == bob.name, full
    assert full["white"]["title"] is None and full["black"]["title"] == "BOT", full
    assert STATE_KEYS <= set(full["state"]) and full["state"]["moves"] == "" and full["state"]["status"] == "started"
    assert b.next()["type"] == "gameFull"
    assert alice.call("POST", "/api/board/game/%s/move/e2e4" % gid, {}) == {"ok": True}
    state = w.until(lambda e: e["moves"])  # (black's arrival may come first, a state of its own)
    assert state["type"] == "gameState" and state["moves"] == "e2e4" and state["winc"] == 5000, state
    assert b.until(lambda e: e["moves"])["moves"] == "e2e4"
    bob.error("POST", "/api/bot/game/%s/move/e2e4" % gid, {}, expect=409)  # illegal for black
    alice.error("POST", "/api/board/game/%s/move/d2d4" % gid, {}, expect=409)  # not white's turn
    assert bob.call("POST", "/api/bot/game/%s/move/e7e5" % gid, {}) == {"ok": True}
    assert w.next()["moves"] == "e2e4 e7e5"
    assert alice.call("POST", "/api/board/game/%s/draw/yes" % gid, {}) == {"ok": True}
    assert w.until(lambda e: e.get("wdraw"))["wdraw"] is True
    assert bob.call("POST", "/api/bot/game/%s/draw/no" % gid, {}) == {"ok": True}
    assert "wdraw" not in w.next()
    alice.error("POST", "/api/board/game/%s/draw/maybe" % gid, {}, expect=400)
    assert bob.call("POST", "/api/bot/game/%s/resign" % gid, {}) == {"ok": True}
    last = w.until(lambda e: e["status"] != "started")
    assert (last["status"], last["winner"]) == ("resign", "white"), last
    assert w.resp.readline() == b"", "the stream ends with the game"
    w.close()
    b.close()


def test_stream_for_players_only_and_placements():
    s = h.shared()
    alice, bob, gid = game_between(s, variant="starchess", days="3")
    stranger = bot(a.signup(s))
    r = stranger.request("GET", "/api/board/game/stream/%s" % gid)
    assert r.status == 403, r
    r = s.request("GET", "/api/board/game/stream/%s" % gid)
    assert r.status == 403, r
    s.error("POST", "/api/board/game/%s/move/K@17" % gid, {}, expect=401)
    w = stream(alice, gid)
    full = w.next()
    assert full["variant"]["key"] == "starchess" and full["speed"] == "correspondence", full
    assert full["daysPerTurn"] == 3 and full["clock"] is None, full
    assert 3 * 86400000 - 60000 < full["state"]["wtime"] <= 3 * 86400000, full["state"]
    assert alice.call("POST", "/api/board/game/%s/move/K@17" % gid, {}) == {"ok": True}
    assert w.until(lambda e: e["moves"])["moves"] == "K@17"
    assert bob.call("POST", "/api/board/game/%s/abort" % gid, {}) == {"ok": True}  # black has not moved
    assert w.next()["status"] == "aborted"
    w.close()
    done = stream(alice, gid)  # a finished game's stream: gameFull, and the end
    assert done.next()["state"]["status"] == "aborted" and done.resp.readline() == b""


def test_correspondence_survives_a_killed_server():
    s = h.Server()  # its own, to kill
    try:
        alice, bob, gid = game_between(s, variant="chess", days="2")
        assert alice.call("POST", "/api/board/game/%s/move/e2e4" % gid, {}) == {"ok": True}
        s.kill9()
        s.start()
        w = stream(bob, gid)
        full = w.next()
        assert full["daysPerTurn"] == 2 and full["state"]["moves"] == "e2e4", full
        assert 2 * 86400000 - 60000 < full["state"]["btime"] <= 2 * 86400000, full["state"]
        playing = bob.call("GET", "/api/account/playing")["nowPlaying"]
        assert [(g["gameId"], g["isMyTurn"]) for g in playing] == [(gid, True)], playing
        assert bob.call("POST", "/api/board/game/%s/move/e7e5" % gid, {}) == {"ok": True}
        assert w.next()["moves"] == "e2e4 e7e5"
        w.close()
    finally:
        s.cleanup()
