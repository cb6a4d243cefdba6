#!/bin/sh
# diffsched perf at the CLI: every bad input exits 2 with one
# `diffsched: error:` line; --max-ratio gates with exit 1; the JSON has the
# issue's schema; a reproducer replays to its perf-expect counts, and a
# changed count exits 1. Counts only (small --runs), no clock (--no-clock).
#   check-perf-cli.sh DIFFSCHED SOURCE_DIR
set -u
. "$(dirname "$0")/../support/testlib.sh"
D=$1
SRC=$2
DIR=$(mktemp -d "${TMPDIR:-/tmp}/diffsched-perf-XXXXXX")
trap 'rm -rf "$DIR"' EXIT
cd "$DIR" || exit 2
# expect_status STATUS PATTERN ARGS... (properties/support/testlib.sh): runs
# diffsched ARGS; the status must be STATUS, and for 2 stderr must be one
# "diffsched: error:" line matching PATTERN.
TL_PROG=$D

Q="--runs 50 --no-clock --out o"
# Bad input: subject, flags, lists, metrics, sides, numbers, files.
expect_status 2 'subject' perf
expect_status 2 'foo' perf foo
expect_status 2 'bogus' perf cpudl --bogus
for list in 0 abc 8,,16 9000 8,8 "" -4 8,x 99999999999999999999; do
  expect_status 2 'cpus' perf pick --cpus "$list" $Q
done
expect_status 2 'metric' perf pick --metric stores $Q
expect_status 2 'metric' perf cpudl --metric words $Q
expect_status 2 'metric' perf cpudl --metric "" $Q
expect_status 2 'side' perf cpudl --side fused $Q
expect_status 2 'side' perf pick --side loop $Q
expect_status 2 'max-ratio' perf pick --max-ratio 0 $Q
expect_status 2 'max-ratio' perf pick --max-ratio -1 $Q
expect_status 2 'max-ratio' perf pick --max-ratio x $Q
expect_status 2 'runs' perf pick --runs 0
expect_status 2 'jobs' perf pick --jobs 0 $Q
expect_status 2 'time' perf pick --time -1 $Q
expect_status 2 'missing' perf pick --replay missing.ops
printf 'subject cpudl\ncpus 4\nset 0 5\n' >c.ops
expect_status 2 'cpudl input, not pick' perf pick --replay c.ops
printf 'subject cpudl\ncpus 4\nsset 0 5\n' >bad.ops
expect_status 2 '' perf cpudl --replay bad.ops
printf '# perf-expect: optimized\nsubject cpudl\ncpus 4\nset 0 5\n' >badexp.ops
expect_status 2 'perf-expect' perf cpudl --replay badexp.ops
mkdir -p isdir.json
expect_status 2 '' perf pick --json isdir.json $Q

# --max-ratio: the RFC pick at 512 CPUs is many times the loop's counted work.
expect_status 1 '' perf pick --cpus 512 --side optimized --no-best --max-ratio 2 $Q
grep -q 'OVER --max-ratio 2' out.log || fail "no OVER line for --max-ratio 2"
expect_status 0 '' perf pick --cpus 8,512 --max-ratio 100000 --json p.json $Q
for key in '"subject"' '"metric"' '"worst"' '"best"' '"cpus"' '"ratio"' '"reference"' \
           '"optimized"' '"wall_ratio"' '"reproducer"' '"optimized_side"' '"random"'; do
  grep -q "$key" p.json || fail "p.json lacks $key"
done
grep -q '"optimized_side": "fused"' p.json || fail "p.json has no fused rows"

# Deterministic per seed: two runs print the same counted table.
"$D" perf cpudl --cpus 16 --runs 300 --no-clock --out a >a.txt 2>&1
"$D" perf cpudl --cpus 16 --runs 300 --no-clock --out b >b.txt 2>&1
sed 's#a/#X/#g' a.txt >a2.txt; sed 's#b/#X/#g' b.txt >b2.txt
cmp -s a2.txt b2.txt || { fail "two runs with one seed differ"; diff a2.txt b2.txt | head; }

# A reproducer replays to its own perf-expect line; a changed count exits 1.
f=$(ls a/worst-cpudl-16-optimized.ops)
expect_status 0 '' perf cpudl --replay "$f"
grep -q ': ok' out.log || fail "replay of $f did not check its perf-expect line"
sed 's/^\(# perf-expect: optimized accesses [0-9]*\) \([0-9]*\)$/\1 999999/' "$f" >changed.ops
expect_status 1 '' perf cpudl --replay changed.ops
grep -q MISMATCH out.log || fail "no MISMATCH for a changed count"

# --jobs runs the same searches in threads: the same counted table.
"$D" perf cpudl --cpus 16,32 --runs 300 --no-clock --out j1 >j1.txt 2>&1
"$D" perf cpudl --cpus 16,32 --runs 300 --no-clock --out j2 --jobs 2 >j2.txt 2>&1
sed 's#j1/#X/#g' j1.txt >j1b.txt; sed 's#j2/#X/#g' j2.txt >j2b.txt
cmp -s j1b.txt j2b.txt || { fail "--jobs 2 differs from --jobs 1"; diff j1b.txt j2b.txt | head; }
# --time caps a search whose --runs would not end (generous sanity bound).
timeout 300 "$D" perf cpudl --cpus 8 --runs 1000000000 --time 1 --no-clock --out t >t.txt 2>&1
rc=$?
[ "$rc" -eq 0 ] || fail "--time 1 with endless --runs: exit $rc"
# Out of domain while replaying: no verdict, status 3, as replay; a mismatch elsewhere wins.
expect_status 3 '' perf cpudl --replay "$SRC/corpus/regressions/cpudl/out-of-domain.ops"
expect_status 1 '' perf cpudl --replay "$SRC/corpus/regressions/cpudl/out-of-domain.ops" changed.ops

[ "$fails" -eq 0 ] && echo "perf CLI: all checks passed"
[ "$fails" -eq 0 ]
