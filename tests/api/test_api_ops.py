"""Running the server as a service: the version in GET /api/health, GET /metrics (read by
Prometheus's own text-format parser and by a check of the format's grammar and naming
conventions; counters that move with the requests; who may read it), and the log (a JSON line
per request and per change of a game, levels, no secrets, --log FILE opened again on SIGHUP).

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import functools
import json
import os
import re
import signal
import subprocess
import tempfile
import time

import api_harness as h  # tests/api is on the path; the name differs from tests/protocol's harness

SECRET = "s3cr3t-t0ken-value"
# Prometheus's text format 0.0.4: a sample is a name, labels, a value (and a time stamp).
NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r'[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\\\|\\"|\\n)*"'
VALUE = r"(?:[+-]?(?:[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?|Inf)|NaN)"
SAMPLE = re.compile(r"^(%s)(?:\{(%s(?:,%s)*)?\})? (%s)(?: -?[0-9]+)?$" % (NAME, LABEL, LABEL, VALUE))
COMMENT = re.compile(r"^# (HELP|TYPE) (%s) (.*)$" % NAME)
SUFFIXES = {"histogram": ("_bucket", "_sum", "_count"), "summary": ("", "_sum", "_count")}


def version():
    with open(os.path.join(h.REPO_ROOT, "VERSION")) as f:
        return f.read().strip()


def scrape(server, headers=None):
    r = server.request("GET", "/metrics", headers=headers)
    assert r.status == 200, "GET /metrics: %r" % r
    assert r.headers.get("Content-Type", "").startswith("text/plain; version=0.0.4"), r.headers.get("Content-Type")
    return r.text


def check_grammar(text):
    """Every line is a HELP or TYPE comment or a sample of a family typed before it; no series
    twice; a histogram's buckets grow to +Inf, which equals its count.  Returns {series: value}."""
    types, seen = {}, {}
    for line in text.rstrip("\n").split("\n"):
        comment = COMMENT.match(line)
        if comment:
            kind, name, rest = comment.groups()
            if kind == "TYPE":
                assert rest in ("counter", "gauge", "histogram", "summary", "untyped"), line
                assert name not in types, "TYPE twice for %s" % name
                types[name] = rest
            continue
        sample = SAMPLE.match(line)
        assert sample, "not a sample of the text format: %r" % line
        name, labels, value = sample.group(1), sample.group(2) or "", sample.group(3)
        family = next((f for f, t in types.items() for s in SUFFIXES.get(t, ("",)) if name == f + s), None)
        assert family, "a sample before its family's TYPE: %r" % line
        key = name + "{" + labels + "}"
        assert key not in seen, "a series twice: %s" % key
        seen[key] = float(value)
    for key, value in seen.items():
        if key.startswith(tuple(f + "_bucket{" for f, t in types.items() if t == "histogram")):
            route = re.search(r'route="([^"]*)"', key).group(1)
            family = key.split("_bucket{")[0]
            buckets = [v for k, v in seen.items() if k.startswith(family + "_bucket{") and '"%s"' % route in k]
            assert buckets == sorted(buckets), "buckets of %s must grow: %r" % (route, buckets)
            count = seen[family + '_count{route="%s"}' % route]
            assert buckets[-1] == count, "+Inf bucket %s is not the count %s" % (buckets[-1], count)
    return types, seen


# Prometheus's parser (Debian's python3-prometheus-client), run by the interpreter Debian
# installed it for: the tests may run under another python3.
PARSE = """
import json, sys
from prometheus_client.parser import text_string_to_metric_families
print(json.dumps([[f.name, f.type, [[s.name, s.labels, s.value] for s in f.samples]]
                  for f in text_string_to_metric_families(sys.stdin.read())]))
"""


@functools.lru_cache(maxsize=16)
def families(text):
    """{family: (type, [(sample name, labels, value)])} as Prometheus's own parser reads the page."""
    proc = subprocess.run(["/usr/bin/python3", "-c", PARSE], input=text, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, "Prometheus's parser refused the page: %s" % proc.stderr[-2000:]
    return {name: (kind, samples) for name, kind, samples in json.loads(proc.stdout)}


def value(text, name, **labels):
    """A sample's value, as Prometheus's parser reads it (0 when the series is not there)."""
    for kind, samples in families(text).values():
        for sample, sample_labels, sample_value in samples:
            if sample == name and all(sample_labels.get(k) == v for k, v in labels.items()):
                return sample_value
    return 0


def test_health_carries_the_version():
    assert h.shared().call("GET", "/api/health")["version"] == version()


def test_metrics_follow_the_text_format_and_the_naming_conventions():
    s = h.shared()
    s.request("GET", "/api/variants")
    text = scrape(s)
    types, series = check_grammar(text)
    parsed = families(text)  # Prometheus's parser accepts it too, with the same types
    assert {name: kind for name, (kind, _) in parsed.items()} == {
        re.sub("_total$", "", name): kind for name, kind in types.items()}, "the parser reads other families"
    for name, kind in types.items():
        assert name.startswith(("starfish_", "process_")), "%s: metrics of ours start with starfish_" % name
        assert name == name.lower(), name
        assert (kind == "counter") == name.endswith("_total"), "%s (%s): counters alone end in _total" % (name, kind)
    assert types["starfish_http_request_duration_seconds"] == "histogram"
    wanted = ["starfish_http_requests", "starfish_http_request_duration_seconds", "starfish_games_live",
              "starfish_games_stored", "starfish_event_streams_open", "starfish_engine_searches_running",
              "starfish_engine_queue_length", "starfish_store_errors", "process_resident_memory_bytes",
              "process_threads", "starfish_build_info"]
    missing = [w for w in wanted if w not in parsed]
    assert not missing, "missing families: %r" % missing
    assert value(text, "starfish_build_info", version=version()) == 1
    assert value(text, "process_resident_memory_bytes") > 1e6 and value(text, "process_threads") >= 4


def settled(s, check, timeout=10):
    """Scrapes until check(text) holds: a request is counted when it ends, a moment after its
    client has the answer."""
    deadline = time.time() + timeout
    while True:
        text = scrape(s)
        if check(text) or time.time() > deadline:
            return text
        time.sleep(0.02)


def test_metrics_counters_move_with_the_requests():
    s = h.Server()
    try:
        requests = "starfish_http_requests_total"
        # The harness's GET /api/variants, which found the server up, is counted first.
        before = settled(s, lambda t: value(t, requests, route="/api/variants", status="200") == 1)
        for _ in range(3):
            s.request("GET", "/api/variants")
        s.request("GET", "/api/no-such-thing")
        s.request("GET", "/api/games/nosuchgame")
        created = s.create("chess", opponent="friend")
        gid, white = created["game"]["id"], created["token"]
        s.move(gid, white, "e2e4")
        stream = s.events(gid)
        expected = {("/api/variants", "200"): 3, ("/api/other", "404"): 1, ("/api/games/{id}", "404"): 1,
                    ("/api/games", "201"): 1, ("/api/games/{id}/moves", "200"): 1}

        def moved(text):
            return {(route, status): value(text, requests, route=route, status=status) -
                    value(before, requests, route=route, status=status) for route, status in expected}
        after = settled(s, lambda t: moved(t) == expected)
        assert moved(after) == expected, moved(after)
        count = "starfish_http_request_duration_seconds_count"
        assert value(after, count, route="/api/variants") - value(before, count, route="/api/variants") == 3
        assert value(after, "starfish_games_stored") - value(before, "starfish_games_stored") == 1
        assert value(after, "starfish_games_live") >= 1
        assert value(after, "starfish_event_streams_open") == 1
        stream.close()
        deadline = time.time() + 10
        while value(scrape(s), "starfish_event_streams_open") != 0:
            assert time.time() < deadline, "the closed stream is still counted"
            time.sleep(0.05)
        ended = scrape(s)
        assert value(ended, requests, route="/api/games/{id}/events", status="200") == 1, "a stream that ended counts"
        assert not [k for k in check_grammar(ended)[1] if "events" in k and "duration" in k], "streams are not timed"
    finally:
        s.cleanup()


def test_metrics_count_engine_searches():
    s = h.Server()
    try:
        created = s.create("chess", opponent="engine", color="white", skill=20)
        gid, token = created["game"]["id"], created["token"]
        s.move(gid, token, "e2e4")
        seen = 0
        deadline = time.time() + 10
        while time.time() < deadline and not seen:
            text = scrape(s)
            seen = value(text, "starfish_engine_searches_running", lane="moves") + \
                value(text, "starfish_engine_queue_length", lane="moves")
        assert seen >= 1, "the engine's search was never seen running or queued"
        s.wait_game(gid, lambda g: len(g["moves"]) == 2, what="the engine's reply")
    finally:
        s.cleanup()


@h.sqlite_only
def test_metrics_count_store_errors():
    if "asan" in h.binary():
        return  # the sanitizer's runtime must be loaded first: no shim there
    s = h.Server(env=h.faults_env("disk-full"))
    faults = h.Faults(s)
    try:
        created = s.create("chess", opponent="friend")
        before = value(scrape(s), "starfish_store_errors_total")
        faults.short()
        s.error("POST", "/api/games/%s/moves" % created["game"]["id"], {"move": "e2e4", "token": created["token"]},
                expect=503)
        faults.back()
        assert value(scrape(s), "starfish_store_errors_total") > before
    finally:
        s.cleanup()


@h.postgresql_only
def test_metrics_show_the_postgresql_pool():
    s = h.Server(extra_args=["--db-pool", "3"])
    try:
        text = scrape(s)
        assert value(text, "starfish_db_pool_connections") == 3
        assert 0 <= value(text, "starfish_db_pool_connections_in_use") <= 3
    finally:
        s.cleanup()


def test_metrics_are_not_for_the_world():
    s = h.shared()
    for header in ("X-Forwarded-For", "Forwarded"):
        r = s.request("GET", "/metrics", headers={header: "203.0.113.9"})
        assert r.status == 403, "a request a proxy passed on must not read the metrics: %r" % r
    assert s.request("POST", "/metrics", body={}).status == 405


def test_metrics_behind_a_token():
    folder = tempfile.mkdtemp(prefix="starfish-token-")
    path = os.path.join(folder, "token")
    with open(path, "w") as f:
        f.write(SECRET + "\n")
    s = h.Server(extra_args=["--metrics-token-file", path])
    try:
        r = s.request("GET", "/metrics")
        assert r.status == 401 and r.headers.get("WWW-Authenticate") == "Bearer", r
        assert s.request("GET", "/metrics", headers={"Authorization": "Bearer wrong" + SECRET}).status == 401
        scrape(s, headers={"Authorization": "Bearer " + SECRET})
        scrape(s, headers={"Authorization": "Bearer " + SECRET, "X-Forwarded-For": "203.0.113.9"})
    finally:
        s.cleanup()
    with open(path, "w") as f:
        f.write("short\n")
    code, out = start_once(["--metrics-token-file", path])
    assert code == 1 and "metrics token" in out, (code, out)


def start_once(extra_args):
    """`starfish serve` with these options on a new SQLite file: (exit status, what it said)."""
    return h.start_once(os.path.join(tempfile.mkdtemp(prefix="starfish-once-"), "games.db"), extra_args)


def log_lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def test_log_has_a_line_per_request_and_game_change_and_no_secrets():
    folder = tempfile.mkdtemp(prefix="starfish-log-")
    log = os.path.join(folder, "starfish.log")
    s = h.Server(extra_args=["--log", log])
    try:
        created = s.create("chess", opponent="friend")
        gid, white, black = created["game"]["id"], created["token"], created["invite"]
        s.move(gid, white, "e2e4")
        s.request("GET", "/api/games/%s?token=%s&x=1" % (gid, white),  # a bearer token no account has: 401
                  headers={"Authorization": "Bearer " + SECRET, "Cookie": "sid=" + SECRET})
        s.call("POST", "/api/games/%s/resign" % gid, {"token": black})
        s.request("GET", "/api/health")  # a debug line: not logged at info
        deadline = time.time() + 5
        while len([l for l in log_lines(log) if l["event"] == "request"]) < 5:
            assert time.time() < deadline, "request lines missing: %r" % log_lines(log)
            time.sleep(0.05)
        with open(log) as f:
            text = f.read()
        for secret in (SECRET, white, black):
            assert secret not in text, "a secret in the log: %r" % secret
        lines = log_lines(log)
        assert all({"ts", "level", "event"} <= set(l) and re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$", l["ts"])
                   for l in lines), lines
        requests = [l for l in lines if l["event"] == "request"]
        requests = requests[[r["method"] for r in requests].index("POST"):]  # after the harness's GET /api/variants
        # A line is written once its answer has gone, so the client's next request may be written
        # first: the lines, in any order.
        assert sorted((r["method"], r["route"], r["status"]) for r in requests) == sorted([
            ("POST", "/api/games", 201), ("POST", "/api/games/{id}/moves", 200), ("GET", "/api/games/{id}", 401),
            ("POST", "/api/games/{id}/resign", 200)]), requests
        refused = [r for r in requests if r["status"] == 401][0]
        assert refused["path"] == "/api/games/%s?token=REDACTED&x=1" % gid, refused["path"]
        assert all(r["level"] == "info" and r["client"] == "127.0.0.1" and r["ms"] >= 0 for r in requests)
        games = [(l["plies"], l["last_move"], l["result"]) for l in lines if l["event"] == "game"]
        assert games == [(1, "e2e4", "*"), (1, "e2e4", "1-0")], games
        assert lines[0]["event"] == "start" and lines[0]["version"] == version()
    finally:
        s.cleanup()


def test_log_file_opened_again_on_sighup_and_levels():
    folder = tempfile.mkdtemp(prefix="starfish-log-")
    log = os.path.join(folder, "starfish.log")
    s = h.Server(extra_args=["--log", log, "--log-level", "debug"])
    try:
        s.request("GET", "/api/health")
        # A request's line is written once its answer has gone: wait for it.
        h.wait_for(lambda: any(l.get("route") == "/api/health" for l in log_lines(log) if l["event"] == "request"),
                   5, "the log line of /api/health", step=0.02)
        os.rename(log, log + ".1")  # as logrotate does
        s.proc.send_signal(signal.SIGHUP)
        # The file appears a moment before the log writes to it: its first line.
        h.wait_for(lambda: os.path.exists(log) and any(l["event"] == "log_reopened" for l in log_lines(log)),
                   5, "a new log after SIGHUP", step=0.02)
        s.request("GET", "/api/account")
        time.sleep(0.2)
        # Routes other than the start's probe (/api/variants), whose line is written once its answer
        # has gone and so may come late (the sanitizer build is slow enough to show it).
        def routes(path):
            return [l["route"] for l in log_lines(path) if l["event"] == "request" and l["route"] != "/api/variants"]
        assert routes(log + ".1") == ["/api/health"], "the old log's requests: %r" % routes(log + ".1")
        assert routes(log) == ["/api/account"], "the new log's requests: %r" % routes(log)
        assert s.running(), "SIGHUP must not stop the server"
    finally:
        s.cleanup()
    code, out = start_once(["--log-level", "loud"])
    assert code == 2 and "unknown log level" in out, (code, out)
    code, out = start_once(["--log", os.path.join(folder, "no", "such", "dir", "x.log")])
    assert code == 1 and "cannot open the log" in out, (code, out)
