#!/bin/sh
# Nodes a second of Cairn and of other TEI engines on the same positions, one thread each.
#
#   benches/peer-nps.sh [CLOCK_MS] [SIZE]          (defaults: 30000 ms, size 6)
#
# The positions are `cairn bench`'s middlegames of that size (read from src/bench.rs). Each
# engine is started afresh for each position and given a clock of CLOCK_MS for both sides
# (`go wtime btime`: Topaz-classical cuts `go movetime` short), and its last `info` line with
# `nodes` and `time` gives the rate: the nodes it searched in the time it chose to use. Engines: Cairn ($CAIRN, default target/release/cairn) and
# whichever of topaz-classical and tiltak-tei are in $SPARRING (default ../shared/sparring/bin).
# Run it on an otherwise idle machine: the engines are measured one after another, so a busy
# core would favour whichever ran while it was quiet.
set -eu

clock=${1:-30000}
size=${2:-6}
cairn=${CAIRN:-target/release/cairn}
sparring=${SPARRING:-../shared/sparring/bin}
[ -x "$cairn" ] || { echo "peer-nps: $cairn not found: cargo build --release first" >&2; exit 1; }

positions=$(grep -o "($size, \"[^\"]*\")" src/bench.rs | sed 's/^([0-9]*, "//; s/")$//' |
  grep -v "^x$size\(/x$size\)* 1 1$")
[ -n "$positions" ] || { echo "peer-nps: no size-$size positions in src/bench.rs" >&2; exit 1; }

engines="cairn=$cairn"
for name in topaz-classical tiltak-tei; do
  [ -x "$sparring/$name" ] && engines="$engines $name=$sparring/$name"
done

# One search: prints "nodes time_ms" from the engine's last info line that has both, taken from
# the same line so that they agree: Topaz-classical glues its last info line onto an
# "Aborted ... Nodes: N" line when it cuts an iteration off, and its info lines count finished
# iterations only.
search() {
  { printf 'tei\nsetoption name HalfKomi value 4\nteinewgame %s\nisready\n' "$size"
    printf 'position tps %s\ngo wtime %s btime %s\n' "$1" "$clock" "$clock"
    sleep $(( clock / 5000 + 1 ))
    printf 'quit\n'
  } | "$2" 2>/dev/null |
    awk '/(^| )info / { n = ""; t = "";
                   for (i = 1; i < NF; i++) { if ($i == "nodes") n = $(i + 1); if ($i == "time") t = $(i + 1) }
                   if (n != "" && t != "") last = n " " t }
         END { print last }'
}

printf '%-16s %12s %12s %10s\n' engine nodes ms nps
for entry in $engines; do
  name=${entry%%=*}
  cmd=${entry#*=}
  total_nodes=0
  total_ms=0
  echo "$positions" | {
    while read -r tps; do
      set -- $(search "$tps" "$cmd")
      [ $# -eq 2 ] || { echo "peer-nps: $name gave no nodes/time on: $tps" >&2; continue; }
      echo "peer-nps: $name: $tps: $1 nodes in $2 ms" >&2
      total_nodes=$((total_nodes + $1))
      total_ms=$((total_ms + $2))
    done
    [ "$total_ms" -gt 0 ] || total_ms=1
    printf '%-16s %12s %12s %10s\n' "$name" "$total_nodes" "$total_ms" \
      $((total_nodes * 1000 / total_ms))
  }
done
