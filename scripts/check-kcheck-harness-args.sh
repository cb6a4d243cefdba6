#!/bin/sh
# The kcheck harness's arguments are checked (src/kcheck/options.h):
# each misspelt name, malformed or out-of-range value, or stray argument of a
# non-fuzz mode stops it with status 64 (kHarnessBadUsage) and exactly one
# line "kcheck: error: ..."; a candidate that cannot load is status 2.
#
#   check-kcheck-harness-args.sh build-fuzz/kshim/kcheck_harness
set -u
harness=$1
log=$(mktemp)
trap 'rm -f "$log"' EXIT
. "$(dirname "$0")/../properties/support/testlib.sh"
# expect_status STATUS - ARGS... (properties/support/testlib.sh): the harness
# exits STATUS, and its output (both streams) has exactly one
# "kcheck: error: " line, whatever the status.
TL_PROG=$harness TL_SHOW=kcheck_harness TL_OUT=$log TL_ERR=$log TL_OK=1
TL_ERROR_PREFIX='^kcheck: error: ' TL_ERROR_LINES=count TL_ERROR_ON=any
c=--candidate=/nonexistent/candidate.so
expect_status 64 - --candiate=/nonexistent/candidate.so
expect_status 64 - $c --runs=12x --mode=check
expect_status 64 - $c --runs=-1 --mode=check
expect_status 64 - $c --runs --mode=check
expect_status 64 - $c --hang-seconds=0 --mode=check
expect_status 64 - $c --minimize-seconds=nan --mode=minimize
expect_status 64 - $c --minimize-tries=1e3 --mode=minimize
expect_status 64 - $c --level=exactly
expect_status 64 - $c --mode=fuzzz
expect_status 64 - $c --subject=cpumask
expect_status 64 - $c --capacity=1024,0
expect_status 64 - $c --nr-cpus=4,,64
expect_status 64 - $c --nr-cpus=9000
expect_status 64 - $c --task-util=1025
expect_status 64 - $c --raw=yes --mode=replay
expect_status 64 - $c --time=5
expect_status 64 - --mode=load
expect_status 64 - $c --mode=replay --quiet extra-argument
expect_status 2 - $c --mode=load
[ "$fails" -eq 0 ]
