"""Bots, in lichess's shapes: an account that has never played becomes a bot (POST
/api/bot/account/upgrade) and then plays through the Bot API only; the bots online (GET
/api/bot/online, NDJSON); the house engine's bot accounts, which accept every challenge at
once and play rated games; an account's games that go on (GET /api/account/playing); on both
stores, and across two instances on PostgreSQL."""
import json

import accounts as a
import api_harness as h
import bots
from test_api_board import bot, stream
from test_api_challenges import challenge
from test_api_events import events

HOUSE = ["Starfish-Level-1", "Starfish-Level-2", "Starfish-Level-3", "Starfish-Level-4"]
NOW_PLAYING_KEYS = {"gameId", "fullId", "color", "fen", "hasMoved", "isMyTurn", "lastMove", "opponent", "perf",
                    "rated", "secondsLeft", "source", "speed", "variant"}


def online(s, nb=None):
    r = s.request("GET", "/api/bot/online" + ("?nb=%d" % nb if nb else ""))
    assert r.status == 200 and r.headers["Content-Type"].startswith("application/x-ndjson"), r
    return [json.loads(line) for line in r.text.splitlines() if line]


def test_upgrade_and_the_bot_api_only():
    s = h.shared()
    b, person = bots.bot_account(s), bot(a.signup(s))
    me = b.call("GET", "/api/account")
    assert me["title"] == "BOT" and me["username"] == b.name, me
    assert "title" not in person.call("GET", "/api/account")
    b.error("POST", "/api/bot/account/upgrade", {}, contains="a bot already")
    s.error("POST", "/api/bot/account/upgrade", {}, expect=401)
    made = challenge(person, b.name, variant="chess", color="white", **{"clock.limit": "300", "clock.increment": "0"})
    assert made["destUser"]["title"] == "BOT" and made["challenger"]["title"] is None, made
    assert b.call("POST", "/api/challenge/%s/accept" % made["id"], {}) == {"ok": True}
    gid = made["id"]
    person.error("POST", "/api/bot/account/upgrade", {}, contains="never played")  # has a game now
    person.error("POST", "/api/bot/game/%s/move/e2e4" % gid, {}, expect=403, contains="for bot accounts")
    assert person.call("POST", "/api/board/game/%s/move/e2e4" % gid, {}) == {"ok": True}
    b.error("POST", "/api/board/game/%s/move/e7e5" % gid, {}, expect=403, contains="Bot API")
    b.error("POST", "/api/games/%s/moves" % gid, {"move": "e7e5"}, expect=403, contains="Bot API")
    b.error("POST", "/api/board/seek", {"time": "5", "increment": "0"}, expect=403, contains="Bot API")
    assert b.call("POST", "/api/bot/game/%s/move/e7e5" % gid, {}) == {"ok": True}
    assert b.call("POST", "/api/bot/game/%s/resign" % gid, {}) == {"ok": True}


def test_bots_online():
    s = h.shared()
    listed = online(s)
    names = [u["username"] for u in listed]
    assert names[:4] == HOUSE, names  # the house bots first, always
    house = listed[0]
    assert house["title"] == "BOT" and house["house"] is True and "skill 2" in house["profile"]["bio"], house
    assert {"id", "username", "createdAt", "perfs"} <= set(house) and "chess" in house["perfs"], house
    b = bots.bot_account(s)
    assert b.name not in [u["username"] for u in online(s)]  # no stream open: not online
    st = events(b)
    mine = [u for u in online(s) if u["username"] == b.name]
    assert len(mine) == 1 and mine[0]["title"] == "BOT" and "house" not in mine[0], mine
    assert len(online(s, nb=2)) == 2
    s.error("GET", "/api/bot/online?nb=0", expect=400)
    profile = s.call("GET", "/api/user/%s" % b.name)
    assert profile["title"] == "BOT" and profile["online"] is True, profile
    st.close()


def test_house_bot_accepts_and_plays_rated():
    s = h.shared()
    alice = bot(a.signup(s))
    st = events(alice)
    before = s.call("GET", "/api/user/%s" % HOUSE[0])["perfs"]["chess"]["games"]
    made = challenge(alice, HOUSE[0], variant="chess", color="white", rated="true",
                     **{"clock.limit": "120", "clock.increment": "1"})
    assert made["status"] == "accepted" and made["destUser"]["title"] == "BOT", made
    gid = made["id"]
    start = st.until(lambda e: e["type"] == "gameStart")["game"]
    assert (start["gameId"], start["color"], start["rated"]) == (gid, "white", True), start
    assert start["opponent"]["username"] == HOUSE[0], start
    w = stream(alice, gid)
    full = w.next()
    assert full["black"]["name"] == HOUSE[0] and full["black"]["title"] == "BOT" and full["rated"], full
    assert alice.call("POST", "/api/board/game/%s/move/e2e4" % gid, {}) == {"ok": True}
    reply = w.until(lambda e: len(e["moves"].split()) == 2)  # the engine answers for the bot
    assert reply["moves"].startswith("e2e4 "), reply
    assert alice.call("POST", "/api/board/game/%s/resign" % gid, {}) == {"ok": True}
    finish = st.until(lambda e: e["type"] == "gameFinish")["game"]
    assert finish["gameId"] == gid and finish["ratingDiff"] < 0, finish
    after = s.call("GET", "/api/user/%s" % HOUSE[0])["perfs"]["chess"]
    assert after["games"] == before + 1, (before, after)
    w.close()
    st.close()


def test_account_playing():
    s = h.shared()
    alice, bob = bot(a.signup(s)), bot(a.signup(s))
    s.error("GET", "/api/account/playing", expect=401)
    assert alice.call("GET", "/api/account/playing") == {"nowPlaying": []}
    first = challenge(alice, bob.name, variant="chess", color="white", days="3")
    second = challenge(alice, bob.name, variant="starchess", color="black", **{"clock.limit": "600",
                                                                               "clock.increment": "0"})
    for made in (first, second):
        assert bob.call("POST", "/api/challenge/%s/accept" % made["id"], {}) == {"ok": True}
    playing = alice.call("GET", "/api/account/playing")["nowPlaying"]
    assert [g["gameId"] for g in playing] == [first["id"], second["id"]], playing  # her turn first
    mine, theirs = playing
    assert NOW_PLAYING_KEYS <= set(mine), mine
    assert (mine["isMyTurn"], mine["color"], mine["speed"], mine["secondsLeft"]) == (True, "white", "correspondence",
                                                                                       mine["secondsLeft"]), mine
    assert 3 * 86400 - 60 < mine["secondsLeft"] <= 3 * 86400, mine
    assert mine["opponent"]["username"] == bob.name and mine["variant"]["key"] == "standard", mine
    assert (theirs["isMyTurn"], theirs["color"], theirs["variant"]["key"]) == (False, "black", "starchess"), theirs
    assert [g["gameId"] for g in bob.call("GET", "/api/account/playing")["nowPlaying"]] == [second["id"], first["id"]]
    assert len(alice.call("GET", "/api/account/playing?nb=1")["nowPlaying"]) == 1
    alice.error("GET", "/api/account/playing?nb=x", expect=400)
    assert alice.call("POST", "/api/board/game/%s/resign" % first["id"], {}) == {"ok": True}
    assert [g["gameId"] for g in alice.call("GET", "/api/account/playing")["nowPlaying"]] == [second["id"]]


@h.postgresql_only
def test_bots_across_instances():
    s = h.shared()
    other = h.Server(db=s.db)
    try:
        b = bots.bot_account(s)
        st = events(b.on(other))  # its stream on the other instance: online on both
        assert b.name in [u["username"] for u in online(s)]
        alice = bot(a.signup(s))
        made = challenge(alice, b.name, variant="chess", color="black", **{"clock.limit": "300", "clock.increment": "0"})
        assert made["destUser"]["online"] is True, made
        heard = st.until(lambda e: e["type"] == "challenge")["challenge"]
        assert heard["id"] == made["id"]
        assert b.on(other).call("POST", "/api/challenge/%s/accept" % made["id"], {}) == {"ok": True}
        assert [g["gameId"] for g in b.on(other).call("GET", "/api/account/playing")["nowPlaying"]] == [made["id"]]
        assert [g["gameId"] for g in alice.call("GET", "/api/account/playing")["nowPlaying"]] == [made["id"]]
        st.close()
    finally:
        other.cleanup()
