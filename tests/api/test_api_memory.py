"""Memory running out in the server: a request that cannot get the memory it needs fails with
503 and {"error": "..."}, changes nothing, and the server lives on; when memory is back,
everything works, and what every game shows is what the store holds.

The server runs with build/faults.so preloaded (`make build/faults.so`, FAULTS=memory): after
SIGUSR1 one allocation in 400 fails (picked pseudo-randomly), after SIGUSR2 none.  The requests go over connections opened
before memory runs short (a connection's own buffers come from libmicrohttpd, at accept).
The sanitizer build brings its own allocator, so this test runs the release build only.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import http.client
import json
import time

import api_harness as h  # tests/api is on the path; the name differs from tests/protocol's harness

ROUNDS = 60
STREAMS = 8


class Client:
    """One keep-alive connection; every answer is (status, JSON body), or (None, "", b"") when
    the server closed the connection without one (libmicrohttpd itself short of memory for the
    answer): the next request connects again."""

    def __init__(self, server):
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)

    def send(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        try:
            self.conn.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
            r = self.conn.getresponse()
            payload = r.read()
        except (ConnectionError, http.client.HTTPException):
            self.conn.close()
            return None, "", b""
        return r.status, r.getheader("Content-Type", ""), payload

    def close(self):
        self.conn.close()


DROPPED = object()  # no answer: the change may or may not have been made, as after a lost answer


def checked(client, method, path, body, ok_status, tally):
    """Sends a request that must succeed or fail with 503 and a JSON error; returns the JSON,
    None (503) or DROPPED (the connection closed without an answer)."""
    status, ctype, payload = client.send(method, path, body)
    if status is None:
        tally["dropped"] += 1
        return DROPPED
    assert ctype.startswith("application/json") or (status == ok_status and path.endswith("/pgn")), \
        "%s %s: %d %r %r" % (method, path, status, ctype, payload[:200])
    if status == 503:
        error = json.loads(payload)
        assert isinstance(error.get("error"), str) and error["error"], error
        tally["503"] += 1
        # The store's answer was lost and the game could not be read again either (memory short
        # in libpq each time): the server says it does not know, as after a dropped answer.
        return DROPPED if "may or may not have been stored" in error["error"] else None
    assert status == ok_status, "%s %s: expected %d or 503, got %d: %r" % (method, path, ok_status, status, payload[:300])
    tally["ok"] += 1
    return payload if path.endswith("/pgn") else json.loads(payload)


def state(client, gid, memory):
    """The game's state as the referee sees it: read with memory back (asked again should the
    signal come late)."""
    memory.back()
    try:
        for _ in range(100):  # up to 5 s: the signal is not handled at once on a loaded machine
            status, _, payload = client.send("GET", "/api/games/" + gid)
            if status == 200:
                return json.loads(payload)
            assert status in (503, None), (status, payload)
            time.sleep(0.05)
        raise AssertionError("GET /api/games/%s never succeeded" % gid)
    finally:
        memory.short()


def play(client, memory, gid, tokens, i, tally):
    """One move in a friend game: made (200) or not at all (503)."""
    before = state(client, gid, memory)
    if before["status"] != "ongoing":
        return
    move = before["legal"][i % len(before["legal"])]["uci"]
    side = before["side"]
    after = checked(client, "POST", "/api/games/%s/moves" % gid, {"move": move, "token": tokens[side]}, 200, tally)
    if after is DROPPED:
        return
    expect = before["moves"] + ([] if after is None else after["moves"][-1:])
    assert state(client, gid, memory)["moves"] == expect, "a failed move changed the game, or a made one was lost"


def offer_or_decline(client, memory, gid, tokens, tally):
    """White offers a draw, Black declines it: each done (200) or not at all (503)."""
    before = state(client, gid, memory)
    standing = before["draw_offer"] == "white"
    action, token = ("decline", tokens["black"]) if standing else ("offer", tokens["white"])
    done = checked(client, "POST", "/api/games/%s/draw" % gid, {"token": token, "action": action}, 200, tally)
    if done is DROPPED:
        return
    assert (state(client, gid, memory)["draw_offer"] == "white") == (standing != (done is not None)), \
        "a failed draw %s changed the game, or a made one was lost" % action


# Both stores.  With PostgreSQL, memory may fail inside libpq while it reads the answer to a
# COMMIT: the server then reads the game again to learn whether the change was made, and
# answers by that (the checks below would see a 503 for a change that is stored).  One of
# libpq's allocations in 12 fails there, so that this happens in every run.
def test_out_of_memory_is_503_and_the_server_lives():
    if "asan" in h.binary():
        return  # the sanitizer's allocator cannot be replaced by the shim
    libpq = {"FAULTS_LIBPQ_PERIOD": "12"} if h.backend() == "postgresql" else {}
    s = h.Server(env=h.faults_env("memory", FAULTS_PERIOD="400", **libpq))
    try:
        games = []
        for _ in range(2):
            created = s.create("chess", opponent="friend")
            games.append((created["game"]["id"], {"white": created["token"], "black": created["invite"]}))
        engine = s.create("starchess", opponent="engine", color="white", skill=0)
        client = Client(s)
        streamers = [Client(s) for _ in range(STREAMS)]
        for c in [client] + streamers:
            c.send("GET", "/api/variants")
        tally = {"ok": 0, "503": 0, "dropped": 0}
        engine_moved = None
        stored = len(games) + 1
        memory = h.Faults(s)
        memory.short()
        for i in range(ROUNDS if h.backend() == "sqlite" else ROUNDS // 2):  # PostgreSQL's are slower
            play(client, memory, games[0][0], games[0][1], i, tally)
            offer_or_decline(client, memory, games[1][0], games[1][1], tally)
            checked(client, "GET", "/api/games/%s/pgn" % games[0][0], None, 200, tally)
            listed = checked(client, "GET", "/api/games?limit=5", None, 200, tally)
            assert listed in (None, DROPPED) or stored is None or len(listed) == min(5, stored), \
                "a list with games left out: %r" % listed
            made = checked(client, "POST", "/api/games", {"variant": "megastar", "opponent": "friend"}, 201, tally)
            if stored is not None and made:
                stored = None if made is DROPPED else stored + 1  # dropped: made or not, unknown
            analysis = checked(client, "POST", "/api/analysis", {"variant": "chess", "movetime_ms": 5}, 200, tally)
            assert analysis in (None, DROPPED) or len(analysis["pv"]) == len(analysis["pv_san"]) >= 1, analysis
            if not engine_moved:  # until made: then the engine is to move
                engine_moved = checked(client, "POST", "/api/games/%s/moves" % engine["game"]["id"],
                                       {"move": engine["game"]["legal"][0]["uci"], "token": engine["token"]}, 200,
                                       tally)
                if engine_moved is DROPPED:
                    engine_moved = state(client, engine["game"]["id"], memory)["moves"]
        for c in streamers:  # an event stream: its first state, or 503
            c.conn.request("GET", "/api/games/%s/events" % games[0][0])
            r = c.conn.getresponse()
            if r.status == 503:
                assert json.loads(r.read())["error"]
                tally["503"] += 1
            else:
                assert r.status == 200 and r.readline() == b"event: state\n", r.status
                tally["ok"] += 1
            c.close()
        memory.back()
        client.close()
        assert tally["503"] > 10 and tally["ok"] > 10, tally
        print("  %d requests answered, %d of them 503; %d connections closed without an answer" % (
            tally["ok"] + tally["503"], tally["503"], tally["dropped"]))
        # Memory is back: everything works, the engine's move that was due comes, and every game
        # in memory is as stored.
        s.wait_game(engine["game"]["id"], lambda g: g["side"] == "white" and g["moves"], what="the engine's move")
        shown = {gid: s.game(gid) for gid in [g[0] for g in games] + [engine["game"]["id"]]}
        s.restart()
        for gid, before in shown.items():
            after = s.game(gid)
            for key in ("moves", "fen", "status", "result", "draw_offer", "side"):
                assert after[key] == before[key], "%s: %s in memory %r, stored %r" % (gid, key, before[key], after[key])
        assert s.stop() == 0
    finally:
        s.cleanup()
