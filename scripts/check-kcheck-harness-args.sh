#!/bin/sh
# The kcheck harness's arguments are checked (src/tools/kcheck_options.h):
# each misspelt name, malformed or out-of-range value, or stray argument of a
# non-fuzz mode stops it with status 64 (kHarnessBadUsage) and exactly one
# line "kcheck: error: ..."; a candidate that cannot load is status 2.
#
#   check-kcheck-harness-args.sh build-fuzz/kshim/kcheck_harness
set -u
harness=$1
log=$(mktemp)
trap 'rm -f "$log"' EXIT
fail=0
expect() {
  want=$1
  shift
  "$harness" "$@" >"$log" 2>&1
  got=$?
  lines=$(grep -c '^kcheck: error: ' "$log")
  if [ "$got" != "$want" ] || [ "$lines" != 1 ]; then
    echo "FAIL: kcheck_harness $*: status $got (expected $want), $lines error lines"
    cat "$log"
    fail=1
  else
    echo "ok: $* -> $got: $(grep '^kcheck: error: ' "$log")"
  fi
}
c=--candidate=/nonexistent/candidate.so
expect 64 --candiate=/nonexistent/candidate.so
expect 64 $c --runs=12x --mode=check
expect 64 $c --runs=-1 --mode=check
expect 64 $c --runs --mode=check
expect 64 $c --hang-seconds=0 --mode=check
expect 64 $c --minimize-seconds=nan --mode=minimize
expect 64 $c --minimize-tries=1e3 --mode=minimize
expect 64 $c --level=exactly
expect 64 $c --mode=fuzzz
expect 64 $c --subject=cpumask
expect 64 $c --capacity=1024,0
expect 64 $c --nr-cpus=4,,64
expect 64 $c --nr-cpus=9000
expect 64 $c --task-util=1025
expect 64 $c --raw=yes --mode=replay
expect 64 $c --time=5
expect 64 --mode=load
expect 64 $c --mode=replay --quiet extra-argument
expect 2 $c --mode=load
exit $fail
