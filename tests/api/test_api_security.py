"""Security basics: the players' tokens are long and random and never written to the
server's output; every response carries the security headers (a Content-Security-Policy
without inline scripts, which the web UI must then do without, nosniff, no referrer).

Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import glob
import http.client
import math
import os
import re

import api_harness as h  # tests/api is on the path; the name differs from tests/protocol's harness

SECURITY_HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy")


def headers_of(server, method, path, body=None):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
        r = conn.getresponse()
        if "event-stream" not in r.getheader("Content-Type", ""):
            r.read()
        return r.status, r.headers
    finally:
        conn.close()


def test_security_headers_on_every_response():
    s = h.shared()
    gid = s.create("chess", opponent="friend")["game"]["id"]
    for method, path, body in (("GET", "/", None), ("GET", "/app.js", None), ("GET", "/style.css", None),
                               ("GET", "/missing.html", None), ("GET", "/api/variants", None),
                               ("GET", "/api/games/" + gid, None), ("GET", "/api/games/%s/pgn" % gid, None),
                               ("GET", "/api/games/%s/events" % gid, None), ("POST", "/api/games", b"{"),
                               ("DELETE", "/api/games", None), ("GET", "/api/nothing", None)):
        status, headers = headers_of(s, method, path, body)
        for name in SECURITY_HEADERS:
            assert headers.get(name), "%s %s (%d) lacks %s" % (method, path, status, name)
        csp = dict(part.strip().split(" ", 1) for part in headers["Content-Security-Policy"].split(";"))
        assert csp["script-src"] == "'self'" and "unsafe" not in csp["default-src"], csp
        assert csp["frame-ancestors"] == "'none'" and csp["object-src"] == "'none'", csp
        assert headers["X-Content-Type-Options"] == "nosniff" and headers["Referrer-Policy"] == "no-referrer"


def test_web_has_no_inline_script():
    """What the Content-Security-Policy would refuse to run: inline <script>, on...= handlers,
    javascript: URLs, eval."""
    for path in glob.glob(os.path.join(h.WEB_DIR, "**", "*.html"), recursive=True):
        with open(path) as f:
            html = f.read()
        for tag in re.findall(r"<script\b[^>]*>", html, re.I):
            assert re.search(r"\bsrc\s*=", tag), "%s: inline script %s" % (path, tag)
        assert not re.search(r"<[^>]*\son[a-z]+\s*=", html, re.I), "%s: an inline event handler" % path
        assert "javascript:" not in html.lower(), path
    for path in glob.glob(os.path.join(h.WEB_DIR, "**", "*.js"), recursive=True):
        with open(path) as f:
            js = f.read()
        assert not re.search(r"\beval\s*\(|new\s+Function\s*\(", js), "%s: eval" % path


def test_tokens_are_random_and_never_logged():
    s = h.Server()
    try:
        tokens = []
        for i in range(40):
            created = s.create("chess", opponent="friend", color="white" if i % 2 else "black")
            tokens += [created["token"], created["invite"]]
            gid = created["game"]["id"]
            s.game(gid, created["token"])
            s.error("GET", "/api/games/%s?token=%s" % (gid, created["token"][::-1]), expect=403)
            s.error("POST", "/api/games/%s/moves" % gid, {"move": "zz", "token": created["token"]}, expect=409)
            s.error("POST", "/api/games/%s/draw" % gid, {"action": "accept", "token": created["invite"]}, expect=409)
        assert len(set(tokens)) == len(tokens)
        for t in tokens:
            assert re.fullmatch(r"[A-Za-z0-9_-]{32}", t), t  # 32 characters of 64: 192 bits
        letters = "".join(tokens)
        counts = [letters.count(c) for c in set(letters)]
        assert len(counts) == 64, "every letter of the alphabet appears in %d letters" % len(letters)
        expected = len(letters) / 64
        chi2 = sum((n - expected) ** 2 / expected for n in counts)
        assert chi2 < 63 + 6 * math.sqrt(2 * 63), "the letters are not uniform: chi-square %.0f" % chi2
        assert s.stop() == 0
        output = s.stdout() + s.stderr()
        leaked = [t for t in tokens if t in output or t[::-1] in output]
        assert not leaked, "tokens in the server's output: %r" % leaked[:3]
    finally:
        s.cleanup()


def store_bytes(server):
    """Everything the store holds, as bytes to search: SQLite's files (the database and its
    write-ahead log), or the accounts' tables dumped by psql."""
    if server.db.startswith("postgresql:"):
        tables = ("users", "sessions", "api_tokens", "login_failures")
        return "".join(h.postgres().sql("SELECT * FROM %s" % t, server.db) for t in tables).encode()
    data = b""
    for path in glob.glob(server.db + "*"):
        with open(path, "rb") as f:
            data += f.read()
    return data


def test_passwords_and_secrets_never_stored_or_logged():
    """Passwords are stored as Argon2id hashes only, session ids and API tokens as digests, and
    none of them reaches the server's output, even when a login fails or a password changes."""
    import accounts as a
    s = h.Server()
    try:
        password, changed = "Zebra-Quasar-%d-pass" % os.getpid(), "Violet-Lantern-%d-pass" % os.getpid()
        user = a.signup(s, password=password)
        s.error("POST", "/api/auth/login", {"username": user.name, "password": password + "x"}, expect=401)
        other = a.login(s, user.name, password)
        token = user.call("POST", "/api/account/tokens", {"description": "bot"}, expect=201)["token"]
        user.call("POST", "/api/account/password", {"old": password, "new": changed}, expect=204)
        secrets = [password, password + "x", changed, user.sid, other.sid, token]
        stored = store_bytes(s)
        assert b"$argon2id$v=19$m=19456,t=2,p=1$" in stored, "no Argon2id hash in the store"
        found = [x for x in secrets if x.encode() in stored]
        assert not found, "secrets in the store: %r" % found
        assert s.stop() == 0
        output = s.stdout() + s.stderr()
        found = [x for x in secrets if x in output]
        assert not found, "secrets in the server's output: %r" % found
    finally:
        s.cleanup()
