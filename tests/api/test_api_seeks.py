"""Seeks and the lobby: POST /api/board/seek as lichess has it (a real-time seek streams until it
is paired, a correspondence seek answers its id), pairing by variant, clock, rated flag, rating
range and colour, the lobby's seeks and their live stream, one-click acceptance, canceling, a
seek gone with its client; across two instances on PostgreSQL."""
import json
import time
import urllib.parse
import urllib.request

import accounts as a
import api_harness as h
import lichess as li
from test_api_events import events


class Seeking:
    """A real-time seek's request, held open (it answers once the seek is paired)."""

    def __init__(self, user, server=None, **fields):
        server = server or user.server
        data = urllib.parse.urlencode(fields).encode()
        headers = dict(user.headers(), **{"Content-Type": "application/x-www-form-urlencoded"})
        req = urllib.request.Request(server.url("/api/board/seek"), data=data, method="POST", headers=headers)
        self.resp = urllib.request.urlopen(req, timeout=20)
        assert self.resp.status == 200, self.resp.status

    def ended(self):
        """Reads until the answer ends (the seek paired); True when it did."""
        while True:
            line = self.resp.readline()
            if not line:
                return True
            assert not line.strip(), "a seek's answer has only empty lines: %r" % line

    def close(self):
        self.resp.close()


def seek(user, server=None, expect=200, **fields):
    """A seek answered at once: a correspondence seek ({"id"}), one paired at once (empty), or an
    error."""
    r = li.form(server or user.server, "POST", "/api/board/seek", fields, user.headers())
    assert r.status == expect, (fields, r)
    return r.json() if r.body else None


def lobby(s):
    return s.call("GET", "/api/lobby/seeks")


def test_real_time_seeks_pair():
    s = h.shared()
    alice, bob = a.signup(s), a.signup(s)
    stream_a, stream_b = events(alice), events(bob)
    waiting = Seeking(alice, time="3", increment="2", variant="standard", color="white")
    listed = [k for k in lobby(s) if k["username"] == alice.name]
    assert len(listed) == 1 and listed[0]["timeControl"] == {"type": "clock", "limit": 180, "increment": 2}, listed
    assert listed[0]["speed"] == "blitz" and listed[0]["color"] == "white" and listed[0]["rating"] == 1500
    assert seek(bob, time="3", increment="2") is None  # paired at once: nothing to wait for
    assert waiting.ended(), "the waiting seek's request ends once it is paired"
    start_a = stream_a.until(lambda e: e["type"] == "gameStart")["game"]
    start_b = stream_b.until(lambda e: e["type"] == "gameStart")["game"]
    assert start_a["gameId"] == start_b["gameId"] and (start_a["color"], start_b["color"]) == ("white", "black")
    g = s.game(start_a["gameId"])
    assert g["clock"]["base_ms"] == 180000 and g["clock"]["inc_ms"] == 2000 and not g["rated"], g["clock"]
    assert not [k for k in lobby(s) if k["username"] in (alice.name, bob.name)]
    for stream in (stream_a, stream_b):
        stream.close()


def test_seeks_that_do_not_pair_wait():
    s = h.shared()
    alice, bob, carol = a.signup(s), a.signup(s), a.signup(s)
    picky = Seeking(alice, time="5", increment="3", ratingRange="1800-2200")  # bob's 1500 is out of range
    rated = seek(bob, days="3", rated="true")  # another clock, rated: waits too
    other = Seeking(bob, time="5", increment="3", variant="megastar")  # another variant
    mine = {k["id"]: k for k in lobby(s) if k["username"] in (alice.name, bob.name)}
    assert len(mine) == 3 and rated["id"] in mine and mine[rated["id"]]["rated"] is True, mine
    assert [k for k in mine.values() if k["variant"]["key"] == "megastar"]
    # One click from the lobby: carol takes alice's seek (the range is the seekers' own filter).
    alice_seek = [k for k in mine.values() if k["username"] == alice.name][0]
    took = carol.call("POST", "/api/lobby/seeks/%s/accept" % alice_seek["id"], {})
    assert took["ok"] is True and picky.ended(), took
    assert s.game(took["gameId"])["clock"]["base_ms"] == 300000
    carol.error("POST", "/api/lobby/seeks/%s/accept" % alice_seek["id"], {}, expect=404)  # taken
    bob.error("POST", "/api/lobby/seeks/%s/accept" % rated["id"], {}, expect=404)  # one's own
    carol.error("DELETE", "/api/lobby/seeks/%s" % rated["id"], expect=404)  # not carol's
    assert bob.call("DELETE", "/api/lobby/seeks/%s" % rated["id"]) == {"ok": True}
    other.close()  # the client leaves: its seek goes
    deadline = time.time() + 5
    while [k for k in lobby(s) if k["username"] == bob.name]:
        assert time.time() < deadline, "a seek stayed after its client left"
        time.sleep(0.05)


def test_correspondence_seek_and_the_lobby_stream():
    s = h.shared()
    alice, bob = a.signup(s), a.signup(s)
    resp = urllib.request.urlopen(s.url("/api/lobby/stream"), timeout=15)
    assert resp.headers["Content-Type"].startswith("text/event-stream")

    def next_seeks():
        while True:
            line = resp.readline().decode()
            if line.startswith("data: "):
                return json.loads(line[6:])
    next_seeks()  # the lobby as it is
    made = seek(alice, days="5", color="black", variant="starchess")
    assert set(made) == {"id"}, made
    assert made["id"] in [k["id"] for k in next_seeks()], "the lobby's stream heard the new seek"
    stream_b = events(bob)
    assert set(seek(bob, days="5", variant="starchess")) == {"id"}  # pairs with alice's at once
    start = stream_b.until(lambda e: e["type"] == "gameStart")["game"]
    assert start["color"] == "white" and start["speed"] == "correspondence", start  # alice asked for black
    assert s.game(start["gameId"])["clock"]["days"] == 5
    gone = next_seeks()
    assert made["id"] not in [k["id"] for k in gone], gone
    stream_b.close()
    resp.close()


def test_seek_errors():
    s = h.shared()
    alice = a.signup(s)
    seek(alice, expect=400)  # neither clock nor days
    seek(alice, expect=400, time="3")  # time without increment
    seek(alice, expect=400, days="4")
    seek(alice, expect=400, time="3", increment="2", days="3")
    seek(alice, expect=400, time="3", increment="2", ratingRange="1700-1300")
    seek(alice, expect=400, time="3", increment="2", ratingRange="strong")
    seek(alice, expect=400, time="3", increment="2", variant="shogi")
    seek(alice, expect=400, time="0", increment="0")
    r = li.form(s, "POST", "/api/board/seek", {"time": "3", "increment": "2"}, {})
    assert r.status == 401, r
    alice.error("POST", "/api/lobby/seeks/nothing1/accept", {}, expect=404)


@h.postgresql_only
def test_seeks_pair_across_instances():
    s = h.shared()
    other = h.Server(db=s.db)
    try:
        alice, bob = a.signup(s), a.signup(s)
        waiting = Seeking(alice, time="10", increment="5")
        assert seek(bob.on(other), time="10", increment="5") is None
        assert waiting.ended()
    finally:
        other.cleanup()
