#!/usr/bin/env bash
# Issue 24 section 7: inputs per second of `diffsched fn`'s property run and
# of its libFuzzer target (--fuzz), and the harness overhead against bare calls
# (--clock), for a cpumask function at nr_cpu_ids 8192 (the pick pair's
# select_dst_cpu) and an array function (heapsort-ties, lengths 0..64).
# The rate is (N2 - N1) / (t(N2) - t(N1)): the build and extraction of
# both sides cancel out. Usage: bash bench/fn/rate.sh [DIFFSCHED] [N1] [N2]
set -euo pipefail
ds=${1:-./build/diffsched}; n1=${2:-100}; n2=${3:-20100}
root=$(cd "$(dirname "$0")/../.." && pwd)
# Seconds of one run; a run that does not end equivalent (a finding stops the
# run early; 2: it cannot build or run) stops the script with one line.
secs() {
  local t0 t1 rc=0; t0=$(date +%s.%N); "$@" >/dev/null 2>&1 || rc=$?; t1=$(date +%s.%N)
  if [ "$rc" -ne 0 ]; then echo "rate.sh: error: exit $rc (not equivalent) from: $*" >&2; exit 2; fi
  echo "$t1 - $t0" | bc -l
}
rate() { # name, then the fn arguments
  local name=$1; shift
  local a b; a=$(secs "$ds" fn "$@" --seed 1 --runs "$n1"); b=$(secs "$ds" fn "$@" --seed 1 --runs "$n2")
  printf '%-28s %6d inputs in %7.2f s, %6d in %7.2f s: %8.1f inputs/s\n' "$name" "$n1" "$a" "$n2" "$b" \
    "$(echo "($n2 - $n1) / ($b - $a)" | bc -l)"
}
p=$root/kshim/examples/pick; h=$root/kshim/examples/fn/pairs/heapsort-ties
rate "select_dst_cpu nr=8192" --old "$p/reference.c" --new "$p/optimized.c" --function select_dst_cpu --nr-cpus 8192
# old.c against itself: the pair differs at `exact` on input 1, and the
# run stops at a finding; the harness cost is that of any array pair.
rate "sort_cpu_loads len<=64" --old "$h/old.c" --new "$h/old.c" --function sort_cpu_loads
# The fuzzer's rate (fn --fuzz S: both sides in one libFuzzer process; the
# runner's own count over its own time, from --json's .fuzz).
fuzzrate() { # name, then the fn arguments
  local name=$1; shift
  local out rc=0; out=$("$ds" fn "$@" --seed 1 --runs 1 --fuzz "${FUZZ_SECONDS:-20}" --json 2>/dev/null) || rc=$?
  if [ "$rc" -ne 0 ]; then echo "rate.sh: error: exit $rc (not equivalent) from: $ds fn $* --fuzz" >&2; exit 2; fi
  printf '%-28s libFuzzer %s inputs in %.1f s: %8.1f inputs/s\n' "$name" "$(echo "$out" | jq '.fuzz.runs')" \
    "$(echo "$out" | jq '.fuzz.seconds')" "$(echo "$out" | jq '.fuzz.runs / .fuzz.seconds')"
}
fuzzrate "select_dst_cpu nr=8192" --old "$p/reference.c" --new "$p/optimized.c" --function select_dst_cpu --nr-cpus 8192
fuzzrate "sort_cpu_loads len<=64" --old "$h/old.c" --new "$h/old.c" --function sort_cpu_loads
# The harness overhead against bare calls of the two functions (--clock: both
# sides rebuilt at -O2 without sanitizers; per input, the least of 20 timings
# of the call alone and of the harness's whole work for it: the arguments
# drawn, the call, its record made), side by side in one run.
overhead() { # name, then the fn arguments
  local name=$1; shift
  local out rc=0; out=$("$ds" fn "$@" --seed 1 --runs 300 --clock 20 --json 2>/dev/null) || rc=$?
  if [ "$rc" -ne 0 ]; then echo "rate.sh: error: exit $rc (not equivalent) from: $ds fn $*" >&2; exit 2; fi
  printf '%-28s harness %s ns, calls %s ns over 300 inputs, both sides: %.2fx the calls alone\n' "$name" \
    "$(echo "$out" | jq '.clock.harness_old_ns + .clock.harness_new_ns')" \
    "$(echo "$out" | jq '.clock.old_ns + .clock.new_ns')" "$(echo "$out" | jq '.clock.harness_overhead')"
}
overhead "select_dst_cpu nr=8192" --old "$p/reference.c" --new "$p/optimized.c" --function select_dst_cpu --nr-cpus 8192
overhead "sort_cpu_loads len<=64" --old "$h/old.c" --new "$h/old.c" --function sort_cpu_loads
