#!/bin/sh
# Soak test: many fast games through `cairn match`, mixing board sizes 4-8, komi, one and two
# search threads, Cairn against itself and against the sparring engines when they are there.
# Every game is kept as PTN; the end is a count of the games and of every forfeit by Cairn
# (crash, hang, illegal or malformed move, time), which should all be zero.
#
#   benches/soak.sh [GAMES] [TC] [OUT_DIR]      (defaults: 1000 games, 1+0.02, target/soak)
#
# Sparring engines are looked for in $SPARRING (default ../shared/sparring/bin): tiltak-tei
# (sizes 4-6, komi 0 or 2) and topaz-classical (sizes 5-6). Without them the soak is self-play.
# Games run side by side, as many as the cores hold when each engine thinks on its own thread
# ($SOAK_CORES, default all of them): two-thread pairings get a core per thread. Run it on an
# otherwise idle machine: a starved core makes any engine lose on time.
set -eu

games=${1:-1000}
tc=${2:-1+0.02}
out=${3:-target/soak}
cairn=${CAIRN:-target/release/cairn}
sparring=${SPARRING:-../shared/sparring/bin}
cores=${SOAK_CORES:-$(nproc 2>/dev/null || echo 1)}
mkdir -p "$out"
[ -x "$cairn" ] || { echo "soak: $cairn not found: cargo build --release first" >&2; exit 1; }

# One line per pairing: size komi threads opponent (self | tiltak | topaz).
plan="$out/plan.txt"
: > "$plan"
for size in 4 5 6 7 8; do
  for komi in 0 2 1.5; do
    for threads in 1 2; do
      echo "$size $komi $threads self" >> "$plan"
    done
  done
done
if [ -x "$sparring/tiltak-tei" ]; then
  for size in 4 5 6; do
    for komi in 0 2; do echo "$size $komi 1 tiltak" >> "$plan"; done
  done
fi
if [ -x "$sparring/topaz-classical" ]; then
  for size in 5 6; do
    for komi in 0 2; do echo "$size $komi 1 topaz" >> "$plan"; done
  done
fi
pairings=$(wc -l < "$plan")
# Whole pairs of games per pairing, at least one pair each.
per=$(( (games + pairings - 1) / pairings ))
per=$(( (per + 1) / 2 * 2 ))

started=$(date +%s)
n=0
while read -r size komi threads opponent; do
  n=$((n + 1))
  case "$opponent" in
    self) other="cmd=$cairn name=cairn-b option.Threads=$threads" ;;
    tiltak) other="cmd=$sparring/tiltak-tei name=tiltak" ;;
    topaz) other="cmd=$sparring/topaz-classical name=topaz" ;;
  esac
  book=""
  [ -f "openings/${size}s_2ply.txt" ] && book="--book openings/${size}s_2ply.txt"
  tag="s${size}-k${komi}-t${threads}-${opponent}"
  side=$(( cores / threads ))
  [ "$side" -ge 1 ] || side=1
  echo "soak: pairing $n/$pairings: $tag, $per games, $side at a time" >&2
  # shellcheck disable=SC2086
  "$cairn" match --size "$size" --komi "$komi" --tc "$tc" --games "$per" $book --concurrency "$side" \
    --engine "cmd=$cairn name=cairn option.Threads=$threads" --engine "$other" \
    --ptn "$out/$tag.ptn" > "$out/$tag.txt" 2> "$out/$tag.log" || {
      echo "soak: $tag: cairn match failed (see $out/$tag.log)" >&2
    }
  tail -n 1 "$out/$tag.txt" >&2 || true
done < "$plan"

played=$(cat "$out"/*.ptn | grep -c '^\[Result ' || true)
count() { cat "$out"/*.ptn | grep '^\[Termination "cairn' | grep -c "$1" || true; }
echo "soak: $played games in $(( $(date +%s) - started )) s; forfeits by Cairn:" \
  "crashed $(count crashed), no move $(count 'no move'), on time $(count 'lost on time')," \
  "illegal $(count illegal), malformed $(count malformed)"
