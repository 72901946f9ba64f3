#!/usr/bin/env bash
# Synthesises the web UI's sounds (web/sounds/*.ogg) with SoX: `tools/make-sounds.sh`.
# Needs `sox` and `libsox-fmt-base` (Ogg Vorbis); the files are committed, so nobody else has to.
set -euo pipefail
out=$(cd "$(dirname "$0")/.." && pwd)/web/sounds
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
part() { # NAME SECONDS SYNTH... : one mono 22.05 kHz piece
  local name=$1 len=$2
  shift 2
  sox -q -n -r 22050 -c 1 "$tmp/$name.wav" synth "$len" "$@"
}
ogg() { # NAME PARTS...: joins the parts, evens the level, writes NAME.ogg
  local name=$1
  shift
  sox -q "${@/#/$tmp/}" -C 3 "$out/$name.ogg" gain -n -3
}
# A piece set down: a short wooden pluck.
part tock 0.09 pluck 196 fade q 0.001 0.09 0.08
ogg move tock.wav
# A capture: two knocks, the second lower.
part knock1 0.06 pluck 262 fade q 0.001 0.06 0.05
part knock2 0.11 pluck 147 fade q 0.001 0.11 0.10
ogg capture knock1.wav knock2.wav
# Check: two bright tones.
part hi 0.09 sine 988 fade q 0.005 0.09 0.04
part lo 0.14 sine 740 fade q 0.005 0.14 0.08
ogg check hi.wav lo.wav
# Game start: a rising triad; game end: a falling one.
for n in 523 659 784; do part "up$n" 0.1 triangle "$n" fade q 0.005 0.1 0.05; done
ogg start up523.wav up659.wav up784.wav
for n in 784 659 523; do part "down$n" 0.16 triangle "$n" fade q 0.005 0.16 0.09; done
ogg end down784.wav down659.wav down523.wav
# Low time: two quiet ticks.
part tick 0.04 square 1318 fade q 0.002 0.04 0.03 gain -10
part gap 0.08 sine 0 gain -100
ogg lowtime tick.wav gap.wav tick.wav
ls -l "$out"
