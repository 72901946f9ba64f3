"""Profiles and leaderboards over the API, in lichess's shapes: GET /api/user/NAME, its rating
history, an account's games (paged; JSON or NDJSON), and GET /api/player/top/N/VARIANT."""
import datetime
import json

import accounts as a
import api_harness as h
from test_api_rated import FOOLS_MATE, join, move, new_game, play_rated


def test_profile_and_counts():
    s = h.shared()
    alice, bob = a.signup(s), a.signup(s)
    profile = s.call("GET", "/api/user/" + alice.name.upper())  # any case
    assert profile["username"] == alice.name and profile["id"] == alice.name.lower() and profile["closed"] is False
    assert profile["count"] == {"all": 0, "rated": 0, "win": 0, "loss": 0, "draw": 0} and profile["playing"] is None
    assert set(profile["perfs"]) == set(h.VARIANTS) and isinstance(profile["createdAt"], int)
    play_rated(s, alice, bob, FOOLS_MATE)  # bob wins, rated
    casual = new_game(alice)
    join(bob, casual)
    move(alice, casual["game"]["id"], "e2e4")
    alice.call("POST", "/api/games/%s/draw" % casual["game"]["id"], {"action": "offer"})
    bob.call("POST", "/api/games/%s/draw" % casual["game"]["id"], {"action": "accept"})
    going = new_game(bob)  # bob plays this one still
    aborted = new_game(alice)
    alice.call("POST", "/api/games/%s/abort" % aborted["game"]["id"], {})
    assert s.call("GET", "/api/user/" + alice.name)["count"] == {"all": 2, "rated": 1, "win": 0, "loss": 1, "draw": 1}
    b = s.call("GET", "/api/user/" + bob.name)
    assert b["count"] == {"all": 3, "rated": 1, "win": 1, "loss": 0, "draw": 1}, b["count"]
    assert b["playing"] == going["game"]["id"]
    assert b["perfs"]["chess"]["games"] == 1 and b["perfs"]["chess"]["rating"] > 1500
    for bad in ("nobody_here_x", "no", "bad%20name", "x" * 30):
        s.error("GET", "/api/user/" + bad, expect=404)


def test_rating_history_a_point_per_day():
    s = h.shared()
    alice, bob = a.signup(s), a.signup(s)
    gid, first = play_rated(s, alice, bob, FOOLS_MATE)
    history = s.call("GET", "/api/user/%s/rating-history" % bob.name)
    assert [v["name"] for v in history] == h.VARIANTS, history
    chess = [v for v in history if v["name"] == "chess"][0]["points"]
    today = datetime.datetime.now(datetime.timezone.utc)
    after_first = 1500 + first["ratingDiff"]["black"]
    assert chess == [[today.year, today.month - 1, today.day, after_first]], chess
    assert all(v["points"] == [] for v in history if v["name"] != "chess")
    # The first game moved to two days ago; two more today: a point for that day, one for today
    # (the rating after today's last game).
    a.execute(s, "UPDATE games SET ended_ms = ended_ms - 172800000 WHERE id = '%s'" % gid)
    play_rated(s, alice, bob, FOOLS_MATE)
    _, third = play_rated(s, alice, bob, FOOLS_MATE)
    chess = [v for v in s.call("GET", "/api/user/%s/rating-history" % bob.name) if v["name"] == "chess"][0]["points"]
    then = today - datetime.timedelta(days=2)
    now_rating = third["players"]["black"]["rating"] + third["ratingDiff"]["black"]
    assert chess == [[then.year, then.month - 1, then.day, after_first],
                     [today.year, today.month - 1, today.day, now_rating]], chess
    assert s.call("GET", "/api/user/%s" % bob.name)["perfs"]["chess"]["rating"] == now_rating
    s.error("GET", "/api/user/nobody_here_y/rating-history", expect=404)


def test_games_of_a_user_paged():
    s = h.shared()
    alice, bob = a.signup(s), a.signup(s)
    ids = [new_game(alice)["game"]["id"] for _ in range(3)]
    play_rated(s, bob, alice, FOOLS_MATE)
    s.create("chess")  # nobody's
    games = s.call("GET", "/api/games/user/%s?max=2" % alice.name)
    assert len(games) == 2 and games[0]["rated"] is True and games[0]["result"] == "0-1", games
    assert games[0]["players"]["black"]["name"] == alice.name and "ratingDiff" in games[0]
    assert games[1]["id"] == ids[2], games
    rest = s.call("GET", "/api/games/user/%s?max=10&until=%d" % (alice.name, games[1]["createdAt"]))
    assert [g["id"] for g in rest] == [ids[1], ids[0]], (rest, ids)
    r = s.request("GET", "/api/games/user/%s" % alice.name, headers={"Accept": "application/x-ndjson"})
    assert r.status == 200 and r.headers["Content-Type"].startswith("application/x-ndjson"), r
    lines = [json.loads(line) for line in r.text.splitlines()]
    assert len(lines) == 4 and lines[0]["players"]["black"]["name"] == alice.name, lines
    nobody = a.signup(s)
    assert s.call("GET", "/api/games/user/" + nobody.name) == []
    assert s.request("GET", "/api/games/user/" + nobody.name, headers={"Accept": "application/x-ndjson"}).body == b""
    for query in ("max=0", "max=101", "max=x", "until=-5", "until=soon"):
        s.error("GET", "/api/games/user/%s?%s" % (alice.name, query), contains=query.split("=")[0])
    s.error("GET", "/api/games/user/nobody_here_z", expect=404)


def test_leaderboard_not_provisional_best_first():
    s = h.Server()  # its own store: the board holds only this test's accounts
    try:
        players = [a.signup(s) for _ in range(4)]
        for white, black in ((0, 1), (2, 3), (1, 3)):
            play_rated(s, players[white], players[black], FOOLS_MATE)
        assert s.call("GET", "/api/player/top/10/chess") == {"users": []}  # all provisional still
        # As if many games had been played: deviations of 60, one idle for a year (provisional
        # again: 60 grows past 110), one closed.
        a.execute(s, "UPDATE perfs SET rd = 60")
        a.execute(s, "UPDATE perfs SET rated_ms = rated_ms - 31536000000 WHERE user_id = '%s'"
                  % players[0].name.lower())
        players[2].call("POST", "/api/account/close", {"password": players[2].password}, expect=204)
        top = s.call("GET", "/api/player/top/10/chess")["users"]
        names = [u["username"] for u in top]
        assert set(names) == {players[1].name, players[3].name}, names
        ratings = [u["rating"] for u in top]
        assert ratings == sorted(ratings, reverse=True) and all(u["rd"] == 60 and u["games"] >= 1 for u in top), top
        assert set(top[0]) == {"id", "username", "rating", "rd", "games"}
        assert len(s.call("GET", "/api/player/top/1/chess")["users"]) == 1
        assert s.call("GET", "/api/player/top/200/starchess") == {"users": []}
        for bad in ("0/chess", "201/chess", "x/chess"):
            s.error("GET", "/api/player/top/" + bad, contains="200")
        s.error("GET", "/api/player/top/10/shogi", expect=404)
    finally:
        s.cleanup()
