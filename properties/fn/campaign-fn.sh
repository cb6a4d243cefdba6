#!/bin/sh
# ctest fn.campaign: `diffsched campaign --fn` runs `diffsched fn --fuzz` on
# each pair after the subjects' targets, one summary row a pair, its corpus
# kept in CORPUS/fn-FUNCTION, and the campaign's exit status raised by a
# pair's finding (docs/fn.md "Fuzzing").
#
#   campaign-fn.sh DIFFSCHED FUZZ_DIR SOURCE_DIR
set -u
ds=$1 fuzz_dir=$2 src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
in=$src/properties/fn/inputs p=$src/kshim/examples/fn/pairs/first-and-and
"$ds" campaign --time 2 --targets pick --fuzz-dir "$fuzz_dir" --out "$tmp/out" --corpus "$tmp/corpus" \
  --fn "$in/fuzz-cookie.c,$in/fuzz-cookie-new.c,pick_cookie_cpu" \
  --fn "$p/old.c,$p/new.c,find_new_dst_cpu" --fn-time 5 >"$tmp/log" 2>&1
rc=$?
cat "$tmp/log"
fail() { echo "FAIL: $*"; exit 1; }
[ "$rc" = 1 ] || fail "exit $rc, expected 1 (the cookie pair's finding)"
grep -Eq '^\| `pick_cookie_cpu` \|.*\| finding \| [0-9]+ \| `.* --input .*cookie=1592594996' "$tmp/out/summary.md" ||
  fail "no finding row for pick_cookie_cpu with its replay in summary.md"
grep -Eq '^\| `find_new_dst_cpu` \|.*\| equivalent \| [1-9][0-9]* \|' "$tmp/out/summary.md" ||
  fail "no equivalent row with a fuzzed count for find_new_dst_cpu in summary.md"
[ -n "$(ls "$tmp/corpus/fn-find_new_dst_cpu")" ] || fail "the pair's corpus CORPUS/fn-find_new_dst_cpu is empty"
for f in "$tmp"/out/fn/1-pick_cookie_cpu.json "$tmp"/out/fn/2-find_new_dst_cpu.json; do
  [ -s "$f" ] || fail "$f missing"
done
echo "ok: campaign --fn"
