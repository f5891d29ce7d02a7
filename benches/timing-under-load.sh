#!/bin/sh
# The tests that check timings (go movetime windows, the clock answer, session durations, idle
# timeouts), run again and again while every core is kept busy by other work: they must pass on
# a loaded machine, not only on an idle one.
#
#   benches/timing-under-load.sh [ROUNDS] [LOAD_PER_CORE]      (defaults: 3 rounds, 2 per core)
#
# The load is LOAD_PER_CORE busy loops per core (`nproc`), started before the first round and
# stopped at the end. Prints one line per round and a total; exits non-zero if any round failed.
set -eu

rounds=${1:-3}
per_core=${2:-2}
# The modules of the one integration-test binary (tests/all) that check timings.
filters="tei_protocol:: analyze:: ws:: playtak:: tinue:: tablut::"

cargo test --release --no-run --test all >&2

loads=$(( $(nproc) * per_core ))
pids=""
for _ in $(seq "$loads"); do
  sh -c 'while :; do :; done' &
  pids="$pids $!"
done
# shellcheck disable=SC2086
trap 'kill $pids 2>/dev/null || true' EXIT INT TERM
echo "timing-under-load: $loads busy loops on $(nproc) cores" >&2

failed=0
for round in $(seq "$rounds"); do
  started=$(date +%s)
  # shellcheck disable=SC2086
  if out=$(cargo test --release --test all -- $filters 2>&1); then verdict=passed; else verdict=FAILED; failed=$((failed + 1)); fi
  passed=$(echo "$out" | grep -o '[0-9]* passed' | awk '{s += $1} END {print s + 0}')
  echo "round $round: $verdict, $passed tests passed, $(( $(date +%s) - started )) s"
  [ "$verdict" = passed ] || echo "$out" | grep -E 'panicked|FAILED|failed' >&2 || true
done
echo "timing-under-load: $((rounds - failed)) of $rounds rounds passed under $loads busy loops"
[ "$failed" -eq 0 ]
