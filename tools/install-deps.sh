#!/usr/bin/env bash
# Installs what building, testing and benchmarking starfish need on a fresh Debian machine.
# Safe to run again: packages already present are left alone.
set -euo pipefail
packages=(
  gcc make                 # the build
  libmicrohttpd-dev libjansson-dev libsqlite3-dev # the web server: HTTP, JSON, the game store
  libsodium-dev            # the accounts: Argon2id password hashes, SHA-256 of session ids and tokens
  libopenmpi-dev openmpi-bin # starfish-mpi: matches and tablebases over mpirun's ranks
  libpq-dev postgresql nginx # the game store on PostgreSQL, several instances behind nginx (tests)
  zlib1g-dev               # CRC-32 of the tablebase files
  libcurl4-openssl-dev     # starfish bot: HTTP to a server speaking lichess's Bot API
  clang libclang-rt-14-dev # libFuzzer and the sanitizer runtimes for the fuzz target
  python3                  # the test runner and protocol tests
  stockfish fairy-stockfish # peers for the perft benchmark
  chromium                 # browser tests (playwright-core drives Debian's chromium)
  sqlite3                  # browser tests: settle ratings in the test store for the leaderboard
  wrk                      # the web server's load test
  qemu-user                # the default build run as an older CPU (tests/protocol/test_portable.py)
  mandoc systemd           # make install's tests: the manual page linted, the units verified
  python3-prometheus-client # /metrics read by Prometheus's parser (tests/api/test_api_ops.py)
)
# The network trainer (tools/nnue_train.py, run by Debian's /usr/bin/python3): PyTorch on the
# CPU, numpy, matplotlib for the loss plot, SciPy for fitting the scale; without their
# recommends (OpenCV, Qt, GDAL...).
lean_packages=(python3-torch python3-numpy python3-matplotlib python3-scipy)
# Node.js for the browser tests: the machine's own if it has one, else Debian's.
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
# The packages named that are not installed yet, one a line.
absent() {
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}
mapfile -t missing < <(absent "${packages[@]}")
mapfile -t lean_missing < <(absent "${lean_packages[@]}")
if [ $((${#missing[@]} + ${#lean_missing[@]})) -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  [ ${#missing[@]} -eq 0 ] || DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
  [ ${#lean_missing[@]} -eq 0 ] ||
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${lean_missing[@]}"
fi

# npm packages: playwright-core for the browser tests.
here=$(cd "$(dirname "$0")/.." && pwd)
(cd "$here/tests/browser" && npm ci --no-audit --no-fund --silent)
