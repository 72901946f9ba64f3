"""What every test folder's harness needs to know about the binary under test.

tests/protocol/harness.py and tests/api/api_harness.py both import it: a folder's tests have
only their own folder on the path, so neither harness can import the other's helpers.
"""
import os
import time

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def binary():
    """The binary under test: $STARFISH_BIN (a relative path is tried from the current
    directory, then from the repository root), else ./starfish at the repository root."""
    path = os.environ.get("STARFISH_BIN")
    if not path:
        return os.path.join(REPO_ROOT, "starfish")
    if os.path.isabs(path) or os.path.exists(path):
        return os.path.abspath(path)
    return os.path.join(REPO_ROOT, path)


def time_scale():
    """How much slower than the release build the binary under test runs (the test runner sets
    STARFISH_TIME_SCALE for sanitized builds): tests that time the engine multiply their
    limits by it."""
    return float(os.environ.get("STARFISH_TIME_SCALE", "1"))


def wait_for(predicate, seconds=20, what="a condition", step=0.2):
    """predicate()'s first true value, asked every `step` seconds; an AssertionError naming
    `what` after `seconds`."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError("timed out waiting for " + what)
