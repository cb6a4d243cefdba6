#!/bin/sh
# diffsched fn --patch/--git and --print-spec end to end (docs/fn.md "A patch
# or a commit range", "--print-spec"; properties/fn/fn-patch.cmake):
#   fn-patch.sh DIFFSCHED SOURCE_DIR TREE CASE
# TREE is check-patch's project-written tree (properties/patch/check_patch.cmake),
# the patches properties/patch/inputs; a git repository is made at test time.
set -u
ds=$1 src=$2 tree=$3 case=$4
in=$src/properties/patch/inputs
pairs=$src/kshim/examples/fn/pairs
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fn-patch-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# The shared helpers (fail: the message, the outputs, exit 1).
show_outputs() { for f in "$tmp"/out "$tmp"/err; do [ -f "$f" ] && sed 's/^/  | /' "$f" | head -60; done; }
TL_FAIL_EXIT=1 TL_FAIL_HOOK=show_outputs
TL_FAIL_PREFIX="FAIL ($case): "
. "$(dirname "$0")/../support/testlib.sh"
# run EXPECTED_STATUS ARGS...: diffsched's output in $tmp/out, $tmp/err.
run() {
  want=$1; shift
  "$ds" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ "$rc" = "$want" ] || fail "exit $rc, expected $want: diffsched $*"
}
has() { grep -qF -- "$1" "$tmp/${2:-out}" || fail "no '$1' in ${2:-out}"; }
one_error_line() {
  [ "$(wc -l <"$tmp/err")" = 1 ] || fail "stderr is not one line"
  has "diffsched: error: $1" err
}
sums() { (cd "$1" && find . -type f | sort | xargs md5sum); }
fast="--runs 60 --nr-cpus 4"
fn_ok="kernel/sched/loadbalance.c find_new_dst_cpu: checked: equivalent"

case $case in
format-patch)
  sums "$tree" >"$tmp/before"
  run 0 fn --patch "$in/fn-pick.patch" --tree "$tree" $fast
  has "$fn_ok" && has "verdict: equivalent: every changed function checked (1), exit 0"
  sums "$tree" | cmp -s - "$tmp/before" || fail "the tree changed"
  ;;
mbox)
  # b4 am's form: a cover letter (skipped) and the patch.
  run 0 fn --patch "$in/fn-pick.mbox" --tree "$tree" $fast
  has "(mbox)" && has "$fn_ok"
  ;;
plain-diff)
  # The broken pick as a plain diff: a finding, its input and replay named.
  run 1 fn --patch "$in/fn-pick-broken.diff" --tree "$tree" $fast --no-minimize
  has "(diff)" && has "find_new_dst_cpu: checked: finding: " && has "    replay: " && has "exit 1"
  ;;
fuzz)
  # --fuzz S goes to each function's run (its count in the listing); the
  # flags a whole patch's run does not take are refused, not ignored.
  run 0 fn --patch "$in/fn-pick.patch" --tree "$tree" $fast --fuzz 2
  grep -Eq "find_new_dst_cpu: checked: equivalent \(60 inputs, 60 compared, [1-9][0-9]* fuzzed, level exact\)" "$tmp/out" ||
    fail "no fuzzed count in the listing"
  for flag in "--clock 3" "--max-cost-ratio 2" "--search-worst 5" "--exhaustive" "--fuzz-corpus $tmp/c --fuzz 2"; do
    run 2 fn --patch "$in/fn-pick.patch" --tree "$tree" $flag
    one_error_line "fn --patch/--git takes none of"
  done
  ;;
bad-hunk)
  run 2 fn --patch "$in/bad-hunk-fails.diff" --tree "$tree"
  one_error_line "patch 1 does not apply: kernel/sched/cpudeadline.c hunk 1 '@@ -158,7 +158,7 @@"
  [ -s "$tmp/out" ] && fail "a listing on stdout for a patch that does not apply"
  ;;
nothing-checkable)
  # fn cannot take the one function changed (a stub that would return a
  # function pointer): listed with fn's reason, and exit 2, never 0.
  # The reason is fn's error line whole (read from its --verdict-json file,
  # never cut), its end included, and not prefixed twice.
  run 2 fn --patch "$in/fn-topology-level.diff" --tree "$tree"
  has "kernel/sched/level.c sd_level_of: not checkable: diffsched fn cannot check it: old side "
  grep -q "sd_level_of: not checkable: .*to a --spec file (every call returns NULL)\$" "$tmp/out" || fail "the reason is cut"
  grep -q "cannot check it: diffsched: error:" "$tmp/out" && fail "the reason is fn's output parsed back"
  has "verdict: nothing checkable"
  one_error_line "nothing checkable"
  ;;
verdict-json-error)
  # fn without a verdict (exit 2, 3) writes its one error line as data.
  run 2 fn --old "$src/properties/fn/inputs/compile-error.c" --new "$src/properties/fn/inputs/compile-error.c" \
    --function first_cpu --verdict-json "$tmp/v.json"
  python3 - "$tmp/v.json" "$tmp/err" <<'PY' || fail "no error verdict in --verdict-json"
import json, sys
j = json.load(open(sys.argv[1]))
line = open(sys.argv[2]).read().strip()
assert j["verdict"] == "error" and j["status"] == 2, j
assert line == "diffsched: error: " + j["error"], (line, j)
PY
  ;;
stubbed)
  # sd_degenerate_span() reads its span through sched_domain_span(). The
  # shim lacked it (a stub, `sched_domain_span()=[...]` in the input) until
  # kshim/sched_fair.h gave struct sched_domain (2026-12-06): now the span is
  # the generated domain's field; the change (== 1 to <= 1) is a finding.
  run 1 fn --patch "$in/topology.patch" --tree "$tree" $fast
  has "kernel/sched/topology.c sd_degenerate_span: checked: finding: "
  has "input (minimised): nr_cpu_ids=4 sd=&{parent=&{"
  grep -q "sched_domain_span()=" "$tmp/out" && fail "sched_domain_span() stubbed"
  ;;
git)
  # A tiny repository: loadbalance.c, then fn-pick.patch applied as a commit.
  r=$tmp/repo
  mkdir -p "$r/kernel/sched" && cp "$tree/kernel/sched/loadbalance.c" "$r/kernel/sched/" || exit 1
  g() { git -C "$r" -c user.name=t -c user.email=t@example.org -c commit.gpgsign=false "$@" >/dev/null 2>&1 || fail "git $*"; }
  g init -q && g add . && g commit -q -m base && g apply "$in/fn-pick.patch" && g commit -q -am pick
  (cd "$r/kernel" && "$ds" fn --git HEAD~1..HEAD $fast >"$tmp/out" 2>"$tmp/err"); rc=$?
  [ "$rc" = 0 ] || fail "fn --git HEAD~1..HEAD: exit $rc"
  has "git range HEAD~1..HEAD" && has "$fn_ok" && has "base: --base"
  [ -z "$(git -C "$r" status --porcelain)" ] || fail "the repository changed"
  run 2 fn --git HEAD~1..no-such-rev --tree "$r"
  one_error_line "--git HEAD~1..no-such-rev: \`no-such-rev\` is not a commit"
  run 2 fn --git HEAD..HEAD --tree "$r"
  one_error_line "--git HEAD..HEAD: the range changes nothing"
  ;;
config)
  # A function under an #ifdef of an option the shim leaves off: not
  # checkable (the block named, and the flag that fixes it) without
  # --config, checked with it; --config goes to every function's run.
  fi=$src/properties/fn/inputs
  mkdir -p "$tmp/tree/kernel/sched" "$tmp/a/kernel/sched" "$tmp/b/kernel/sched"
  cp "$fi/config-walk.c" "$tmp/tree/kernel/sched/walk.c"
  cp "$fi/config-walk.c" "$tmp/a/kernel/sched/walk.c"
  cp "$fi/config-walk-new.c" "$tmp/b/kernel/sched/walk.c"
  (cd "$tmp" && diff -u a/kernel/sched/walk.c b/kernel/sched/walk.c >"$tmp/p.diff")
  run 2 fn --patch "$tmp/p.diff" --tree "$tmp/tree" $fast
  has "kernel/sched/walk.c first_allowed: not checkable: "
  has "(it is in a block the preprocessor skips, line 8: \`#ifdef CONFIG_DIFFSCHED_WALK\`; the shim leaves CONFIG_DIFFSCHED_WALK off: --config CONFIG_DIFFSCHED_WALK (or a spec line \`config CONFIG_DIFFSCHED_WALK\`) defines it)"
  run 0 fn --patch "$tmp/p.diff" --tree "$tmp/tree" $fast --config CONFIG_DIFFSCHED_WALK
  has "kernel/sched/walk.c first_allowed: checked: equivalent"
  run 2 fn --patch "$tmp/p.diff" --tree "$tmp/tree" --config WALK
  one_error_line "--config WALK: the form is --config CONFIG_NAME"
  ;;
era)
  # The tree's Makefile names its kernel (5.10): the staged copy holds it
  # beside the patched file, and the function's run is built at that era
  # (the listing says so). The patch spells the v5.10 value of the LLC flag
  # out (bit 7): equivalent there; at the default era the name is not in
  # the list (v6.9 renamed it), and at the newest era that builds, v6.8,
  # the bit is 10: a finding.
  fi=$src/properties/fn/inputs/era-tree
  mkdir -p "$tmp/a/kernel/sched" "$tmp/b/kernel/sched"
  cp "$fi/kernel/sched/llc-flag.c" "$tmp/a/kernel/sched/llc-flag.c"
  sed 's/sd->flags & SD_SHARE_PKG_RESOURCES)/sd->flags \& 0x0080)/' "$fi/kernel/sched/llc-flag.c" \
    >"$tmp/b/kernel/sched/llc-flag.c"
  (cd "$tmp" && diff -u a/kernel/sched/llc-flag.c b/kernel/sched/llc-flag.c >"$tmp/p.diff")
  run 0 fn --patch "$tmp/p.diff" --tree "$fi" $fast
  has "kernel/sched/llc-flag.c llc_flag: checked: equivalent" && has "level exact, shim era v5.10)"
  mkdir -p "$tmp/tree/kernel/sched" && cp "$fi/kernel/sched/llc-flag.c" "$tmp/tree/kernel/sched/"
  run 1 fn --patch "$tmp/p.diff" --tree "$tmp/tree" $fast
  has "kernel/sched/llc-flag.c llc_flag: checked: finding" && has "level exact, shim era v6.8)"
  run 0 fn --patch "$tmp/p.diff" --tree "$tmp/tree" $fast --kernel-version 5.10
  has "kernel/sched/llc-flag.c llc_flag: checked: equivalent" && has "level exact, shim era v5.10)"
  run 2 fn --patch "$tmp/p.diff" --tree "$tmp/tree" --kernel-version 5
  one_error_line "--kernel-version '5' is not a kernel version (MAJOR.MINOR, e.g. 6.1)"
  # A Makefile that is no file (a directory here) is no version: the run
  # goes on without it.
  mkdir "$tmp/tree/Makefile"
  run 1 fn --patch "$tmp/p.diff" --tree "$tmp/tree" $fast
  has "kernel/sched/llc-flag.c llc_flag: checked: finding" && has "level exact, shim era v6.8)"
  # --git: the Makefile at the range's first commit (A's), through git.
  r=$tmp/repo
  mkdir -p "$r/kernel/sched" && cp "$fi/Makefile" "$r/" && cp "$fi/kernel/sched/llc-flag.c" "$r/kernel/sched/"
  g() { git -C "$r" -c user.name=t -c user.email=t@example.org -c commit.gpgsign=false "$@" >/dev/null 2>&1 || fail "git $*"; }
  g init -q && g add . && g commit -q -m base && g apply "$tmp/p.diff" && g commit -q -am llc
  run 0 fn --git HEAD~1..HEAD --tree "$r" $fast
  has "kernel/sched/llc-flag.c llc_flag: checked: equivalent" && has "level exact, shim era v5.10)"
  [ -z "$(git -C "$r" status --porcelain)" ] || fail "the repository changed"
  ;;
print-spec-hidden)
  # A global read and not covered: printed commented out, and exit 2.
  run 2 fn --old "$pairs/hidden-global/old.c" --new "$pairs/hidden-global/new.c" \
    --function level_span_sane --spec "$pairs/hidden-global/spec.fnspec" --print-spec
  has "# global sched_curr_level input" && has "global level_masks input" && has "param level range 0 3"
  one_error_line "the printed spec leaves globals \`sched_curr_level\`, \`topo_levels\` uncovered"
  ;;
print-spec-*)
  # The printed spec given back with --spec: the same run (the JSON verdict
  # but the replay commands, which name the spec), and it prints itself.
  #   CASE=print-spec-PAIR, then FUNCTION NEW_FILE [SPEC] after CASE.
  pair=${case#print-spec-} function=$5 newf=$6 spec=${7:-}
  base="fn --old $pairs/$pair/old.c --new $pairs/$pair/$newf --function $function --runs 80 --no-minimize"
  given=; [ -n "$spec" ] && given="--spec $pairs/$pair/$spec"
  $ds $base $given --json >"$tmp/a.json" 2>"$tmp/err"; a=$?
  run 0 $base $given --print-spec
  cp "$tmp/out" "$tmp/p.fnspec"
  grep -q "^param " "$tmp/p.fnspec" || fail "no param line in the printed spec"
  $ds $base --spec "$tmp/p.fnspec" --json >"$tmp/b.json" 2>"$tmp/err"; b=$?
  [ "$a" = "$b" ] || fail "exit $a without, $b with the printed spec"
  python3 - "$tmp/a.json" "$tmp/b.json" <<'PY' || fail "the runs differ"
import json, sys
def strip(j):
    if isinstance(j, dict): return {k: strip(v) for k, v in j.items() if k != "replay"}
    if isinstance(j, list): return [strip(v) for v in j]
    return j
a, b = (strip(json.load(open(f))) for f in sys.argv[1:3])
if a != b: print("without:", a, "\nwith:", b); sys.exit(1)
if a.get("inputs", 0) == 0: print("no inputs ran"); sys.exit(1)
PY
  run 0 $base --spec "$tmp/p.fnspec" --print-spec
  grep -v '^#' "$tmp/out" | sed 's/ *#.*//' >"$tmp/again" && grep -v '^#' "$tmp/p.fnspec" | sed 's/ *#.*//' | cmp -s - "$tmp/again" ||
    fail "the printed spec, given back, prints another"
  ;;
*) echo "unknown case $case"; exit 2 ;;
esac
echo "ok ($case)"
