#!/bin/bash
# The cpudl check overhead (issue 28 section 2), binaries side by side:
#
#   bash bench/overhead.sh [-n RUNS] [-i INPUT] BINARY...
#
# runs `BINARY replay -q --stats --target cpudl INPUT` RUNS times (default 5)
# for each binary, the binaries alternately (so load falls on all), and
# prints each run's ratio bare ops/s / checked ops/s to three places and the
# median per binary. INPUT defaults to /tmp/cpudl256.raw, made by
# scripts/make-throughput-input.sh when missing. Timing only: compare
# binaries within one invocation, never against a number from another.
set -euo pipefail
runs=5 input=/tmp/cpudl256.raw
while getopts "n:i:" o; do
  case $o in
    n) runs=$OPTARG ;;
    i) input=$OPTARG ;;
    *) echo "usage: overhead.sh [-n RUNS] [-i INPUT] BINARY..." >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
  echo "overhead: error: no binary given (usage: overhead.sh [-n RUNS] [-i INPUT] BINARY...)" >&2
  exit 2
fi
for b in "$@"; do
  [ -x "$b" ] || { echo "overhead: error: $b is not an executable" >&2; exit 2; }
done
here=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$input" ] || bash "$here/scripts/make-throughput-input.sh" "$input" >/dev/null
declare -A got
for _ in $(seq "$runs"); do
  for b in "$@"; do
    line=$("$b" replay -q --stats --target cpudl "$input" | grep '^stats: bare ') || {
      echo "overhead: error: $b replay --stats printed no 'stats: bare' line" >&2; exit 2; }
    # stats: bare N ops/s (sides only, T s), checked M ops/s ...
    ratio=$(echo "$line" | awk '{ for (i = 1; i <= NF; i++) if ($i == "checked") c = $(i + 1); printf "%.3f", $3 / c }')
    got[$b]="${got[$b]:-} $ratio"
  done
done
for b in "$@"; do
  median=$(echo "${got[$b]}" | tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
  echo "$b:${got[$b]} (median ${median}x)"
done
