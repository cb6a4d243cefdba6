#!/bin/sh
# One test module alone in one guest boot (issue 25 section 3):
#   ktap-module-alone.sh DIFFSCHED SOURCE_DIR KUNIT_DIR
# The checked-in seeds (corpus/seeds/cpudl) exported as one test module
# against the fixed kshim/examples/cpudl/v4.8-hole.c; export --boot builds it
# and loads it, and nothing else, in one QEMU guest at nr_cpu_ids 8 (exit 0);
# the console is one KTAP document (plan 1..1) that kunit.py parse reads: the
# nr-8 programs PASS, the others SKIP (another nr_cpu_ids), no FAIL.
# The module is loaded as export --boot loads every module (ktap_index=1 under
# the header the guest's init prints), not in its insmod-alone form.
# Exit 77 (skipped) when a kernel piece is missing, as the inkernel tests.
set -u
ds=$1 src=$2 kunit=$3
kunitpy=$kunit/linux-source-6.1/tools/testing/kunit/kunit.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktap-alone-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; for f in "$tmp"/out "$tmp"/err; do [ -f "$f" ] && sed 's/^/  | /' "$f" | tail -40; done; exit 1; }

"$ds" export --ktap-module "$src/corpus/seeds/cpudl" --candidate "$src/kshim/examples/cpudl/v4.8-hole.c" \
  -o "$tmp/alone" >"$tmp/out" 2>"$tmp/err" || fail "export --ktap-module of corpus/seeds/cpudl"
n=$(find "$src/corpus/seeds/cpudl" -maxdepth 1 -name "*.ops" | wc -l)
n8=$(grep -l '^cpus 8$' "$src"/corpus/seeds/cpudl/*.ops | wc -l)
[ "$n8" -ge 1 ] || fail "no program of corpus/seeds/cpudl at nr_cpu_ids 8"
"$ds" export --boot "$tmp/alone" --nr-cpus 8 --log "$tmp/console.txt" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "needs" "$tmp/err"; then cat "$tmp/err"; exit 77; fi
[ "$rc" = 0 ] || fail "export --boot exited $rc, not 0 (a fixed file)"
grep -q "with 1 test module(s): diffsched_alone" "$tmp/out" || fail "not one module in the boot"
[ "$(tr -d '\r' <"$tmp/console.txt" | grep -c '\] 1\.\.1$')" = 1 ] || fail "the console's document has no plan 1..1"

[ -f "$kunitpy" ] || fail "no $kunitpy (the kunit-parser fixture)"
python3 "$kunitpy" parse --json="$tmp/kunit.json" "$tmp/console.txt" >"$tmp/kunit.log" 2>&1
grep -q "ERROR\]\|CRASHED\|Could not find" "$tmp/kunit.log" && { cat "$tmp/kunit.log"; fail "kunit.py did not read the guest's KTAP"; }
python3 "$(dirname "$0")/kunit_flat.py" "$tmp/kunit.json" "(
len(flat) == $n and list(flat.values()).count('PASS') == $n8 and
set(flat.values()) <= {'PASS', 'SKIP'} and
all(k.startswith('diffsched_cpudl_v4_8_hole/') for k in flat))" ||
  { cat "$tmp/kunit.log"; fail "kunit.py's JSON"; }
echo "ok: one module, $n cases ($n8 at nr_cpu_ids 8), kunit.py: $(grep -o "Testing complete.*" "$tmp/kunit.log")"
