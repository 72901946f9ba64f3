"""Helpers for the tests of accounts: a logged-in user as a client (its session cookie and the
Origin a browser would send, or a bearer token), SQL run on a server's store, and Glicko-2
written here from Glickman's paper ("Example of the Glicko-2 system"), independently of the
server's C, to check the rating changes it stores.

It is not a test module (no test_ prefix): the account tests import it.
"""
import itertools
import math
import os
import sqlite3
import urllib.parse

import api_harness as h

_names = itertools.count(1)


def fresh_name(prefix="user"):
    """A username no other test of this run uses (3-20 of A-Za-z0-9_-)."""
    return "%s%d_%d" % (prefix, os.getpid() % 10000, next(_names))


class User:
    """An account's client on a server: requests carry its session cookie and the server's own
    Origin (what a browser sends), or, with bearer set, only `Authorization: Bearer`."""

    def __init__(self, server, name, password, sid=None, bearer=None):
        self.server, self.name, self.password, self.sid, self.bearer = server, name, password, sid, bearer

    def on(self, server):
        """The same credentials on another server (another instance on the same store)."""
        return User(server, self.name, self.password, self.sid, self.bearer)

    def headers(self, origin=True):
        if self.bearer:
            return {"Authorization": "Bearer " + self.bearer}
        out = {"Cookie": "sid=" + self.sid} if self.sid else {}
        if origin:
            out["Origin"] = "http://127.0.0.1:%d" % self.server.port
        return out

    def request(self, method, path, body=None, origin=True, headers=None, raw=None):
        return self.server.request(method, path, body, raw=raw, headers=dict(self.headers(origin), **(headers or {})))

    def call(self, method, path, body=None, expect=200):
        r = self.request(method, path, body)
        assert r.status == expect, "%s %s as %s: expected %d, got %d: %s" % (method, path, self.name, expect, r.status,
                                                                           r.text)
        return r.json() if r.body else None

    def error(self, method, path, body=None, expect=400, contains=None, origin=True):
        r = self.request(method, path, body, origin=origin)
        assert r.status == expect, "%s %s as %s: expected %d, got %d: %s" % (method, path, self.name, expect, r.status,
                                                                           r.text)
        message = r.json()["error"]
        assert not contains or contains in message, "expected %r in %r" % (contains, message)
        return message

    def account(self):
        return self.call("GET", "/api/account")


def session_of(response):
    """The session id a response's Set-Cookie gives (None when it clears or sets none)."""
    cookie = response.headers.get("Set-Cookie") or ""
    value = cookie.split(";")[0].partition("=")[2]
    return value or None


def signup(server, name=None, password="correct horse battery"):
    """A new account, logged in (its session from the answer's cookie)."""
    name = name or fresh_name()
    r = server.request("POST", "/api/auth/signup", {"username": name, "password": password})
    assert r.status == 201, "signup %s: %d %s" % (name, r.status, r.text)
    assert r.json() == {"username": name}, r.text
    return User(server, name, password, session_of(r))


def login(server, name, password):
    r = server.request("POST", "/api/auth/login", {"username": name, "password": password})
    assert r.status == 200, "login %s: %d %s" % (name, r.status, r.text)
    return User(server, name, password, session_of(r))


def execute(server, statement):
    """Runs an SQL statement on the server's store (another client: SQLite's file, or psql)."""
    if server.db.startswith("postgresql:"):
        h.postgres().sql(statement, server.db)
        return
    db = sqlite3.connect(server.db, timeout=10)
    try:
        db.execute(statement)
        db.commit()
    finally:
        db.close()


def quote(text):
    return urllib.parse.quote(text, safe="")


# ---- Glicko-2 from the paper --------------------------------------------------------------------

SCALE = 173.7178
TAU = 0.5


def glicko2(rating, rd, sigma, opponents):
    """One rating period: opponents is a list of (rating, rd, score); returns (rating, rd, sigma)
    by the paper's steps 2-8, its volatility iteration as in the paper's step 5.4."""
    mu, phi = (rating - 1500) / SCALE, rd / SCALE
    g = lambda p: 1 / math.sqrt(1 + 3 * p * p / math.pi ** 2)
    terms = []
    for r_j, rd_j, s in opponents:
        mu_j, phi_j = (r_j - 1500) / SCALE, rd_j / SCALE
        e = 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))
        terms.append((g(phi_j), e, s))
    v = 1 / sum(gj * gj * e * (1 - e) for gj, e, _ in terms)
    delta = v * sum(gj * (s - e) for gj, e, s in terms)
    a = math.log(sigma * sigma)

    def f(x):
        ex = math.exp(x)
        return ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / TAU ** 2

    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > 0.000001:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2)
    phi_star = math.sqrt(phi ** 2 + new_sigma ** 2)
    new_phi = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    new_mu = mu + new_phi ** 2 * sum(gj * (s - e) for gj, e, s in terms)
    return SCALE * new_mu + 1500, min(350.0, max(45.0, SCALE * new_phi)), new_sigma


def whole(x):
    """A rating rounded half away from zero, as the server rounds it."""
    return math.floor(x + 0.5)


def rating_diffs(white, black, white_score):
    """The rounded rating changes of a rated game between (rating, rd, sigma) white and black
    (rounded after minus rounded before), and both players' values after it."""
    w = glicko2(*white, [(black[0], black[1], white_score)])
    b = glicko2(*black, [(white[0], white[1], 1 - white_score)])
    return whole(w[0]) - whole(white[0]), whole(b[0]) - whole(black[0]), w, b
