#!/usr/bin/env bash
# replay --stats prints bare and checked ops/s of one run and their ratio as
# "check overhead N.Nx" (cpudl also the full-check rate), for cpudl and pick;
# the figures themselves are timing, so only their form is checked here.
#   check-replay-stats.sh DIFFSCHED SOURCE_DIR
set -euo pipefail
. "$(dirname "$0")/../support/testlib.sh"
diffsched=$1 src=$2
# fail: "check-replay-stats: ..." on stderr, and exit 1 (properties/support/testlib.sh)
TL_FAIL_PREFIX="check-replay-stats: " TL_FAIL_STDERR=1 TL_FAIL_EXIT=1
for f in cpudl/word-boundaries.ops cpudl/find-cap-branches.ops pick/small-nr.ops pick/word-boundaries.ops; do
  [[ -f $src/corpus/regressions/$f ]] || continue
  out=$("$diffsched" replay -q --stats "$src/corpus/regressions/$f") || [[ $? -le 1 ]] || fail "$f: replay failed"
  grep -qE '^stats: [0-9]+ runs of [0-9]+ ops \([0-9]+ applied to the sides, [0-9]+ skipped by the contract\)$' <<<"$out" || fail "$f: no runs line in: $out"
  grep -qE '^stats: bare [0-9]+ ops/s \(sides only, [0-9.]+ s\), checked [0-9]+ ops/s' <<<"$out" || fail "$f: no bare/checked line in: $out"
  grep -qE '^stats: check overhead [0-9]+\.[0-9]x$' <<<"$out" || fail "$f: no overhead line in: $out"
  if [[ $f == cpudl/* ]]; then
    grep -qE '^stats \(full checks\): [0-9]+ runs, [0-9]+ checked ops/s, check overhead [0-9]+\.[0-9]x$' <<<"$out" || fail "$f: no full-check line in: $out"
  fi
done
# The throughput inputs: both subjects, and a bad subject is refused with status 2.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bash "$src/scripts/make-throughput-input.sh" "$tmp/pick.raw" pick
"$diffsched" replay -q --stats --target pick "$tmp/pick.raw" | grep -qE '^stats: check overhead' || fail "pick throughput input"
status=0; bash "$src/scripts/make-throughput-input.sh" "$tmp/x.raw" nosuch 2>"$tmp/err" || status=$?
[[ $status -eq 2 ]] && grep -q '^diffsched: error: ' "$tmp/err" || fail "unknown subject: status $status"
echo "check-replay-stats: ok"
