#!/bin/sh
# export --ktap-module end to end, in one guest boot (issue 25 section 3):
#   ktap-module.sh DIFFSCHED SOURCE_DIR KUNIT_DIR
# 1. kernel-check finds the bug of kshim/examples/cpudl/broken/v4.8-hole-right-child.c
#    in the shim; its minimised reproducer is exported as a test module
#    against that file ("buggy");
# 2. the same reproducer and the checked-in seeds, as a directory, are exported
#    against the fixed file, v4.8-hole.c ("fixed");
# 3. export --boot builds both with kbuild and loads them in one QEMU guest
#    (exit 1: a case is not ok);
# 4. the guest's console goes to the kernel's own parser, kunit.py parse
#    (KUNIT_DIR: the kunit_parser fixture), whose JSON must say: every case of
#    the fixed module PASS or SKIP (the seeds at another nr_cpu_ids), the
#    reproducer PASS there and FAIL in the buggy one, and whose log has no
#    parse error; the console has the reproducer in the failed case's
#    diagnostic lines.
# Exit 77 (skipped) when a kernel piece is missing, as the inkernel tests.
set -u
ds=$1 src=$2 kunit=$3
kunitpy=$kunit/linux-source-6.1/tools/testing/kunit/kunit.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktap-module-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# The shared helpers (fail: the message, the outputs, exit 1).
show_outputs() { for f in "$tmp"/out "$tmp"/err; do [ -f "$f" ] && sed 's/^/  | /' "$f" | tail -40; done; }
TL_FAIL_EXIT=1 TL_FAIL_HOOK=show_outputs
TL_FAIL_PREFIX="FAIL: "
. "$(dirname "$0")/../support/testlib.sh"
ex=$src/kshim/examples/cpudl
harness=
[ -n "${KCHECK_HARNESS:-}" ] && harness="--harness $KCHECK_HARNESS --no-build"

# shellcheck disable=SC2086
"$ds" kernel-check cpudl --candidate "$ex/broken/v4.8-hole-right-child.c" --nr-cpus 8 --runs 200 \
  --time 1 $harness -o "$tmp/finding.ops" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] || fail "kernel-check exited $rc, not 1 (a finding)"
nr=$(sed -n 's/^cpus //p' "$tmp/finding.ops")
[ -n "$nr" ] || fail "the reproducer has no cpus line"

"$ds" export --ktap-module "$tmp/finding.ops" --candidate "$ex/broken/v4.8-hole-right-child.c" -o "$tmp/buggy" >"$tmp/out" 2>"$tmp/err" ||
  fail "export --ktap-module of the finding"
mkdir "$tmp/programs" && cp "$tmp/finding.ops" "$src"/corpus/seeds/cpudl/*.ops "$tmp/programs/" || exit 1
"$ds" export --ktap-module "$tmp/programs" --candidate "$ex/v4.8-hole.c" -o "$tmp/fixed" >"$tmp/out" 2>"$tmp/err" ||
  fail "export --ktap-module of a directory"
grep -q 'MODULE_INFO(test, "Y")' "$tmp/fixed/kc_ktap.c" || fail "no MODULE_INFO(test, \"Y\")"
grep -q '#include <kunit/\|kunit_' "$tmp/fixed/kc_ktap.c" "$tmp/fixed/ktap_programs.h" && fail "the module uses KUnit"

"$ds" export --boot "$tmp/fixed" "$tmp/buggy" --nr-cpus "$nr" --log "$tmp/console.txt" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "needs" "$tmp/err"; then cat "$tmp/err"; exit 77; fi
[ "$rc" = 1 ] || fail "export --boot exited $rc, not 1 (the buggy module's case not ok)"

[ -f "$kunitpy" ] || fail "no $kunitpy (the kunit-parser fixture)"
python3 "$kunitpy" parse --json="$tmp/kunit.json" "$tmp/console.txt" >"$tmp/kunit.log" 2>&1
grep -q "ERROR\]\|CRASHED\|Could not find" "$tmp/kunit.log" && { cat "$tmp/kunit.log"; fail "kunit.py did not read the guest's KTAP"; }
# The fixed module: 7 cases, the reproducer and the nr-8 seeds PASS, the
# others SKIP; the buggy module: its one case FAIL.
python3 "$(dirname "$0")/kunit_flat.py" "$tmp/kunit.json" '(
len([k for k in flat if "v4_8_hole/" in k]) == 7 and
set(v for k, v in flat.items() if "v4_8_hole/" in k) == {"PASS", "SKIP"} and
[v for k, v in flat.items() if k.endswith("diffsched_cpudl_v4_8_hole/finding")] == ["PASS"] and
[v for k, v in flat.items() if k.endswith("v4_8_hole_right_child/finding")] == ["FAIL"])' ||
  { cat "$tmp/kunit.log"; fail "kunit.py's JSON"; }
grep -q '# finding: reproduce: .*kernel-check.*cpudl.*--replay' "$tmp/console.txt" || fail "no reproduce line in the console"
grep -q '# finding: the driver: V ' "$tmp/console.txt" || fail "no failed check of the driver in the console"
grep -q '#   cpus '"$nr" "$tmp/console.txt" || fail "the program is not in the diagnostic lines"
echo "ok: $(grep -c 'ok [0-9]' "$tmp/console.txt") result lines, kunit.py: $(tail -n 1 "$tmp/kunit.log")"
