"""The analysis board's endpoints: POST /api/position (a position with its legal moves, the moves
that led there with SAN and position text) and GET /api/analysis/stream (a continuous MultiPV
search as Server-Sent Events: deepening `info` events, then `done`; the search stops when the
client hangs up; at most two at once).

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import json
import time
import urllib.parse
import urllib.request

import api_harness as h


def stream(server, timeout=30, **params):
    url = server.url("/api/analysis/stream?" + urllib.parse.urlencode(params))
    resp = urllib.request.urlopen(url, timeout=timeout)
    assert resp.status == 200 and resp.headers["Content-Type"].startswith("text/event-stream")
    return resp


def events(resp):
    """Yields (name, data) for each event of a stream; comments are skipped."""
    name = None
    while True:
        line = resp.readline()
        if not line:
            return
        line = line.decode().rstrip("\r\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            yield name, json.loads(line[6:])


def wait_streams(server, n, seconds=5):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if server.call("GET", "/api/health")["analysis_streams"] == n:
            return True
        time.sleep(0.1)
    return False


def test_position_moves_and_legal():
    s = h.shared()
    p = s.call("POST", "/api/position", {"variant": "chess", "moves": ["e2e4", "e7e5", "Nf3"]})
    assert [m["san"] for m in p["moves"]] == ["e4", "e5", "Nf3"], p["moves"]
    assert [m["uci"] for m in p["moves"]] == ["e2e4", "e7e5", "g1f3"]
    assert p["moves"][-1]["fen"] == p["fen"] and p["side"] == "black" and p["status"] == "ongoing"
    assert len(p["legal"]) == 29 and {"uci", "from", "to", "promotion", "place", "castle", "removed"} == set(p["legal"][0])
    assert p["last"] == {"from": "g1", "to": "f3"} and p["check"] is None
    mate = s.call("POST", "/api/position", {"variant": "chess", "moves": ["f2f3", "e7e5", "g2g4", "d8h4"]})
    assert mate["status"] == "over" and mate["result"] == "0-1" and mate["reason"] == "checkmate" and mate["legal"] == []
    assert mate["check"] == "e1"
    star = s.call("POST", "/api/position", {"variant": "starchess"})
    assert star["hand"]["white"] and all(m["place"] for m in star["legal"]), "Starchess opens with placements"
    s.error("POST", "/api/position", {"variant": "chess", "moves": ["e2e5"]}, expect=409, contains="move 1")
    s.error("POST", "/api/position", {"variant": "nope"}, expect=400, contains="unknown variant")
    s.error("POST", "/api/position", {"variant": "chess", "fen": "8/8 w"}, expect=400, contains="bad fen")
    s.error("GET", "/api/position", expect=405)


def test_stream_deepens_with_lines_then_stops_when_the_client_leaves():
    s = h.shared()
    resp = stream(s, variant="chess", lines=3, moves="e2e4,e7e5")
    depths = []
    for name, data in events(resp):
        assert name == "info", name
        assert len(data["lines"]) == 3, data
        for line in data["lines"]:
            assert line["pv"] and len(line["pv"]) == len(line["pv_san"]) and (line["score_cp"] is None) != (line["mate"] is None)
        assert len({line["pv"][0] for line in data["lines"]}) == 3, "three different first moves"
        depths.append(data["depth"])
        if len(depths) == 5:
            break
    assert depths == sorted(depths) and depths[-1] > depths[0], depths
    assert s.call("GET", "/api/health")["analysis_streams"] == 1
    resp.close()
    assert wait_streams(s, 0), "the search goes on after the client left"


def test_stream_limits_and_errors():
    s = h.shared()
    a = stream(s, variant="megastar", lines=1)
    b = stream(s, variant="starchess", lines=2)
    assert wait_streams(s, 2)
    s.error("GET", "/api/analysis/stream?variant=chess", expect=503, contains="busy")
    for r in (a, b):
        r.close()
    assert wait_streams(s, 0)
    s.error("GET", "/api/analysis/stream?variant=chess&lines=0", expect=400, contains="lines")
    s.error("GET", "/api/analysis/stream?variant=chess&lines=9", expect=400, contains="lines")
    s.error("GET", "/api/analysis/stream?variant=nope", expect=400, contains="unknown variant")
    s.error("GET", "/api/analysis/stream?variant=chess&moves=e2e4,e2e4", expect=409, contains="move 2")
    s.error("POST", "/api/analysis/stream?variant=chess", expect=405)
    # A finished position: no search, the stream says `done` at once.
    over = stream(s, variant="chess", moves="f2f3,e7e5,g2g4,d8h4")
    assert [name for name, _ in events(over)] == ["done"]


def test_a_stream_left_gives_its_place_at_once():
    # The analysis board closes a position's stream when the player steps to the next one: the
    # next stream must not meet "busy" while the searches left behind have yet to notice.
    s = h.shared()
    assert wait_streams(s, 0)
    for _ in range(3):
        left = [stream(s, variant="megastar", lines=1), stream(s, variant="chess", lines=2)]
        for r in left:
            next(events(r))
            r.close()
        started = time.monotonic()
        resp = stream(s, variant="starchess", lines=1)
        assert time.monotonic() - started < 2.5
        assert next(events(resp))[0] == "info"
        resp.close()
        assert wait_streams(s, 0)


def test_shutdown_ends_a_running_stream():
    server = h.Server()
    try:
        resp = stream(server, variant="chess", lines=2)
        next(events(resp))
        assert server.stop() == 0, "the server did not stop cleanly with a stream open"
        rest = [name for name, _ in events(resp)]
        assert rest[-1:] == ["done"], rest
    finally:
        server.cleanup()
