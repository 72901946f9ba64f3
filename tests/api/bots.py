"""Helpers for the tests of `starfish bot`: bot accounts with their tokens, and bot processes
(their config written to a file, their log read while they run, stopped by a signal).

It is not a test module (no test_ prefix): the bot tests import it.
"""
import atexit
import os
import re
import signal
import subprocess
import tempfile
import time

import accounts as a
import api_harness as h
from test_api_board import bot

_running = []


def bot_account(server):
    """A new account, acting by a personal token as a bot does, made a bot by the token (POST
    /api/bot/account/upgrade, lichess's endpoint)."""
    b = bot(a.signup(server))
    assert b.call("POST", "/api/bot/account/upgrade", {}) == {"ok": True}
    return b


class BotProcess:
    """`starfish bot --server URL --token TOKEN --config FILE` (the config's lines given), its
    standard error in a file read as it grows."""

    def __init__(self, url, token, config=(), args=()):
        self.dir = tempfile.mkdtemp(prefix="starfish-bot-")
        self.config = os.path.join(self.dir, "bot.conf")
        with open(self.config, "w") as f:
            f.write("".join(line + "\n" for line in config))
        self.log_path = os.path.join(self.dir, "stderr")
        self.command = [h.binary(), "bot", "--server", url, "--token", token, "--config", self.config] + list(args)
        self.proc = None
        self.start()
        _running.append(self)

    def start(self):
        with open(self.log_path, "ab") as err:
            self.proc = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)

    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def wait_log(self, pattern, timeout=30, count=1):
        """Waits until the log matches pattern (a regular expression) count times; returns the
        matches."""
        deadline = time.time() + timeout
        while True:
            found = re.findall(pattern, self.log())
            if len(found) >= count:
                return found
            assert self.proc.poll() is None, "the bot exited (%d) before %r:\n%s" % (self.proc.returncode, pattern,
                                                                                      self.log())
            assert time.time() < deadline, "no %r in the bot's log within %d s:\n%s" % (pattern, timeout, self.log())
            time.sleep(0.05)

    def children(self):
        """The pids of the bot's child processes (its engines)."""
        out = []
        for task in os.listdir("/proc/%d/task" % self.proc.pid):
            with open("/proc/%d/task/%s/children" % (self.proc.pid, task)) as f:
                out += [int(pid) for pid in f.read().split()]
        return out

    def stop(self, sig=signal.SIGTERM, timeout=30):
        """Signals the bot and waits for it; returns its exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise AssertionError("the bot did not stop within %d s of signal %d:\n%s" % (timeout, sig, self.log()))
        return self.proc.returncode

    def sanitizer_reports(self):
        text = self.log()
        return [text[-4000:]] if any(mark in text for mark in h.SANITIZER_MARKS) else []


@atexit.register
def _stop_all():
    for running in _running:
        if running.proc and running.proc.poll() is None:
            running.proc.kill()
            running.proc.wait()
