"""Accounts over the API: signing up and its rules, logging in and the throttle, logging out,
the account, password changes, closing, personal API tokens, and the cross-site check.
Every test runs on both stores (tests/run.py's api and api-pg sections).
"""
import os
import time

import accounts as a
import api_harness as h


def cookie_attributes(response):
    cookie = response.headers.get("Set-Cookie") or ""
    return [part.strip() for part in cookie.split(";")]


def test_signup_and_its_rules():
    s = h.shared()
    name = a.fresh_name("Ann")
    r = s.request("POST", "/api/auth/signup", {"username": name, "password": "correct horse"})
    assert r.status == 201 and r.json() == {"username": name}, r
    attrs = cookie_attributes(r)
    assert attrs[0].startswith("sid=") and len(attrs[0]) == 4 + 32, attrs
    assert {"HttpOnly", "SameSite=Lax", "Path=/"} <= set(attrs) and "Secure" not in attrs, attrs
    user = a.User(s, name, "correct horse", a.session_of(r))
    me = user.account()
    assert me["username"] == name and me["id"] == name.lower(), me
    assert isinstance(me["createdAt"], int) and abs(me["createdAt"] / 1000 - time.time()) < 60, me
    assert set(me["perfs"]) == set(h.VARIANTS), me["perfs"]
    for perf in me["perfs"].values():
        assert perf == {"rating": 1500, "rd": 350, "games": 0, "prov": True}, perf
    # The name, unique ignoring case; its characters; the password's length and difference.
    s.error("POST", "/api/auth/signup", {"username": name.upper(), "password": "another one"}, expect=409,
            contains="taken")
    for bad, why in (("ab", "3 to 20"), ("x" * 21, "3 to 20"), ("bad name", "letters"), ("émile", "letters"),
                     ("semi;colon", "letters")):
        s.error("POST", "/api/auth/signup", {"username": bad, "password": "long enough"}, contains=why)
    for bad in ("short", "x" * 129):
        s.error("POST", "/api/auth/signup", {"username": a.fresh_name(), "password": bad}, contains="8 to 128")
    twin = a.fresh_name("Twin")
    s.error("POST", "/api/auth/signup", {"username": twin, "password": twin.upper()}, contains="not be the username")
    a.signup(s, a.fresh_name(), "é" * 8)  # eight characters, sixteen bytes: long enough
    s.error("POST", "/api/auth/signup", {"username": a.fresh_name()}, contains="password")
    s.error("POST", "/api/auth/signup", {"username": 7, "password": "long enough"}, contains="username")
    s.error("GET", "/api/auth/signup", expect=405)


def server_cpu_ns(server):
    """The processor time the server's threads have run, in nanoseconds (Linux's schedstat)."""
    total = 0
    for task in os.listdir("/proc/%d/task" % server.proc.pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (server.proc.pid, task)) as f:
                total += int(f.read().split()[0])
        except FileNotFoundError:  # a thread that ended meanwhile
            pass
    return total


def mann_whitney_u(xs, ys):
    """How many of the pairs (x, y) have x above y, ties counting a half. For 12 and 12 drawn
    alike it is 72 on average with a spread of 17.3; outside 15..129 once in a thousand."""
    return sum(1.0 if x > y else 0.5 if x == y else 0.0 for x in xs for y in ys)


def test_login_wrong_and_unknown_look_the_same():
    s = h.Server()  # its own: failed logins count per address
    try:
        user = a.signup(s, password="the right one")
        again = a.login(s, user.name.upper(), "the right one")  # any case
        assert again.sid and again.sid != user.sid and again.account()["username"] == user.name
        wrong = s.request("POST", "/api/auth/login", {"username": user.name, "password": "not the right one"})
        unknown = s.request("POST", "/api/auth/login", {"username": a.fresh_name(), "password": "not the right one"})
        assert wrong.status == unknown.status == 401 and wrong.body == unknown.body, (wrong, unknown)
        for malformed in ("a#", "x", "bad name!", "é" * 30):  # no account can have these: the same 401
            bad = s.request("POST", "/api/auth/login", {"username": malformed, "password": "not the right one"})
            assert bad.status == 401 and bad.body == wrong.body, (malformed, bad)
        assert "Set-Cookie" not in wrong.headers

        def timed(name):
            cpu, start = server_cpu_ns(s), time.perf_counter()
            r = s.request("POST", "/api/auth/login", {"username": name, "password": "not the right one"})
            assert r.status == 401, r
            return (time.perf_counter() - start) * 1e3, (server_cpu_ns(s) - cpu) / 1e6  # ms
        # Both kinds do the same work, but its price is not steady here: the same Argon2
        # verification, alone on this machine, costs 15 ms at one time and 40 ms at another
        # (the virtual processor's neighbours). A comparison of the least of each kind failed
        # when the cheap phase came rarely and only to one kind. So: 12 tries of each, in the
        # order K N N K K N N ..., and a rank test (Mann-Whitney) that refuses only a
        # difference that chance gives once in a thousand runs; leaving out the hash, or doing
        # any other step for one kind only that costs as much, sets every try of one kind below
        # the other's (U = 0). The failures are cleared between rounds, under the throttle's
        # limits (5 a name, 20 an address).
        accounts = [user.name, a.signup(s, password="the right one").name]
        known, nobody = [], []
        for i in range(24):
            if i % 8 == 0:
                a.execute(s, "DELETE FROM login_failures")
            if i % 4 in (0, 3):
                known.append(timed(accounts[len(known) % 2]))
            else:
                nobody.append(timed(a.fresh_name()))
        for what, unit in ((0, "wall"), (1, "processor")):
            k, n = [t[what] for t in known], [t[what] for t in nobody]
            report = "%s time, wrong password %s ms, unknown user %s ms" % (
                unit, " ".join("%.1f" % x for x in sorted(k)), " ".join("%.1f" % x for x in sorted(n)))
            assert 15 <= mann_whitney_u(k, n) <= 129, report
        print("  login refused, 12 tries each: " + report)
    finally:
        s.cleanup()


def test_login_throttle_per_name_and_per_address():
    s = h.Server()
    try:
        user = a.signup(s, password="the right one")
        for _ in range(5):
            s.error("POST", "/api/auth/login", {"username": user.name, "password": "guess"}, expect=401)
        for password in ("guess", "the right one"):  # even the right password
            r = s.request("POST", "/api/auth/login", {"username": user.name, "password": password})
            assert r.status == 429 and "Set-Cookie" not in r.headers, r
            assert 800 <= int(r.headers["Retry-After"]) <= 900, r.headers["Retry-After"]
        assert user.account()["username"] == user.name  # sessions already open go on
        # The window passes (the failures moved 15 minutes back): the right password works.
        a.execute(s, "UPDATE login_failures SET at_ms = at_ms - 900001")
        a.login(s, user.name, "the right one")
        # 20 failures from one address, over many names: then that address is refused for any name.
        for i in range(20):
            s.error("POST", "/api/auth/login", {"username": a.fresh_name(), "password": "guess"}, expect=401)
        r = s.request("POST", "/api/auth/login", {"username": user.name, "password": "the right one"})
        assert r.status == 429 and "address" in r.json()["error"], r
    finally:
        s.cleanup()


def test_logout_ends_the_session():
    s = h.shared()
    user = a.signup(s)
    other = a.login(s, user.name, user.password)
    r = user.request("POST", "/api/auth/logout")
    assert r.status == 204 and r.body == b"", r
    assert cookie_attributes(r)[0] == "sid=" and "Max-Age=0" in cookie_attributes(r), r.headers
    user.error("GET", "/api/account", expect=401)
    user.error("POST", "/api/auth/logout", expect=401)  # that session is gone
    assert other.account()["username"] == user.name  # another session of the account goes on
    s.error("POST", "/api/auth/logout", expect=401)  # nobody


def test_password_change_ends_the_other_sessions():
    s = h.shared()
    user = a.signup(s, password="first password")
    other = a.login(s, user.name, "first password")
    user.error("POST", "/api/account/password", {"old": "not it at all", "new": "second password"}, expect=401)
    user.error("POST", "/api/account/password", {"old": "first password", "new": "short"}, contains="8 to 128")
    assert user.call("POST", "/api/account/password", {"old": "first password", "new": "second password"},
                     expect=204) is None
    assert user.account()["username"] == user.name  # the session that changed it goes on
    other.error("GET", "/api/account", expect=401)  # every other one has ended
    s.error("POST", "/api/auth/login", {"username": user.name, "password": "first password"}, expect=401)
    a.login(s, user.name, "second password")


def test_close_an_account():
    s = h.shared()
    user = a.signup(s, password="the right one")
    token = user.call("POST", "/api/account/tokens", {"description": "a script"}, expect=201)["token"]
    bot = a.User(s, user.name, None, bearer=token)
    created = user.call("POST", "/api/games", {"variant": "chess", "opponent": "friend"}, expect=201)
    user.error("POST", "/api/account/close", {"password": "not the right one"}, expect=401)
    r = user.request("POST", "/api/account/close", {"password": "the right one"})
    assert r.status == 204 and "Max-Age=0" in cookie_attributes(r), r
    user.error("GET", "/api/account", expect=401)
    bot.error("GET", "/api/account", expect=401)
    refused = s.request("POST", "/api/auth/login", {"username": user.name, "password": "the right one"})
    wrong = s.request("POST", "/api/auth/login", {"username": a.fresh_name(), "password": "the right one"})
    assert refused.status == 401 and refused.body == wrong.body, refused
    s.error("POST", "/api/auth/signup", {"username": user.name, "password": "another one"}, expect=409)
    seat = s.game(created["game"]["id"])["players"]["white"]
    assert seat["name"] == user.name and seat["closed"] is True, seat


def test_personal_tokens():
    s = h.shared()
    user = a.signup(s)
    made = user.call("POST", "/api/account/tokens", {"description": "my bot"}, expect=201)
    assert set(made) == {"id", "token"} and made["token"].startswith("sfp_") and len(made["token"]) == 36, made
    second = user.call("POST", "/api/account/tokens", {"description": "a script"}, expect=201)
    listed = user.call("GET", "/api/account/tokens")
    assert [t["id"] for t in listed] == [second["id"], made["id"]] or [t["id"] for t in listed] == [made["id"],
                                                                                                   second["id"]], listed
    for t in listed:
        assert set(t) == {"id", "description", "createdAt", "lastUsedAt"}, t
        assert made["token"] not in str(t) and second["token"] not in str(t)
    bot = a.User(s, user.name, None, bearer=made["token"])
    assert bot.account()["username"] == user.name
    # A bearer request needs no Origin, and acts for its account.
    created = bot.call("POST", "/api/games", {"variant": "chess", "opponent": "friend"}, expect=201)
    assert created["game"]["players"]["white"]["name"] == user.name
    assert user.call("DELETE", "/api/account/tokens/" + made["id"], expect=204) is None
    bot.error("GET", "/api/account", expect=401)  # at once
    bot.error("POST", "/api/games", {"variant": "chess", "opponent": "friend"}, expect=401)
    user.error("DELETE", "/api/account/tokens/" + made["id"], expect=404)
    assert [t["id"] for t in user.call("GET", "/api/account/tokens")] == [second["id"]]
    # A token of one account cannot revoke another's.
    stranger = a.signup(s)
    stranger.error("DELETE", "/api/account/tokens/" + second["id"], expect=404)
    for header in ("Bearer sfp_" + "x" * 32, "Bearer ", "Basic dXNlcjpwYXNz", "sfp_nothing"):
        r = s.request("GET", "/api/account", headers={"Authorization": header})
        assert r.status == 401 and r.json()["error"], (header, r)
    user.error("POST", "/api/account/tokens", {"description": "x" * 101}, contains="100")
    s.error("GET", "/api/account/tokens", expect=401)
    s.error("POST", "/api/account/tokens", {"description": "nobody"}, expect=401)


def test_cross_site_requests_are_refused():
    s = h.shared()
    user = a.signup(s)
    body = {"variant": "chess", "opponent": "friend"}
    for origin in ("http://evil.example", "null", "https://127.0.0.1:%d" % s.port, "http://127.0.0.1:1"):
        r = user.request("POST", "/api/games", body, origin=False, headers={"Origin": origin})
        assert r.status == 403 and "cross-site" in r.json()["error"], (origin, r)
    r = user.request("POST", "/api/games", body, origin=False)  # the cookie without an Origin
    assert r.status == 403 and "Origin" in r.json()["error"], r
    user.call("POST", "/api/games", body, expect=201)  # its own origin
    user.error("POST", "/api/auth/logout", origin=False, expect=403)
    assert user.account()["username"] == user.name  # a read needs no Origin; the session lives
    # Without the cookie a request from another site is refused too; without an Origin it is not.
    r = s.request("POST", "/api/games", dict(body), headers={"Origin": "http://evil.example"})
    assert r.status == 403, r
    s.create("chess")


# "an older hash", hashed with Argon2id at 64 KiB and one pass (libsodium's crypto_pwhash_str_alg).
OLDER_HASH = "$argon2id$v=19$m=64,t=1,p=1$KotahgiatID/2thF1USYuA$o17oXjWQFOx8D24cSrM3PEJhd1Slqcgw9i3VPCGAP+g"


def test_an_older_hash_is_made_again_on_login():
    """A hash made with weaker parameters still verifies; the login hashes the password again with
    today's, and the account's other sessions go on."""
    s = h.shared()
    user = a.signup(s)
    a.execute(s, "UPDATE users SET password = '%s' WHERE id = '%s'" % (OLDER_HASH, user.name.lower()))
    s.error("POST", "/api/auth/login", {"username": user.name, "password": user.password}, expect=401)
    a.login(s, user.name, "an older hash")
    rows = h.stored_rows(s, "SELECT password FROM users WHERE id = '%s'" % user.name.lower())
    stored = rows[0][0] if isinstance(rows[0], tuple) else rows[0]
    assert stored.startswith("$argon2id$v=19$m=19456,t=2,p=1$"), stored
    assert user.account()["username"] == user.name  # the session from before goes on
    a.login(s, user.name, "an older hash")


def test_session_unused_for_30_days_has_ended():
    s = h.shared()
    user = a.signup(s)
    other = a.login(s, user.name, user.password)
    assert user.account()["username"] == user.name
    # The first session's last use moved 30 days and a minute back: over; the other goes on.
    a.execute(s, "UPDATE sessions SET used_ms = used_ms - 2592060000 WHERE user_id = '%s' AND used_ms = "
                 "(SELECT min(used_ms) FROM sessions WHERE user_id = '%s')" % (user.name.lower(), user.name.lower()))
    alive = [u.request("GET", "/api/account").status for u in (user, other)]
    assert sorted(alive) == [200, 401], alive


def test_secure_cookie_and_https_origin_behind_a_trusted_proxy():
    """Behind a trusted proxy that says X-Forwarded-Proto: https, the cookie is Secure and the
    server's own origin is https://HOST; the same header from anyone else is not believed."""
    s = h.Server(extra_args=["--trusted-proxy", "127.0.0.1"])
    plain = h.Server()
    try:
        tls = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}
        r = s.request("POST", "/api/auth/signup", {"username": a.fresh_name(), "password": "long enough"}, headers=tls)
        assert r.status == 201 and "Secure" in cookie_attributes(r), r.headers
        sid = a.session_of(r)
        body = {"variant": "chess", "opponent": "friend"}
        own = dict(tls, Cookie="sid=" + sid, Origin="https://127.0.0.1:%d" % s.port)
        assert s.request("POST", "/api/games", body, headers=own).status == 201
        http_origin = dict(own, Origin="http://127.0.0.1:%d" % s.port)
        assert s.request("POST", "/api/games", body, headers=http_origin).status == 403
        r = plain.request("POST", "/api/auth/signup", {"username": a.fresh_name(), "password": "long enough"},
                          headers=tls)
        assert r.status == 201 and "Secure" not in cookie_attributes(r), r.headers
    finally:
        s.cleanup()
        plain.cleanup()
