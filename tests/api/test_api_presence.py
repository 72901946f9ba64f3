"""A player who leaves a game: lichess's opponentGone on the opponent's Board/Bot stream (gone,
with the seconds until a claim; back), or on a web player's event stream, and the claims it allows (claim-victory, claim-draw):
only against an opponent gone for the claim delay (serve --claim-after), in a game with a clock
that both sides have begun; the game then ends "abandoned" (lichess's status "timeout"). On
both stores, and across two instances on PostgreSQL (the leaver's stream on one, the claim
made on the other)."""
import json
import time

import accounts as a
import api_harness as h
from test_api_board import bot, game_between, stream
from test_api_endings import friend_game

CLAIM_AFTER = 4  # seconds, the server's --claim-after in these tests: a first news before the claim opens


def claim(user, gid, what="victory", expect=200):
    path = "/api/board/game/%s/claim-%s" % (gid, what)
    return user.call("POST", path, {}) if expect == 200 else user.error("POST", path, {}, expect=expect)


def gone_news(w, within=45):
    """The next opponentGone line of a Board stream, within `within` seconds (keep-alives come
    every 7 s, so a news that never comes fails the test rather than hangs it)."""
    deadline = time.time() + within
    while time.time() < deadline:
        line = w.resp.readline()
        assert line, "the stream ended"
        if line.strip() and json.loads(line).get("type") == "opponentGone":
            return json.loads(line)
    raise AssertionError("no opponentGone within %d s" % within)


def claim_open_news(w):
    """The news that the claim is open: gone, 0 s to wait (heard at once, or after a countdown,
    as the rounds of presence fall)."""
    news = gone_news(w)
    assert news["gone"] is True, news
    return news if news["claimWinInSeconds"] == 0 else gone_news(w)


def begun_game(s, **fields):
    """alice (white) and bob (black) in a 5+0 game, both having moved, their streams open."""
    alice, bob, gid = game_between(s, **dict({"clock.limit": "300", "clock.increment": "0"}, **fields))
    w, b = stream(alice, gid), stream(bob, gid)
    assert alice.call("POST", "/api/board/game/%s/move/e2e4" % gid, {}) == {"ok": True}
    assert bob.call("POST", "/api/board/game/%s/move/e7e5" % gid, {}) == {"ok": True}
    return alice, bob, gid, w, b


def test_opponent_gone_back_and_claim_victory():
    s = h.Server(extra_args=["--claim-after", str(CLAIM_AFTER)])
    try:
        alice, bob, gid, w, b = begun_game(s)
        assert "has not left" in claim(alice, gid, expect=400)
        b.close()
        started = time.time()
        gone = gone_news(w)
        assert gone["gone"] is True and 0 < gone["claimWinInSeconds"] <= CLAIM_AFTER + 5, gone
        assert time.time() - started < 10, "the opponent's leaving is heard within a few seconds"
        assert "claim in" in claim(alice, gid, expect=400)
        assert gone_news(w) == {"type": "opponentGone", "gone": True, "claimWinInSeconds": 0}
        b = stream(bob, gid)  # back
        assert gone_news(w) == {"type": "opponentGone", "gone": False}
        assert "has not left" in claim(alice, gid, expect=400)
        b.close()
        assert claim_open_news(w) == {"type": "opponentGone", "gone": True, "claimWinInSeconds": 0}
        assert claim(alice, gid) == {"ok": True}
        last = w.until(lambda e: e.get("type") == "gameState" and e["status"] != "started")
        assert (last["status"], last.get("winner")) == ("timeout", "white"), last
        game = s.game(gid)
        assert (game["result"], game["reason"]) == ("1-0", "abandoned"), game
        assert '[Termination "abandoned"]' in s.request("GET", "/api/games/%s/pgn" % gid).text
        w.close()
    finally:
        s.cleanup()


def test_claims_refused_and_claim_draw():
    s = h.Server(extra_args=["--claim-after", "0"])
    try:
        alice, bob, gid = game_between(s, days="2")  # correspondence: its days, no claims
        assert alice.call("POST", "/api/board/game/%s/move/e2e4" % gid, {}) == {"ok": True}
        assert "no clock" in claim(bob, gid, expect=400)
        alice, bob, gid = game_between(s, **{"clock.limit": "300", "clock.increment": "0"})
        assert "abort instead" in claim(alice, gid, expect=400)  # nobody has moved
        stranger = bot(a.signup(s))
        claim(stranger, gid, expect=403)
        s.error("POST", "/api/board/game/%s/claim-victory" % gid, {}, expect=401)
        alice, bob, gid, w, b = begun_game(s)
        b.close()
        assert gone_news(w)["gone"] is True
        assert claim(alice, gid, "draw") == {"ok": True}
        last = w.until(lambda e: e.get("type") == "gameState" and e["status"] != "started")
        assert last["status"] == "timeout" and "winner" not in last, last
        assert s.game(gid)["result"] == "1/2-1/2"
        assert "is over" in claim(alice, gid, expect=409)
        w.close()
    finally:
        s.cleanup()


def web_gone_news(events):
    """The next opponentGone event of a web player's stream (states and patches skipped)."""
    for _ in range(50):
        name, data, _ = events.read()
        if name == "opponentGone":
            return data
    raise AssertionError("no opponentGone event")


def test_web_players_presence_and_claim():
    s = h.Server(extra_args=["--claim-after", "0"])
    try:
        gid, white, black = friend_game(s, clock={"base_ms": 300000, "inc_ms": 0})
        w, b = s.events(gid, token=white), s.events(gid, token=black)
        s.move(gid, white, "e2e4")
        s.move(gid, black, "e7e5")
        b.close()
        assert web_gone_news(w) == {"gone": True, "claimWinInSeconds": 0}
        b = s.events(gid, token=black)
        assert web_gone_news(w) == {"gone": False}
        b.close()
        assert web_gone_news(w)["gone"] is True
        s.error("POST", "/api/games/%s/claim-victory" % gid, {"token": "nonsense"}, expect=403)
        game = s.call("POST", "/api/games/%s/claim-victory" % gid, {"token": white})
        assert (game["result"], game["reason"]) == ("1-0", "abandoned"), game
        w.close()
    finally:
        s.cleanup()


@h.postgresql_only
def test_presence_across_instances():
    s = h.Server(extra_args=["--claim-after", str(CLAIM_AFTER)])
    other = h.Server(db=s.db, extra_args=["--claim-after", str(CLAIM_AFTER)])
    try:
        alice, bob, gid = game_between(s, **{"clock.limit": "300", "clock.increment": "0"})
        w, b = stream(alice, gid), stream(bob.on(other), gid)  # bob's stream on the other instance
        assert alice.call("POST", "/api/board/game/%s/move/e2e4" % gid, {}) == {"ok": True}
        assert bob.call("POST", "/api/board/game/%s/move/e7e5" % gid, {}) == {"ok": True}
        time.sleep(8)  # longer than a presence unrenewed lasts: the other instance renews bob's
        assert "has not left" in claim(alice, gid, expect=400)
        b.close()
        first = gone_news(w)  # had bob been taken for gone meanwhile, this would be old news
        assert first["gone"] is True and first["claimWinInSeconds"] > 0, first
        assert gone_news(w) == {"type": "opponentGone", "gone": True, "claimWinInSeconds": 0}
        assert claim(alice.on(other), gid) == {"ok": True}  # made on the other instance
        last = w.until(lambda e: e.get("type") == "gameState" and e["status"] != "started")
        assert (last["status"], last.get("winner")) == ("timeout", "white"), last
        w.close()
    finally:
        other.cleanup()
        s.cleanup()
