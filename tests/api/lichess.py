"""Helpers for the tests of the lichess-shaped API: NDJSON streams read line by line (the account's
event stream, a board game's stream), form-encoded requests as lichess's clients send them.

It is not a test module (no test_ prefix): the tests import it.
"""
import json
import socket
import time
import urllib.parse
import urllib.request


class NdjsonStream:
    """A streamed NDJSON response, read an object at a time (empty lines are keep-alives,
    counted)."""

    def __init__(self, server, path, headers, timeout=15):
        req = urllib.request.Request(server.url(path), headers=dict(headers))
        self.resp = urllib.request.urlopen(req, timeout=timeout)
        ctype = self.resp.headers.get("Content-Type", "")
        assert self.resp.status == 200 and ctype.startswith("application/x-ndjson"), (self.resp.status, ctype)
        self.keepalives = 0

    def next(self):
        """The next object (keep-alives skipped and counted)."""
        while True:
            line = self.resp.readline()
            assert line, "the stream ended"
            if line.strip():
                return json.loads(line)
            self.keepalives += 1

    def until(self, predicate, limit=30):
        """Reads objects until one satisfies predicate; returns it."""
        for _ in range(limit):
            event = self.next()
            if predicate(event):
                return event
        raise AssertionError("no matching event among %d" % limit)

    def nothing_for(self, seconds):
        """True when no object comes for `seconds` (keep-alives do not count)."""
        sock = self.resp.fp.raw._sock if hasattr(self.resp.fp, "raw") else None
        deadline = time.time() + seconds
        while time.time() < deadline:
            if sock is not None:
                sock.settimeout(max(0.05, deadline - time.time()))
            try:
                line = self.resp.readline()
            except (socket.timeout, TimeoutError):
                return True
            if line.strip():
                return False
            self.keepalives += 1
        return True

    def close(self):
        self.resp.close()


def form(server, method, path, fields, headers):
    """A request with an application/x-www-form-urlencoded body (lichess's clients send those)."""
    data = urllib.parse.urlencode(fields).encode()
    all_headers = dict(headers, **{"Content-Type": "application/x-www-form-urlencoded"})
    return server.request(method, path, raw=data, headers=all_headers)
