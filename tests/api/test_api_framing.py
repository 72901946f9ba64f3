"""Request framing, as a hostile client or a confused proxy would send it: control bytes in
the request line, two Content-Length headers, Transfer-Encoding beside Content-Length or not
chunked, folded header lines, bare CR and NUL bytes in headers.  Each gets 400 (501 for an
unknown transfer coding) with {"error": "..."}, the connection is closed, and nothing is
created or served.  Well-formed requests that are merely unusual (bare LF line ends, a
Cookie header, an empty header value, a chunked body) are served as usual.

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import json
import socket

import api_harness as h  # tests/api is on the path; the name differs from tests/protocol's harness

BODY = b'{"variant": "chess", "opponent": "friend"}'


def exchange(server, data, timeout=5):
    """Sends raw bytes; returns (status, headers text, body, closed)."""
    s = socket.create_connection(("127.0.0.1", server.port), timeout=timeout)
    try:
        s.sendall(data)
        status, head, body, closed = h.read_response(s, timeout)
        assert status, "the connection closed without an answer to %r" % data[:60]
        return status, head, body, closed
    finally:
        s.close()


def count_games(server):
    return len(server.call("GET", "/api/games?limit=100"))


def refused(server, data, status=400, contains=None):
    before = count_games(server)
    got, head, body, closed = exchange(server, data)
    assert got == status, "%r: expected %d, got %d %s" % (data[:80], status, got, body[:200])
    assert head.lower().count("content-type: application/json"), head
    error = json.loads(body)["error"]
    assert contains is None or contains in error, (contains, error)
    assert closed, "%r: the connection stayed open" % data[:80]
    assert count_games(server) == before, "%r created a game" % data[:80]


def test_control_bytes_in_the_request_line():
    s = h.shared()
    for target in (b"/index.html\x00.png", b"/api/variants\x00.png", b"/api/games\x00", b"/index\x01.html",
                   b"/api/health\x7f", b"/api/health\tx", b"/api/health\x1b[2J"):
        refused(s, b"GET " + target + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    refused(s, b"POST /api/games\x00/x HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(BODY) + BODY,
            contains="NUL")


def test_body_framing():
    s = h.shared()
    n = len(BODY)
    refused(s, b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nContent-Length: 5\r\n\r\n" % n + BODY,
            contains="Content-Length")
    refused(s, b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\ncontent-length: %d\r\n\r\n" % (n, n)
            + BODY, contains="Content-Length")
    refused(s, b"POST /api/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: %d\r\n\r\n"
            % n + b"%x\r\n" % n + BODY + b"\r\n0\r\n\r\n", contains="Transfer-Encoding")
    refused(s, b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nTransfer-Encoding: chunked\r\n\r\n"
            % n + b"%x\r\n" % n + BODY + b"\r\n0\r\n\r\n", contains="Transfer-Encoding")
    refused(s, b"POST /api/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n" + BODY, status=501,
            contains="gzip")
    refused(s, b"POST /api/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked"
            b"\r\n\r\n0\r\n\r\n", contains="Transfer-Encoding")


def test_header_lines():
    s = h.shared()
    for headers in (b"X-A: a\r\n b\r\n", b"X-A: a\r\n\tb\r\n", b"Content-Length: 0\r\n 5\r\n", b"X-A: a\rb\r\n",
                    b"X-A: a\x00b\r\n", b"Host : x\r\n", b"X A: b\r\n", b"X-A: \x01\r\n"):
        refused(s, b"GET /api/health HTTP/1.1\r\nHost: x\r\n" + headers + b"\r\n")


def test_what_libmicrohttpd_refuses_itself():
    """A line without a colon (or a NUL before it), a bare CR in the request line, a head too
    large, an unknown HTTP version: libmicrohttpd answers before the server sees the request,
    with its own HTML page (docs/api.md says so), and closes the connection."""
    s = h.shared()
    for data, status in ((b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-A\x00B: a\r\n\r\n", 400),
                         (b"GET /api/health HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", 400),
                         (b"GET /api/health HTTP/1.1\rHost: x\r\n\r\n", 400),
                         (b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * 70000 + b"\r\n\r\n", 431),
                         (b"GET /api/health HTTP/2.0\r\nHost: x\r\n\r\n", 505)):
        got, _, _, closed = exchange(s, data)
        assert got == status and closed, (data[:60], got, closed)


def test_unusual_but_well_formed_requests_are_served():
    s = h.shared()
    for data in (b"GET /api/health HTTP/1.1\nHost: x\n\n",
                 b"GET /api/health HTTP/1.1\r\nHost: x\r\nCookie: a=1; b=2\r\nX-Empty:\r\nX-Tab: a\tb\r\n\r\n",
                 b"GET /api/health HTTP/1.0\r\n\r\n"):
        status, _, body, _ = exchange(s, data)
        assert status == 200 and "games_in_memory" in json.loads(body), (data, status, body)
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(BODY), BODY)
    status, _, body, _ = exchange(s, b"POST /api/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                                  + chunked)
    assert status == 201 and json.loads(body)["game"]["variant"] == "chess", (status, body)
