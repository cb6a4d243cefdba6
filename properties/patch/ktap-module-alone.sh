#!/bin/sh
# A test module alone, in its standalone form (issue 25 section 3):
#   ktap-module-alone.sh DIFFSCHED SOURCE_DIR KUNIT_DIR
# export --boot of one directory loads it with a plain insmod (no ktap_index,
# no header from the guest's init), as a user would: the module prints the
# whole KTAP document itself. Two boots at nr_cpu_ids 8, each of one module:
# 1. fixed: the checked-in seeds (corpus/seeds/cpudl) against
#    kshim/examples/cpudl/v4.8-hole.c: exit 0; kunit.py parse reads one
#    document (plan 1..1): the nr-8 programs PASS, the others SKIP, no FAIL;
# 2. buggy: the same seeds against broken/v4.8-hole-right-child.c, whose bug
#    the seed full-heap.ops reaches: exit 1; kunit.py says full-heap FAIL,
#    the other nr-8 program PASS, and the console has that case's failed
#    check, its program and its reproduce line.
# Exit 77 (skipped) when a kernel piece is missing, as the inkernel tests.
set -u
ds=$1 src=$2 kunit=$3
kunitpy=$kunit/linux-source-6.1/tools/testing/kunit/kunit.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktap-alone-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# The shared helpers (fail: the message, the outputs, exit 1).
show_outputs() { for f in "$tmp"/out "$tmp"/err; do [ -f "$f" ] && sed 's/^/  | /' "$f" | tail -40; done; }
TL_FAIL_EXIT=1 TL_FAIL_HOOK=show_outputs
TL_FAIL_PREFIX="FAIL: "
. "$(dirname "$0")/../support/testlib.sh"

ex=$src/kshim/examples/cpudl
n=$(find "$src/corpus/seeds/cpudl" -maxdepth 1 -name "*.ops" | wc -l)
n8=$(grep -l '^cpus 8$' "$src"/corpus/seeds/cpudl/*.ops | wc -l)
[ "$n8" -ge 2 ] || fail "fewer than 2 programs of corpus/seeds/cpudl at nr_cpu_ids 8"
grep -q '^cpus 8$' "$src/corpus/seeds/cpudl/full-heap.ops" || fail "full-heap.ops is not at nr_cpu_ids 8"
[ -f "$kunitpy" ] || fail "no $kunitpy (the kunit-parser fixture)"

# boot NAME CANDIDATE STATUS: exports the seeds against CANDIDATE as module
# NAME, boots it alone, expects STATUS; leaves kunit.py's JSON in $tmp/NAME.json.
boot() {
  "$ds" export --ktap-module "$src/corpus/seeds/cpudl" --candidate "$2" -o "$tmp/$1" >"$tmp/out" 2>"$tmp/err" ||
    fail "export --ktap-module of corpus/seeds/cpudl against $2"
  "$ds" export --boot "$tmp/$1" --nr-cpus 8 --log "$tmp/$1.console" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" = 2 ] && grep -q "needs" "$tmp/err"; then cat "$tmp/err"; exit 77; fi
  [ "$rc" = "$3" ] || fail "export --boot of $1 exited $rc, not $3"
  grep -q "with 1 test module(s): diffsched_$1 " "$tmp/out" || fail "not one module in the boot of $1"
  grep -q "diffsched_$1 (alone: a plain insmod" "$tmp/out" || fail "$1 was not loaded in its standalone form"
  [ "$(tr -d '\r' <"$tmp/$1.console" | grep -c '\] KTAP version 1$')" = 1 ] || fail "$1: not one top-level KTAP header (the module's own)"
  [ "$(tr -d '\r' <"$tmp/$1.console" | grep -c '\] 1\.\.1$')" = 1 ] || fail "$1: the console's document has no plan 1..1"
  python3 "$kunitpy" parse --json="$tmp/$1.json" "$tmp/$1.console" >"$tmp/$1.log" 2>&1
  grep -q "ERROR\]\|CRASHED\|Could not find" "$tmp/$1.log" && { cat "$tmp/$1.log"; fail "kunit.py did not read $1's KTAP"; }
}

boot fixed "$ex/v4.8-hole.c" 0
python3 "$(dirname "$0")/kunit_flat.py" "$tmp/fixed.json" "(
len(flat) == $n and list(flat.values()).count('PASS') == $n8 and
set(flat.values()) <= {'PASS', 'SKIP'} and
all(k.startswith('diffsched_cpudl_v4_8_hole/') for k in flat))" ||
  { cat "$tmp/fixed.log"; fail "kunit.py's JSON of the fixed module"; }

boot buggy "$ex/broken/v4.8-hole-right-child.c" 1
python3 "$(dirname "$0")/kunit_flat.py" "$tmp/buggy.json" "(
len(flat) == $n and list(flat.values()).count('FAIL') == 1 and
list(flat.values()).count('PASS') == $n8 - 1 and
flat['diffsched_cpudl_v4_8_hole_right_child/full_heap'] == 'FAIL')" ||
  { cat "$tmp/buggy.log"; fail "kunit.py's JSON of the buggy module"; }
c=$tmp/buggy.console
grep -q '# full_heap: reproduce: .*kernel-check.*cpudl.*--replay' "$c" || fail "no reproduce line for full_heap"
grep -q '# full_heap: the driver: V ' "$c" || fail "no failed check of the driver for full_heap"
grep -q '#   cpus 8' "$c" || fail "the program is not in the diagnostic lines"
echo "ok: two boots of one module each; fixed $n cases ($n8 PASS), kunit.py: $(grep -o "Testing complete.*" "$tmp/fixed.log");" \
  "buggy: full_heap FAIL, kunit.py: $(grep -o "Testing complete.*" "$tmp/buggy.log")"
