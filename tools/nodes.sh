#!/bin/sh
# Runs a UCI engine with every `go ...` turned into `go nodes N`: matches at a fixed node
# count are unaffected by the machine's load.  usage: nodes.sh N ENGINE [ARGS...]
n=$1; shift
sed -u "s/^go .*/go nodes $n/" | "$@"
