"""`make install` into a scratch DESTDIR: every file where the Filesystem Hierarchy Standard
puts it, the installed program serving its installed web files and puzzles without being told
where they are, the manual page (complete, lint-clean), the systemd units verified by
`systemd-analyze verify`, settings kept across installs, and `make uninstall`.

These install the default build (make's own targets), whatever binary the other tests run,
and return at once in the sanitizer pass, which would only repeat them.
Plain test_* functions with plain asserts; tests/run.py imports the module and calls them.
"""
import os
import re
import shutil
import socket
import subprocess
import tempfile
import urllib.request

from harness import REPO_ROOT, sanitized

PREFIX = "/usr/local"
UNITS = ["starfish.service", "starfish-backup.service", "starfish-backup.timer"]


def make(*args, timeout=600):
    """Runs make in the repository as a command of its own (not a job of the make running the
    tests: its jobserver is not ours)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    proc = subprocess.run(["make", "-s", "-C", REPO_ROOT] + list(args), capture_output=True, text=True,
                          timeout=timeout, env=env)
    assert proc.returncode == 0, "make %s: exit %d: %s" % (" ".join(args), proc.returncode, proc.stderr[-3000:])
    return proc.stdout


class Installed:
    """One `make install` into a scratch DESTDIR, removed at the end."""

    def __init__(self):
        self.dest = tempfile.mkdtemp(prefix="starfish-install-")
        make("install", "DESTDIR=" + self.dest, "PREFIX=" + PREFIX)

    def path(self, *parts):
        return os.path.join(self.dest, *[p.lstrip("/") for p in parts])

    def files(self):
        found = []
        for folder, _, names in os.walk(self.dest):
            found += [os.path.relpath(os.path.join(folder, n), self.dest) for n in names]
        return sorted(found)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.dest, ignore_errors=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port, path):
    with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path), timeout=10) as r:
        return r.status, r.read()


def test_install_puts_each_file_in_its_place():
    if sanitized():
        return
    with Installed() as inst:
        files = inst.files()
        expected = ["usr/local/bin/starfish", "usr/local/share/man/man1/starfish.1",
                    "usr/local/share/starfish/web/index.html", "usr/local/share/starfish/data/puzzles/chess.epd",
                    "usr/local/share/starfish/data/openings/chess.epd", "usr/local/share/doc/starfish/README.md",
                    "usr/local/share/doc/starfish/CHANGELOG.md", "usr/local/share/doc/starfish/docs/deploy.md",
                    "usr/local/share/doc/starfish/deploy/nginx-club.conf", "usr/local/lib/sysusers.d/starfish.conf",
                    "etc/starfish/starfish.env"] + ["usr/local/lib/systemd/system/" + u for u in UNITS]
        missing = [f for f in expected if f not in files]
        assert not missing, "not installed: %r" % missing
        assert os.access(inst.path(PREFIX, "bin/starfish"), os.X_OK)
        assert oct(os.stat(inst.path(PREFIX, "share/starfish/web/index.html")).st_mode & 0o777) == "0o644"
        with open(inst.path(PREFIX, "lib/systemd/system/starfish.service")) as f:
            unit = f.read()
        assert "ExecStart=%s/bin/starfish serve" % PREFIX in unit, "the unit must run the installed program"


def test_installed_program_serves_its_installed_files():
    if sanitized():
        return
    with Installed() as inst:
        program = inst.path(PREFIX, "bin/starfish")
        out = subprocess.run([program, "--version"], capture_output=True, text=True).stdout
        assert out == subprocess.run([os.path.join(REPO_ROOT, "starfish"), "--version"], capture_output=True,
                                     text=True).stdout, "the installed program is not the one built"
        work = tempfile.mkdtemp(prefix="starfish-installed-")  # no web/ nor data/ here
        port = free_port()
        proc = subprocess.Popen([program, "serve", "--port", str(port), "--db", os.path.join(work, "games.db")],
                                cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = proc.stdout.readline()
            assert line.startswith("starfish: serving"), "the installed server did not start: %r %r" % (
                line, proc.stderr.read() if proc.poll() is not None else "")
            status, body = get(port, "/")
            with open(inst.path(PREFIX, "share/starfish/web/index.html"), "rb") as f:
                assert status == 200 and body == f.read(), "GET / is not the installed index.html"
            status, body = get(port, "/api/puzzles/chess")
            assert status == 200 and b"puzzles" in body, "the installed puzzles are not served: %r" % body[:200]
        finally:
            proc.terminate()
            proc.wait(timeout=15)
            shutil.rmtree(work, ignore_errors=True)


def test_manual_page_is_complete_and_clean():
    if sanitized():
        return
    with Installed() as inst:
        page = inst.path(PREFIX, "share/man/man1/starfish.1")
        lint = subprocess.run(["mandoc", "-T", "lint", "-W", "warning", page], capture_output=True, text=True)
        assert lint.returncode == 0 and not lint.stdout.strip(), "mandoc: %s" % lint.stdout[:2000]
        text = subprocess.run(["mandoc", "-T", "utf8", page], capture_output=True, text=True).stdout
        text = re.sub(".\b", "", text)  # no overstrike
        starfish = os.path.join(REPO_ROOT, "starfish")
        commands = re.findall(r"^  starfish (\w+)", subprocess.run([starfish, "help"], capture_output=True,
                                                                  text=True).stdout, re.M)
        for command in commands:
            assert "starfish " + command in text, "the manual page lacks `starfish %s`" % command
            if command in ("help", "tb"):
                continue
            options = re.findall(r"^  (--[\w-]+)", subprocess.run([starfish, command, "--help"], capture_output=True,
                                                                  text=True).stdout, re.M)
            for option in set(options) - {"--help"}:
                assert option in text, "the manual page lacks %s of %s" % (option, command)
        for needed in ("tb generate", "UCI_Variant", "STARFISH_PEXT", "SIGTERM"):
            assert needed in text, "the manual page lacks %r" % needed


def test_systemd_units_verify():
    """`systemd-analyze verify` on the installed units, their program and settings taken from
    the DESTDIR; it prints what it finds wrong (and exits 0 for most of it), so any output
    fails.  A unit spoiled on purpose must be caught, or the check checks nothing."""
    if sanitized():
        return
    with Installed() as inst:
        folder = tempfile.mkdtemp(prefix="starfish-units-")
        try:
            units = []
            for unit in UNITS:
                with open(inst.path(PREFIX, "lib/systemd/system", unit)) as f:
                    text = f.read().replace(PREFIX + "/bin/starfish", inst.path(PREFIX, "bin/starfish"))
                    text = text.replace("/etc/starfish/", inst.path("/etc/starfish") + "/")
                units.append(os.path.join(folder, unit))
                with open(units[-1], "w") as f:
                    f.write(text)
            env = dict(os.environ, MANPATH=inst.path(PREFIX, "share/man"))
            verify = subprocess.run(["systemd-analyze", "verify"] + units, capture_output=True, text=True, env=env)
            assert verify.returncode == 0 and not (verify.stdout + verify.stderr).strip(), \
                "systemd-analyze verify: %s%s" % (verify.stdout, verify.stderr)
            with open(units[0]) as f:
                spoiled = f.read().replace("ProtectSystem=strict", "ProtectSystem=strickt")
            with open(units[0], "w") as f:
                f.write(spoiled)
            verify = subprocess.run(["systemd-analyze", "verify", units[0]], capture_output=True, text=True, env=env)
            assert "strickt" in verify.stdout + verify.stderr, "a spoiled unit passed: %r" % verify
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def test_settings_survive_install_and_uninstall_removes_the_rest():
    if sanitized():
        return
    with Installed() as inst:
        settings = inst.path("/etc/starfish/starfish.env")
        with open(settings, "a") as f:
            f.write("STARFISH_OPTIONS=--port 9000\n")
        make("install", "DESTDIR=" + inst.dest, "PREFIX=" + PREFIX)
        with open(settings) as f:
            assert f.read().endswith("--port 9000\n"), "install overwrote the settings"
        make("uninstall", "DESTDIR=" + inst.dest, "PREFIX=" + PREFIX)
        assert inst.files() == ["etc/starfish/starfish.env"], "left after uninstall: %r" % inst.files()[:20]


def test_club_nginx_configuration_is_valid():
    """deploy/nginx-club.conf, as docs/deploy.md installs it, passes `nginx -t` (with a
    self-signed certificate in place of the real one)."""
    if sanitized():
        return
    folder = tempfile.mkdtemp(prefix="starfish-nginx-")
    try:
        cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                        "/CN=chess.example.org", "-keyout", key, "-out", cert], check=True, capture_output=True)
        with open(os.path.join(REPO_ROOT, "deploy", "nginx-club.conf")) as f:
            site = f.read()
        site = site.replace("/etc/letsencrypt/live/chess.example.org/fullchain.pem", cert)
        site = site.replace("/etc/letsencrypt/live/chess.example.org/privkey.pem", key)
        site = site.replace("/var/log/nginx/", folder + "/")
        with open(os.path.join(folder, "site.conf"), "w") as f:
            f.write(site)
        with open(os.path.join(folder, "nginx.conf"), "w") as f:
            f.write("pid %s/nginx.pid;\nerror_log %s/error.log;\nevents {}\nhttp {\n    access_log off;\n"
                    "    include %s/site.conf;\n}\n" % (folder, folder, folder))
        proc = subprocess.run(["nginx", "-t", "-p", folder + "/", "-c", os.path.join(folder, "nginx.conf")],
                              capture_output=True, text=True)
        assert proc.returncode == 0, "nginx -t: %s" % proc.stderr
    finally:
        shutil.rmtree(folder, ignore_errors=True)
