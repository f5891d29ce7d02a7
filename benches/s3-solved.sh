#!/bin/sh
# 3×3 solved by the search: every position after two plies (72 of them, komi 0 unless KOMI is
# set), searched on one thread for up to MOVETIME ms (default 3000). Prints each start with the
# search's verdict, its depth and time, then a summary. The search stops as soon as its result is
# proven, so the time printed is the time to the proof.
#
#   benches/s3-solved.sh                    (KOMI=2 benches/s3-solved.sh for another komi)
set -eu
cairn=${CAIRN:-target/release/cairn}
komi=${KOMI:-0}
movetime=${MOVETIME:-3000}
[ -x "$cairn" ] || { echo "s3-solved: $cairn not found: cargo build --release first" >&2; exit 1; }
squares="a1 b1 c1 a2 b2 c2 a3 b3 c3"
proven=0 total=0 slowest=0
for a in $squares; do
    for b in $squares; do
        [ "$a" = "$b" ] && continue
        out=$("$cairn" analyze --size 3 --komi "$komi" --moves "$a $b" --movetime "$movetime" --threads 1 2>/dev/null)
        verdict=$(printf '%s\n' "$out" | sed -n 's/^Eval *//p')
        # `Search    depth D, N nodes in S s (R nps)`
        search=$(printf '%s\n' "$out" | grep '^Search' | tail -n 1)
        depth=$(printf '%s\n' "$search" | sed 's/^Search *depth \([0-9]*\),.*/\1/')
        ms=$(printf '%s\n' "$search" | sed 's/.* in \([0-9.]*\) s .*/\1/' | awk '{printf "%d", $1 * 1000}')
        total=$((total + 1))
        case "$verdict" in *" wins on "*) proven=$((proven + 1)) ;; esac
        [ "$ms" -gt "$slowest" ] && slowest=$ms
        printf '%s %s: %s (depth %s, %s ms)\n' "$a" "$b" "$verdict" "$depth" "$ms"
    done
done
echo "komi $komi: $proven of $total two-ply starts proven; slowest proof $slowest ms"
