"""`starfish user list | create | reset-password | close`: the operator's commands, on the store
of a running server (both stores), seen at once through its API."""
import subprocess

import accounts as a
import api_harness as h


def user(server, *args, password=None):
    """Runs `starfish user ARGS --db DB` with `password` on standard input; (status, out, err)."""
    proc = subprocess.run([h.binary(), "user"] + list(args) + ["--db", server.db], input=password or "",
                          capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


def test_operator_commands_on_a_running_server():
    s = h.shared()
    name = a.fresh_name("Op")
    status, out, err = user(s, "create", name, password="chosen password\n")
    assert status == 0 and out == "%s: account made\n" % name, (status, out, err)
    member = a.login(s, name, "chosen password")
    other = a.login(s, name, "chosen password")
    made = a.fresh_name("Gen")
    status, out, err = user(s, "create", made)  # no password given: one is made and printed
    assert status == 0 and out.startswith("%s: account made; password " % made), out
    a.login(s, made, out.split("password ")[1].strip())
    status, out, _ = user(s, "list")
    assert status == 0 and name in out and made in out, out
    # A new password: every session of the account ends, on the running server at once.
    status, out, err = user(s, "reset-password", name.upper(), password="another password\n")
    assert status == 0 and "every session ended" in out, (status, out, err)
    member.error("GET", "/api/account", expect=401)
    other.error("GET", "/api/account", expect=401)
    s.error("POST", "/api/auth/login", {"username": name, "password": "chosen password"}, expect=401)
    member = a.login(s, name, "another password")
    status, out, err = user(s, "close", name)
    assert status == 0 and out == "%s: closed\n" % name, (status, out, err)
    member.error("GET", "/api/account", expect=401)
    s.error("POST", "/api/auth/login", {"username": name, "password": "another password"}, expect=401)
    status, out, _ = user(s, "list")
    assert [line for line in out.splitlines() if line.startswith(name + " ")][0].count("closed") == 1, out


def test_operator_errors():
    s = h.shared()
    taken = a.signup(s)
    for args, password, expect in ((("create", taken.name.lower()), "long enough\n", "taken"),
                                   (("create", "no"), "long enough\n", "3 to 20"),
                                   (("create", a.fresh_name()), "short\n", "8 to 128"),
                                   (("reset-password", "nobody_at_all"), "long enough\n", "no account"),
                                   (("close", "nobody_at_all"), None, "no account")):
        status, out, err = user(s, *args, password=password)
        assert status == 1 and out == "" and err.count("\n") == 1 and expect in err, (args, status, out, err)
    for args in (("frob",), ("create",), ("close", "a", "b")):
        status, _, err = user(s, *args)
        assert status == 2 and err.startswith("starfish: user"), (args, status, err)
    proc = subprocess.run([h.binary(), "user", "list", "--db", "/nonexistent/dir/x.db"], capture_output=True,
                          text=True, timeout=30)
    assert proc.returncode == 1 and proc.stderr.startswith("starfish: user: cannot open"), proc.stderr
