"""Challenges over the API, in lichess's shapes: to an account or open, accepted (the game has
the challenge's id, both accounts hear gameStart), declined with a reason, canceled; the
account's open challenges; the events on both sides' streams; form-encoded bodies, as
lichess's clients send them; on both stores, and across two instances on PostgreSQL."""
import accounts as a
import api_harness as h
import lichess as li
from test_api_events import events

CHALLENGE_KEYS = {"id", "url", "status", "challenger", "destUser", "variant", "rated", "speed", "timeControl", "color",
                  "perf", "direction"}


def challenge(user, dest, expect=200, **fields):
    path = "/api/challenge/%s" % (dest or "open")
    r = li.form(user.server, "POST", path, fields, user.headers())
    assert r.status == expect, (path, fields, r)
    return r.json()


def test_challenge_accepted_starts_the_game():
    s = h.shared()
    alice, bob = a.signup(s), a.signup(s)
    stream_a, stream_b = events(alice), events(bob)
    made = challenge(alice, bob.name, **{"rated": "true", "clock.limit": "300", "clock.increment": "3",
                                          "variant": "starchess", "color": "white"})
    assert CHALLENGE_KEYS <= set(made) and made["status"] == "created" and made["direction"] == "out", made
    assert made["timeControl"] == {"type": "clock", "limit": 300, "increment": 3, "show": "5+3"}, made
    assert (made["speed"], made["variant"]["key"], made["rated"]) == ("blitz", "starchess", True), made
    assert made["challenger"]["name"] == alice.name and made["destUser"]["name"] == bob.name, made
    assert stream_a.next()["challenge"]["direction"] == "out"
    heard = stream_b.next()
    assert heard["type"] == "challenge" and heard["challenge"]["id"] == made["id"], heard
    assert heard["challenge"]["direction"] == "in" and heard["challenge"]["challenger"]["online"] is True, heard
    listed = bob.call("GET", "/api/challenge")
    assert [c["id"] for c in listed["in"]] == [made["id"]] and listed["out"] == [], listed
    assert alice.call("GET", "/api/challenge")["out"][0]["id"] == made["id"]
    assert s.call("GET", "/api/challenge/%s/show" % made["id"])["status"] == "created"
    stranger = a.signup(s)
    stranger.error("POST", "/api/challenge/%s/accept" % made["id"], {}, expect=403)
    alice.error("POST", "/api/challenge/%s/accept" % made["id"], {}, expect=403)  # one's own
    assert bob.call("POST", "/api/challenge/%s/accept" % made["id"], {}) == {"ok": True}
    for stream, color in ((stream_a, "white"), (stream_b, "black")):
        start = stream.until(lambda e: e["type"] == "gameStart")
        assert (start["game"]["gameId"], start["game"]["color"]) == (made["id"], color), start
    g = s.game(made["id"])
    assert g["rated"] and g["variant"] == "starchess" and g["clock"]["base_ms"] == 300000, g
    assert g["players"]["white"]["name"] == alice.name and g["players"]["black"]["name"] == bob.name
    bob.error("POST", "/api/challenge/%s/accept" % made["id"], {}, expect=409)  # accepted already
    assert s.call("GET", "/api/challenge/%s/show" % made["id"])["status"] == "accepted"
    assert bob.call("GET", "/api/challenge") == {"in": [], "out": []}
    stream_a.close()
    stream_b.close()


def test_decline_and_cancel():
    s = h.shared()
    alice, bob = a.signup(s), a.signup(s)
    stream_a, stream_b = events(alice), events(bob)
    first = challenge(alice, bob.name, days="3")
    assert first["timeControl"] == {"type": "correspondence", "daysPerTurn": 3} and first["speed"] == "correspondence"
    bob.error("POST", "/api/challenge/%s/decline" % first["id"], {"reason": "rude"}, contains="generic")
    assert bob.call("POST", "/api/challenge/%s/decline" % first["id"], {"reason": "later"}) == {"ok": True}
    declined = stream_a.until(lambda e: e["type"] == "challengeDeclined")["challenge"]
    assert (declined["status"], declined["declineReasonKey"]) == ("declined", "later"), declined
    bob.error("POST", "/api/challenge/%s/accept" % first["id"], {}, expect=409)
    second = challenge(alice, bob.name)
    assert second["color"] == "random" and second["timeControl"] == {"type": "unlimited"}, second
    bob.error("POST", "/api/challenge/%s/cancel" % second["id"], {}, expect=403)  # not bob's to cancel
    assert alice.call("POST", "/api/challenge/%s/cancel" % second["id"], {}) == {"ok": True}
    canceled = stream_b.until(lambda e: e["type"] == "challengeCanceled")["challenge"]
    assert canceled["id"] == second["id"] and canceled["status"] == "canceled", canceled
    bob.error("POST", "/api/challenge/%s/accept" % second["id"], {}, expect=409)
    stream_a.close()
    stream_b.close()


def test_open_challenge_any_account_accepts():
    s = h.shared()
    alice, carol = a.signup(s), a.signup(s)
    made = challenge(alice, None, **{"clock.limit": "60", "clock.increment": "0", "color": "black"})
    assert made["destUser"] is None and made["speed"] == "bullet", made
    s.error("POST", "/api/challenge/%s/accept" % made["id"], {}, expect=401)
    carol.error("POST", "/api/challenge/%s/decline" % made["id"], {}, expect=403)
    assert carol.call("POST", "/api/challenge/%s/accept" % made["id"], {}) == {"ok": True}
    g = s.game(made["id"])
    assert g["players"]["black"]["name"] == alice.name and g["players"]["white"]["name"] == carol.name, g["players"]


def test_challenge_errors():
    s = h.shared()
    alice, bob = a.signup(s), a.signup(s)
    s.error("POST", "/api/challenge/%s" % bob.name, {}, expect=401)
    challenge(alice, "nobody_here_q", expect=404)
    challenge(alice, alice.name, expect=400)
    challenge(alice, bob.name, expect=400, days="4")
    challenge(alice, bob.name, expect=400, rated="true")  # no clock, no days
    challenge(alice, bob.name, expect=400, rated="true", days="3", fen="4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    challenge(alice, bob.name, expect=400, **{"clock.limit": "60"})
    challenge(alice, bob.name, expect=400, **{"clock.limit": "0", "clock.increment": "0"})
    challenge(alice, bob.name, expect=400, variant="shogi")
    challenge(alice, bob.name, expect=400, color="green")
    challenge(alice, bob.name, expect=400, fen="not a position")
    challenge(alice, bob.name, expect=400, rated="maybe")
    r = alice.request("POST", "/api/challenge/%s" % bob.name, raw=b"color=%zz",
                      headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status == 400 and "form" in r.json()["error"], r
    r = li.form(s, "POST", "/api/challenge/%s" % bob.name, {}, alice.headers())
    assert r.status == 200 and r.json()["variant"]["key"] == "standard", r  # an empty form: casual chess, untimed
    s.error("GET", "/api/challenge/nothing1/show", expect=404)
    alice.error("POST", "/api/challenge/nothing1/accept", {}, expect=404)


@h.postgresql_only
def test_challenge_across_instances():
    s = h.shared()
    other = h.Server(db=s.db)
    try:
        alice, bob = a.signup(s), a.signup(s)
        stream_b = events(bob, other)
        made = challenge(alice, bob.name, **{"clock.limit": "180", "clock.increment": "2"})
        assert stream_b.next()["challenge"]["id"] == made["id"]
        assert bob.on(other).call("POST", "/api/challenge/%s/accept" % made["id"], {}) == {"ok": True}
        assert stream_b.until(lambda e: e["type"] == "gameStart")["game"]["gameId"] == made["id"]
        assert s.game(made["id"])["clock"]["base_ms"] == 180000
        stream_b.close()
    finally:
        other.cleanup()
