#!/bin/sh
# `diffsched minimize` under a budget, for ctest (label minimize):
# - a tries budget too small to finish still writes a reproducer that fails
#   with the same signature, and says NOT MINIMAL (exit 0: a reproducer is written);
# - the default budget reaches the minimum and says nothing of the kind;
# - a bad budget value is a one-line error, exit 2.
#
#   check-minimize-budget.sh DIFFSCHED
set -u
. "$(dirname "$0")/../properties/support/testlib.sh"
d=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
TL_FAIL_EXIT=1  # fail: "FAIL: ..." and exit 1 (properties/support/testlib.sh)

# The exact-level tie, buried in noise ops at a large nr_cpu_ids.
cat >"$out/tie.ops" <<'OPS'
subject cpudl
level exact
cpus 300
set_freecpu 250
set 17 0xfffffffffffff000
set 200 0x7fffffff00000000
clear 17
clear 200
set 3 77
set 290 77
find 0x10 0-299
set 5 0xffff
OPS
sig=$("$d" replay "$out/tie.ops" 2>&1 | grep -Eo 'cpudl:[a-z-]+:[a-z]+:[a-z.]+:[a-z_]+' | head -n 1)
[ -n "$sig" ] || fail "the input does not fail"
echo "signature $sig"

for tries in 1 2 4 9; do
  "$d" minimize "$out/tie.ops" -o "$out/small" --max-tries "$tries" >"$out/log" 2>&1
  rc=$?
  cat "$out/log"
  [ "$rc" = 0 ] || fail "--max-tries $tries: exit $rc"
  grep -q 'NOT MINIMAL: the tries budget' "$out/log" || fail "--max-tries $tries: not reported as not minimal"
  "$d" replay -q --expect "$sig" "$out/small.ops" >/dev/null 2>&1 ||
    fail "--max-tries $tries: the reproducer does not fail with $sig"
done

"$d" minimize "$out/tie.ops" -o "$out/full" >"$out/log" 2>&1 || fail "default budget: exit $?"
cat "$out/log"
grep -q 'NOT MINIMAL' "$out/log" && fail "default budget: not minimal"
"$d" replay -q --expect "$sig" "$out/full.ops" >/dev/null 2>&1 || fail "default budget: no repro"
ops=$(grep -Ev '^[[:space:]]*(#|$|subject |cpus |level )' "$out/full.ops" | wc -l)
[ "$ops" -le 2 ] || fail "default budget: $ops ops"

"$d" minimize --help | grep -q -- '--max-seconds' || fail "--help lacks --max-seconds"
"$d" minimize --help | grep -Eq -- '--max-tries.*200000' || fail "--help lacks the --max-tries default"
for bad in '--max-tries -1' '--max-seconds -2' '--max-tries x'; do
  # shellcheck disable=SC2086
  "$d" minimize "$out/tie.ops" -o "$out/bad" $bad >"$out/log" 2>&1
  rc=$?
  [ "$rc" = 2 ] || { cat "$out/log"; fail "$bad: exit $rc, expected 2"; }
done
echo ok
