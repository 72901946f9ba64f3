#!/bin/sh
# Makes a net for one variant from nothing (docs/nnue.md): self-play positions searched with
# the hand-written evaluation, a net trained on them; then each further round plays with the
# last round's net, and the next net trains on every round's positions so far.
#
#   tools/train-net.sh VARIANT [ROUNDS]
#
# Settings from the environment (defaults in brackets): POSITIONS a round [1000000], NODES
# searched a move [1000], THREADS [2], HIDDEN [128], EPOCHS [10], LAMBDA [0.75], SCALE (the
# trainer's --scale) [fit: the scale at which the round's scores predict its results, so that a
# net keeps the centipawns of the scores it learns from, round after round], LR_DECAY (its --lr-decay) [1], FACTORISE (1: its --factorise) [0],
# WORK, the folder for the data, nets, plots and the log [build/nets-work/VARIANT].  Each step's time
# goes into WORK/log.  The nets are WORK/roundN.nnue; whether one is better than what it
# replaces is for a match to say (docs/nnue.md shows the commands), and the winner is copied
# to data/nets/VARIANT.nnue by hand.
set -eu
variant=${1:?usage: tools/train-net.sh VARIANT [ROUNDS]}
rounds=${2:-1}
positions=${POSITIONS:-1000000}
nodes=${NODES:-1000}
threads=${THREADS:-2}
work=${WORK:-build/nets-work/$variant}
root=$(cd "$(dirname "$0")/.." && pwd)
starfish="$root/starfish"
mkdir -p "$work"
log="$work/log"

timed() { # timed WHAT COMMAND...: runs it, notes its seconds in the log
    what=$1
    shift
    start=$(date +%s)
    "$@"
    echo "$what: $(($(date +%s) - start)) s" | tee -a "$log"
}

echo "$(date -u '+%Y-%m-%d %H:%M') $variant: $rounds rounds of $positions positions at $nodes nodes, $threads threads" >> "$log"
factorise=""
[ "${FACTORISE:-0}" = 1 ] && factorise="--factorise"
data=""
net=""
round=1
while [ "$round" -le "$rounds" ]; do
    evaluation="--no-nnue"
    [ -n "$net" ] && evaluation="--evalfile $net"
    timed "round $round: gensfen" "$starfish" gensfen "$variant" --positions "$positions" --nodes "$nodes" \
        --threads "$threads" --seed "$round" $evaluation --out "$work/round$round.sfpos"
    data="$data $work/round$round.sfpos"
    net="$work/round$round.nnue"
    # shellcheck disable=SC2086 # $data: one word a file
    timed "round $round: training" /usr/bin/python3 "$root/tools/nnue_train.py" $data --out "$net" \
        --hidden "${HIDDEN:-128}" --epochs "${EPOCHS:-10}" --lambda "${LAMBDA:-0.75}" --scale "${SCALE:-fit}" \
        --lr-decay "${LR_DECAY:-1}" $factorise \
        --threads "$threads" --plot "$work/round$round.png" | tee -a "$log"
    round=$((round + 1))
done
echo "the last net: $net" | tee -a "$log"
