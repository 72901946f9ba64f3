"""An account's event stream, GET /api/stream/event (NDJSON, lichess's shapes): gameStart when an
account takes a side, gameFinish at the end (with the rating change), the account's games that
go on announced again on connecting, keep-alives, 401 without an account; across two instances
on PostgreSQL."""
import accounts as a
import api_harness as h
import lichess as li
from test_api_rated import FOOLS_MATE, join, move, new_game

INFO_KEYS = {"fullId", "gameId", "id", "fen", "color", "lastMove", "source", "status", "variant", "speed", "perf",
             "rated", "hasMoved", "opponent", "isMyTurn", "secondsLeft", "compat"}


def events(user, server=None):
    return li.NdjsonStream(server or user.server, "/api/stream/event", user.headers(origin=False))


def test_game_start_and_finish():
    s = h.shared()
    alice, bob = a.signup(s), a.signup(s)
    stream_a, stream_b = events(alice), events(bob)
    created = new_game(alice, rated=True)
    gid = created["game"]["id"]
    start = stream_a.next()
    assert start["type"] == "gameStart" and INFO_KEYS <= set(start["game"]), start
    game = start["game"]
    assert (game["gameId"], game["color"], game["rated"], game["isMyTurn"]) == (gid, "white", True, True), game
    assert game["variant"] == {"key": "standard", "name": "Chess", "short": "Chess"}, game["variant"]
    assert game["status"] == {"id": 20, "name": "started"} and game["opponent"]["id"] is None, game
    join(bob, created)
    start = stream_b.next()
    assert start["type"] == "gameStart" and start["game"]["color"] == "black", start
    assert start["game"]["opponent"] == {"id": alice.name.lower(), "username": alice.name, "rating": 1500}
    for i, uci in enumerate(FOOLS_MATE):
        move(alice if i % 2 == 0 else bob, gid, uci)
    for stream, color, sign in ((stream_a, "white", -1), (stream_b, "black", 1)):
        finish = stream.until(lambda e: e["type"] == "gameFinish")
        g = finish["game"]
        assert (g["gameId"], g["color"], g["status"]["name"], g["winner"]) == (gid, color, "mate", "black"), g
        assert g["ratingDiff"] * sign > 0 and g["lastMove"] == "d8h4", g
    stream_a.close()
    stream_b.close()
    s.error("GET", "/api/stream/event", expect=401)


def test_running_games_announced_on_connecting():
    s = h.shared()
    alice, bob = a.signup(s), a.signup(s)
    first, second = new_game(alice), new_game(bob)
    join(alice, second)
    move(alice, first["game"]["id"], "e2e4")
    stream = events(alice)
    announced = {stream.next()["game"]["gameId"] for _ in range(2)}
    assert announced == {first["game"]["id"], second["game"]["id"]}, announced
    assert stream.nothing_for(0.5)
    stream.close()
    bearer = alice.call("POST", "/api/account/tokens", {"description": "bot"}, expect=201)["token"]
    stream = events(a.User(s, alice.name, None, bearer=bearer))  # a token opens it too
    assert {stream.next()["game"]["gameId"] for _ in range(2)} == announced
    stream.close()


def test_keep_alive_lines():
    s = h.shared()
    stream = events(a.signup(s))
    assert stream.nothing_for(8) and stream.keepalives >= 1, "no keep-alive within 8 s"
    stream.close()


@h.postgresql_only
def test_events_cross_instances():
    s = h.shared()
    other = h.Server(db=s.db)
    try:
        alice, bob = a.signup(s), a.signup(s)
        stream = events(bob, other)  # bob listens on the other instance
        created = new_game(alice)  # made on the first
        join(bob, created)
        start = stream.next()
        assert start["type"] == "gameStart" and start["game"]["gameId"] == created["game"]["id"], start
        alice.call("POST", "/api/games/%s/resign" % created["game"]["id"], {})
        finish = stream.until(lambda e: e["type"] == "gameFinish")
        assert finish["game"]["winner"] == "black", finish
        stream.close()
    finally:
        other.cleanup()
