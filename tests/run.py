#!/usr/bin/env python3
"""The starfish test runner: every test, one line each, then `N passed, N failed`.

Sections:
  unit      the C unit tests (build/release/unit-tests)
  perft     the perft suites in tests/perft/*.epd, through `starfish perft`, and their smaller
            counts through build/release/rules-perft (the rules library linked alone)
  protocol  tests/protocol/test_*.py, which drive the real binary over UCI and the CLI
  api       tests/api/test_*.py, which drive `starfish serve` over real HTTP
  api-pg    the same with the servers on PostgreSQL (a throw-away cluster), but the tests of
            the SQLite file
  browser   tests/browser/run.mjs: Chromium (playwright-core) playing through the web UI
  bench     the search benchmark's node count against tests/bench-signature
  fuzz      each libFuzzer target (tests/fuzz/fuzz_*.c): its regression inputs, then a few seconds
  asan      unit, perft (smaller limit) and protocol again, built with ASan+UBSan
  mpi       tests/scale/test_mpi.py: matches and tablebases on two MPI ranks (starfish-mpi)
  scale     every test of tests/scale (`make test-scale`): mpi, the 4-man tables on two ranks,
            and the web app on two instances behind nginx, on PostgreSQL
  tournament  tests/tournament (`make test-tournaments`, minutes; not in the default run):
            `starfish bot` processes playing arenas and a round robin, on SQLite and on two
            instances on PostgreSQL with the pairing one killed

`--deep` runs every perft count in the suites (minutes) with the release build only.
`--only SECTION` runs one section.  `make fuzz-long` runs the fuzz section alone, longer
(`--fuzz-seconds`), its corpora kept (`--fuzz-corpus`).
"""
import argparse
import importlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RELEASE_BIN = os.path.join(ROOT, "starfish")
ASAN_BIN = os.path.join(ROOT, "build", "asan", "starfish")

RULES_PERFT = [os.path.join(ROOT, "build", "release", "rules-perft")]

# Perft counts above these limits are left to `make perft-deep`.
PERFT_LIMIT = 200_000_000
RULES_PERFT_LIMIT = 1_000_000
ASAN_PERFT_LIMIT = 300_000
# The whole browser suite, seconds: past it the tests not yet finished count as one failure.
BROWSER_TIMEOUT = 900


class Results:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def record(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"PASS {name}", flush=True)
        else:
            self.failed += 1
            print(f"FAIL {name}: {detail}", flush=True)


def run_unit(results, binary, label):
    proc = subprocess.run([binary], capture_output=True, text=True, timeout=600)
    failures = {}
    for line in proc.stdout.splitlines():
        if line.startswith("ok "):
            results.record(f"{label} {line[3:]}", True)
        elif line.startswith("FAIL "):
            name, _, detail = line[5:].partition(": ")
            failures.setdefault(name, []).append(detail)
    for name, details in failures.items():
        results.record(f"{label} {name}", False, "; ".join(details))
    if proc.returncode not in (0, 1) or (proc.returncode == 1 and not failures):
        results.record(f"{label} exit", False, f"status {proc.returncode}: {proc.stderr[-2000:]}")


def perft_cases():
    """Yields (file, variant, fen, depth, expected) from the suites."""
    folder = os.path.join(ROOT, "tests", "perft")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".epd"):
            continue
        with open(os.path.join(folder, name)) as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                variant, fen, *counts = line.split(";")
                for c in counts:
                    d, n = c.split()
                    yield name, variant, fen, int(d[1:]), int(n)


def run_perft(results, command, label, limit):
    """The suites' counts up to limit, each from `command VARIANT DEPTH FEN`."""
    for name, variant, fen, depth, expected in perft_cases():
        if expected > limit:
            continue
        test = f"{label} {name} {variant} '{fen}' depth {depth}"
        proc = subprocess.run(command + [variant, str(depth), fen], capture_output=True, text=True,
                              timeout=1800)
        got = None
        for line in proc.stdout.splitlines():
            if line.startswith("Nodes searched:"):
                got = int(line.split(":")[1])
        results.record(test, proc.returncode == 0 and got == expected,
                       f"expected {expected}, got {got} (exit {proc.returncode}) {proc.stderr.strip()}")


# A test that runs this long says so after its name (what to look at when the run grows long).
SLOW_TEST_SECONDS = 5


def took(began):
    seconds = time.time() - began
    return f" ({seconds:.0f} s)" if seconds >= SLOW_TEST_SECONDS else ""


def run_protocol(results, binary, label, folder_name="protocol", only_file=None):
    """Calls every test_* function of tests/FOLDER/test_*.py (or of only_file there); the binary
    is in STARFISH_BIN."""
    os.environ["STARFISH_BIN"] = binary
    # Sanitized builds run several times slower: tests that time the engine scale their limits.
    os.environ["STARFISH_TIME_SCALE"] = "10" if binary == ASAN_BIN else "1"
    folder = os.path.join(ROOT, "tests", folder_name)
    if not os.path.isdir(folder):
        return
    sys.path.insert(0, folder)
    for name in sorted(os.listdir(folder)):
        if not (name.startswith("test_") and name.endswith(".py")) or only_file not in (None, name):
            continue
        module = importlib.import_module(name[:-3])
        for fn_name in sorted(n for n in dir(module) if n.startswith("test_")):
            fn = getattr(module, fn_name)
            backend = os.environ.get("STARFISH_TEST_DB", "sqlite")
            if not callable(fn) or getattr(fn, "only_on", backend) != backend:  # a test of the other store
                continue
            began = time.time()
            try:
                fn()
                results.record(f"{label} {name[:-3]}.{fn_name}{took(began)}", True)
            except Exception as e:  # a failed assert or a crash of the test itself
                detail = f"{type(e).__name__}: {e}" if str(e) else traceback.format_exc(limit=2)
                results.record(f"{label} {name[:-3]}.{fn_name}{took(began)}", False, detail.strip()[:2000])


def run_api_postgresql(results):
    """The API suite again with every server on PostgreSQL (tests/api/api_harness.py starts a
    throw-away cluster), leaving out the tests of the SQLite file itself."""
    os.environ["STARFISH_TEST_DB"] = "postgresql"
    try:
        run_protocol(results, RELEASE_BIN, "api-pg", "api")
    finally:
        del os.environ["STARFISH_TEST_DB"]


def run_browser(results):
    """The browser tests (tests/browser/run.mjs): real Chromium clicking through the real UI."""
    env = dict(os.environ, STARFISH_BIN=RELEASE_BIN)
    # In a session of its own, so that a timeout ends the servers and browsers it started too.
    proc = subprocess.Popen(["node", os.path.join(ROOT, "tests", "browser", "run.mjs")], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT, start_new_session=True)
    timed_out = False
    try:
        out, err = proc.communicate(timeout=BROWSER_TIMEOUT)
    except subprocess.TimeoutExpired:  # the tests that finished count; the rest is one failure
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        timed_out = True
    seen = 0
    for line in out.splitlines():
        if line.startswith("PASS "):
            results.record(f"browser {line[5:]}", True)
            seen += 1
        elif line.startswith("FAIL "):
            name, _, detail = line[5:].partition(": ")
            results.record(f"browser {name}", False, detail)
            seen += 1
    if timed_out:
        results.record("browser run", False, f"timed out after {BROWSER_TIMEOUT} s")
    elif proc.returncode != 0 and seen == 0:
        results.record("browser run", False, f"exit {proc.returncode}: {(err or out)[-2000:]}")


def run_bench(results):
    """`starfish bench` must search exactly the node count recorded in tests/bench-signature's
    first line, and `starfish bench --no-nnue` (the hand-written evaluation) the count of its
    second: the engine is deterministic, and a change to search or evaluation changes the count
    (then update the file and name the new count in the commit message as `Bench: N`)."""
    with open(os.path.join(ROOT, "tests", "bench-signature")) as f:
        signatures = [line.split() for line in f.read().splitlines() if line.strip()]
    for expected, options in ((int(signatures[0][0]), []), (int(signatures[1][0]), ["--no-nnue"])):
        proc = subprocess.run([RELEASE_BIN, "bench"] + options, capture_output=True, text=True, timeout=600)
        got = None
        for line in proc.stdout.splitlines():
            if line.startswith("Nodes searched"):
                got = int(line.split(":")[1])
        results.record(" ".join(["bench signature"] + options), got == expected,
                       f"bench {' '.join(options)} searched {got} nodes, signature says {expected}")


FUZZ_DIR = os.path.join(ROOT, "tests", "fuzz")


def fuzz_targets():
    """The libFuzzer targets: one per tests/fuzz/fuzz_NAME.c, built as build/fuzz/fuzz-NAME."""
    return sorted(f[len("fuzz_"):-2] for f in os.listdir(FUZZ_DIR) if f.startswith("fuzz_") and f.endswith(".c"))


def fuzz_figures(stderr):
    """Executions, executions per second, coverage (cov: edges, ft: features) of a run."""
    stat = dict(re.findall(r"^stat::(\w+):\s*(\d+)", stderr, re.M))
    cov = re.findall(r"cov: (\d+) ft: (\d+)", stderr)
    cov, ft = cov[-1] if cov else ("?", "?")
    return (f"{stat.get('number_of_executed_units', '?')} runs, {stat.get('average_exec_per_sec', '?')} exec/s, "
            f"cov {cov}, ft {ft}")


# Flags for the long runs only (make fuzz-long), where a target's cost per execution counts.
# api: new games stay in the game table after their request, so most inputs allocate more than
# they free and LeakSanitizer stops the world to scan the heap after each (about 45 % of the CPU);
# make test's runs keep that leak check.
LONG_RUN_FLAGS = {"api": ["-detect_leaks=0"]}


def fuzz_passed(proc):
    """A fuzz run passed: it ended well and no sanitizer reported anything on the way (should a
    build let undefined behaviour go on, the run would end well all the same)."""
    return proc.returncode == 0 and "runtime error:" not in proc.stderr


def run_fuzz(results, seconds, corpus_root=None, names=None):
    """Each target: its regression inputs (every crash found, once each), then `seconds` of
    fuzzing from its seeds (tests/fuzz/seeds/NAME) and, with corpus_root, the corpus grown by
    earlier runs (corpus_root/NAME, where the new inputs go, and any crash)."""
    for name in names or fuzz_targets():
        fuzzer = os.path.join(ROOT, "build", "fuzz", "fuzz-" + name)
        if not os.path.exists(fuzzer):
            results.record(f"fuzz {name}", False, f"{fuzzer} is not built (make build/fuzz/fuzz-{name})")
            continue
        regressions = os.path.join(FUZZ_DIR, "regressions", name)
        inputs = sorted(os.path.join(regressions, f) for f in os.listdir(regressions)) if os.path.isdir(regressions) else []
        if inputs:
            proc = subprocess.run([fuzzer, "-timeout=30"] + inputs, capture_output=True, text=True, timeout=600)
            results.record(f"fuzz {name} regressions ({len(inputs)} inputs)", fuzz_passed(proc), proc.stderr[-3000:])
        with tempfile.TemporaryDirectory() as scratch:
            corpus = os.path.join(corpus_root, name) if corpus_root else scratch
            os.makedirs(corpus, exist_ok=True)
            artifacts = os.path.join(corpus_root or scratch, name + "-")
            flags = LONG_RUN_FLAGS.get(name, []) if corpus_root else []
            proc = subprocess.run([fuzzer, f"-max_total_time={seconds}", "-print_final_stats=1", "-timeout=60",
                                   f"-artifact_prefix={artifacts}"] + flags + [corpus, os.path.join(FUZZ_DIR, "seeds", name)],
                                  capture_output=True, text=True, timeout=seconds + 300)
            results.record(f"fuzz {name} ({seconds} s, {fuzz_figures(proc.stderr)})", fuzz_passed(proc),
                           proc.stderr[-3000:])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deep", action="store_true", help="every perft count, release build only")
    parser.add_argument("--only", choices=["unit", "perft", "protocol", "api", "api-pg", "browser", "bench", "fuzz",
                                           "asan", "mpi", "scale", "tournament"])
    parser.add_argument("--fuzz-seconds", type=int, default=6, help="per fuzz target")
    parser.add_argument("--fuzz-corpus", help="keep each target's corpus in FUZZ_CORPUS/NAME")
    parser.add_argument("--fuzz-targets", help="the fuzz targets to run, by name (default: all)")
    args = parser.parse_args()
    results = Results()
    start = time.time()
    sections = [args.only] if args.only else ["unit", "perft", "protocol", "api", "api-pg", "browser", "bench", "fuzz",
                                              "mpi",
                                              "asan"]
    if args.deep:
        sections = ["perft"]
    if "unit" in sections:
        run_unit(results, os.path.join(ROOT, "build", "release", "unit-tests"), "unit")
    if "perft" in sections:
        run_perft(results, [RELEASE_BIN, "perft"], "perft", float("inf") if args.deep else PERFT_LIMIT)
        if not args.deep:
            run_perft(results, RULES_PERFT, "librules perft", RULES_PERFT_LIMIT)
    if "protocol" in sections:
        run_protocol(results, RELEASE_BIN, "protocol")
    if "api" in sections:
        run_protocol(results, RELEASE_BIN, "api", "api")
    if "api-pg" in sections:
        run_api_postgresql(results)
    if "browser" in sections:
        run_browser(results)
    if "bench" in sections:
        run_bench(results)
    if "fuzz" in sections:
        run_fuzz(results, args.fuzz_seconds, args.fuzz_corpus, (args.fuzz_targets or "").split())
    if "mpi" in sections:
        run_protocol(results, RELEASE_BIN, "mpi", "scale", "test_mpi.py")
    if "scale" in sections:
        run_protocol(results, RELEASE_BIN, "scale", "scale")
    if "tournament" in sections:
        run_protocol(results, RELEASE_BIN, "tournament", "tournament")
    if "asan" in sections:
        os.environ["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=1"
        os.environ["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
        run_unit(results, os.path.join(ROOT, "build", "asan", "unit-tests"), "asan unit")
        run_perft(results, [ASAN_BIN, "perft"], "asan perft", ASAN_PERFT_LIMIT)
        run_protocol(results, ASAN_BIN, "asan protocol")
        run_protocol(results, ASAN_BIN, "asan api", "api")
    print(f"# {time.time() - start:.0f} s")
    print(f"{results.passed} passed, {results.failed} failed")
    return 1 if results.failed or results.passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
