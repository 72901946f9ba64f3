"""Finished games leave memory when nobody uses them (`starfish serve --evict-after SECONDS`) and
come back from the store unchanged when asked for again; unfinished games, games with an open
event stream and games the engine is thinking about stay.  GET /api/health counts the games
in memory.

Each test runs a server of its own (the count covers every game in it); the server sweeps for
idle games every 2 s.
"""
import time

import api_harness as h  # tests/api is on the path; the name differs from tests/protocol's harness

SWEEP_S = 2  # how often the server looks for idle games


def in_memory(s):
    health = s.call("GET", "/api/health")
    assert isinstance(health.get("games_in_memory"), int), health
    return health["games_in_memory"]


def wait_in_memory(s, predicate, timeout=4 * SWEEP_S + 5, what="the count"):
    """Polls GET /api/health until predicate(count) holds; returns the count."""
    deadline = time.monotonic() + timeout
    while True:
        n = in_memory(s)
        if predicate(n):
            return n
        assert time.monotonic() < deadline, "%s: still %d games in memory after %d s" % (what, n, timeout)
        time.sleep(0.1)


def finished_game(s, **options):
    """A friend game of chess with two moves, resigned by black; returns its id."""
    created = s.create("chess", opponent="friend", **options)
    gid, white, black = created["game"]["id"], created["token"], created["invite"]
    s.move(gid, white, "e2e4")
    s.move(gid, black, "e7e5")
    s.call("POST", "/api/games/%s/resign" % gid, {"token": black})
    return gid


def snapshot(s, gid):
    """What a client sees of a game: its state (and a player's), its PGN."""
    pgn = s.request("GET", "/api/games/%s/pgn" % gid)
    assert pgn.status == 200, pgn
    return s.game(gid), pgn.text


def stop_cleanly(s):
    code = s.stop()
    assert code == 0, "exit status %d: %s" % (code, s.stderr()[-3000:])
    assert not s.sanitizer_reports(), s.sanitizer_reports()


def test_health_endpoint():
    s = h.Server(extra_args=["--evict-after", "600"])
    try:
        health = s.call("GET", "/api/health")
        assert health.pop("version") and health == {"games_in_memory": 0, "event_streams": 0, "analysis_streams": 0}
        gid = s.create("chess", opponent="friend")["game"]["id"]
        finished_game(s)
        assert in_memory(s) == 2
        streams = [s.events(gid) for _ in range(3)]
        for st in streams:
            st.next()
        assert s.call("GET", "/api/health")["event_streams"] == 3
        for st in streams:
            st.close()
        deadline = time.monotonic() + 5  # a client that hangs up is noticed at once
        while s.call("GET", "/api/health")["event_streams"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert s.call("GET", "/api/health")["event_streams"] == 0
        assert s.request("POST", "/api/health", {}).status == 405
        stop_cleanly(s)
    finally:
        s.cleanup()


def test_finished_game_is_evicted_and_reloaded_unchanged():
    s = h.Server(extra_args=["--evict-after", "0"])
    try:
        gid = finished_game(s, clock={"base_ms": 300000, "inc_ms": 2000})
        before = snapshot(s, gid)
        assert before[0]["status"] == "over" and before[0]["reason"] == "resignation", before[0]
        wait_in_memory(s, lambda n: n == 0, what="the finished game")
        after = snapshot(s, gid)
        assert after[0] == before[0], "the state changed:\n%r\n%r" % (before[0], after[0])
        assert after[1] == before[1], "the PGN changed:\n%s\n%s" % (before[1], after[1])
        assert h.moves_of(after[0]) == ["e2e4", "e7e5"]
        assert in_memory(s) == 1, "asking for the game loads it"
        wait_in_memory(s, lambda n: n == 0, what="the game loaded again")
        stop_cleanly(s)
    finally:
        s.cleanup()


def test_unfinished_game_is_not_evicted():
    s = h.Server(extra_args=["--evict-after", "0"])
    try:
        going = s.create("chess", opponent="friend")
        gid = going["game"]["id"]
        s.move(gid, going["token"], "d2d4")
        finished_game(s)
        # The sweep that takes the finished game would take the unfinished one too.
        assert wait_in_memory(s, lambda n: n < 2, what="the finished game") == 1, \
            "the unfinished game left memory with the finished one"
        time.sleep(SWEEP_S + 0.5)
        assert in_memory(s) == 1, "the unfinished game left memory"
        s.move(gid, going["invite"], "d7d5")
        assert h.moves_of(s.game(gid)) == ["d2d4", "d7d5"]
        stop_cleanly(s)
    finally:
        s.cleanup()


def test_open_event_stream_keeps_a_finished_game():
    s = h.Server(extra_args=["--evict-after", "0"])
    try:
        watched = finished_game(s)
        before = snapshot(s, watched)
        stream = s.events(watched)
        try:
            name, state = stream.next()
            assert name == "state" and state["status"] == "over", (name, state)
            finished_game(s)  # used after the watched one: a sweep that takes it would take both
            assert wait_in_memory(s, lambda n: n < 2, what="the unwatched game") == 1, \
                "the game with an open event stream left memory"
            time.sleep(SWEEP_S + 0.5)
            assert in_memory(s) == 1, "the game with an open event stream left memory"
        finally:
            stream.close()
        wait_in_memory(s, lambda n: n == 0, what="the game whose stream was closed")
        assert snapshot(s, watched) == before
        stop_cleanly(s)
    finally:
        s.cleanup()


def test_idle_time_is_waited_for():
    idle = 5
    s = h.Server(extra_args=["--evict-after", str(idle)])
    try:
        created = s.create("chess", opponent="friend")
        gid = created["game"]["id"]
        started = time.monotonic()  # before the game is last used
        s.call("POST", "/api/games/%s/resign" % gid, {"token": created["token"]})
        wait_in_memory(s, lambda n: n == 0, timeout=idle + 3 * SWEEP_S + 5, what="the idle game")
        waited = time.monotonic() - started
        assert waited >= idle, "evicted after %.1f s, before the %d s idle time" % (waited, idle)
        stop_cleanly(s)
    finally:
        s.cleanup()


def test_engine_game_is_evicted_after_its_search():
    """The engine is thinking (skill 20: up to 1.5 s) when the player resigns: its job holds the
    game and lets it go when the search ends; then the game leaves memory and reloads unchanged."""
    s = h.Server(extra_args=["--evict-after", "0"])
    try:
        created = s.create("chess", opponent="engine", color="black", skill=20)
        gid = created["game"]["id"]
        s.call("POST", "/api/games/%s/resign" % gid, {"token": created["token"]})
        before = snapshot(s, gid)
        assert before[0]["moves"] == [] and before[0]["result"] == "1-0", before[0]
        wait_in_memory(s, lambda n: n == 0, what="the engine game")
        assert snapshot(s, gid) == before
        stop_cleanly(s)
    finally:
        s.cleanup()
