#!/bin/sh
# Draws every picture of the docs again, from inputs in the repository:
#   eval.svg    the evaluation graph of docs/games/example-6x6.ptn (cairn analyze --game --plot);
#   report.svg  the report of the match in docs/games/tiltak-6x6-odds.ptn (cairn report --plot).
# The analysis searches a fixed number of nodes on one thread, so the same binary draws the same
# picture byte for byte. Run from anywhere; CAIRN names the binary (default: the release build,
# made first).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
if [ -z "${CAIRN:-}" ]; then
    cargo build --release --quiet
    CAIRN=$root/target/release/cairn
fi
"$CAIRN" analyze --game docs/games/example-6x6.ptn --nodes 200000 --threads 1 \
    --plot docs/pictures/eval.svg >/dev/null
"$CAIRN" report docs/games/tiltak-6x6-odds.ptn --plot docs/pictures/report.svg >/dev/null
echo "drew docs/pictures/eval.svg and docs/pictures/report.svg"
