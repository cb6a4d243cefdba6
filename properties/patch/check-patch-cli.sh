#!/bin/sh
# diffsched check-patch end to end (properties/patch/check_patch.cmake):
#   check-patch-cli.sh DIFFSCHED KUNIT_DIR CASE TREE
# The patches are the project's (properties/patch/inputs); TREE is the tree
# check_patch.cmake makes from the example files and properties/patch/tree. KUNIT_DIR receives tools/testing/kunit of the
# installed linux-source-6.1 (case kunit-parser), never committed.
# $KCHECK_HARNESS, if set, is given as --harness with --no-build (a harness
# built elsewhere); otherwise kernel-check uses build-fuzz's (the fixture).
set -u
ds=$1 kunit=$2 case=$3 tree=$4
here=$(cd "$(dirname "$0")" && pwd)
in=$here/inputs
kunitpy=$kunit/linux-source-6.1/tools/testing/kunit/kunit.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-patch-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# kernel-check's harness, and short runs (a broken file needs the default
# 2000 programs or a few seconds of fuzzing to be caught).
harness=
[ -n "${KCHECK_HARNESS:-}" ] && harness="--harness $KCHECK_HARNESS --no-build"
fast="--time 1 --runs 300 $harness"
thorough="--time 15 --runs 2000 $harness"

# The shared helpers (fail: the message, the outputs, exit 1).
show_outputs() { for f in "$tmp"/out "$tmp"/err; do [ -f "$f" ] && sed 's/^/  | /' "$f" | head -80; done; }
TL_FAIL_EXIT=1 TL_FAIL_HOOK=show_outputs
TL_FAIL_PREFIX="FAIL ($case): "
. "$(dirname "$0")/../support/testlib.sh"
# run EXPECTED_STATUS ARGS...: check-patch's output in $tmp/out, $tmp/err.
run() {
  want=$1; shift
  "$ds" check-patch "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ "$rc" = "$want" ] || fail "exit $rc, expected $want: check-patch $*"
}
has() { grep -qF -- "$1" "$tmp/${2:-out}" || fail "no '$1' in ${2:-out}"; }
one_error_line() {
  [ "$(wc -l <"$tmp/err")" = 1 ] || fail "stderr is not one line"
  has "diffsched: error: $1" err
}
# ktap_check FILE 'python expression over flat': kunit.py parse reads the
# KTAP; its JSON is checked (not only its exit status, which is 1 both for a
# failing test and for input it cannot read), and its log must have no
# [ERROR] or CRASHED. flat maps "group/subgroup/test" to PASS, FAIL or SKIP.
ktap_check() {
  [ -f "$kunitpy" ] || fail "no $kunitpy (the kunit-parser fixture)"
  python3 "$kunitpy" parse --json="$tmp/kunit.json" "$1" >"$tmp/kunit.log" 2>&1
  grep -q "ERROR\]\|CRASHED\|Could not find" "$tmp/kunit.log" &&
    fail "kunit.py did not read the KTAP: $(grep "ERROR\]\|CRASHED\|Could not find" "$tmp/kunit.log" | head -3)"
  python3 "$here/kunit_flat.py" "$tmp/kunit.json" "$2" || { cat "$tmp/kunit.log"; fail "kunit.py's JSON"; }
}

case $case in
kunit-parser)
  rm -rf "$kunit" && mkdir -p "$kunit" || exit 1
  src=/usr/src/linux-source-6.1.tar.xz
  [ -f "$src" ] || { echo "FAIL: $src missing (apt-get install linux-source-6.1)"; exit 1; }
  # Kept in its tree layout: kunit.py changes to the kernel root it is in.
  tar -xJf "$src" -C "$kunit" --wildcards '*/tools/testing/kunit/*' || exit 1
  python3 "$kunitpy" parse --help >/dev/null || fail "kunit.py parse does not run"
  ;;
bad-hunk)
  run 2 "$in/bad-hunk-fails.diff" --tree "$tree"
  one_error_line "patch 1 does not apply: kernel/sched/cpudeadline.c hunk 1 '@@ -158,7 +158,7 @@"
  [ -s "$tmp/out" ] && fail "a report on stdout for a bad patch"
  ;;
bad-counts)
  run 2 "$in/bad-counts.diff" --tree "$tree"
  one_error_line "" && has "old and" err
  ;;
no-files)
  run 2 "$in/no-files.mbox" --tree "$tree"
  one_error_line "" && has "no file diff found" err
  ;;
empty)
  : >"$tmp/empty.patch"
  run 2 "$tmp/empty.patch" --tree "$tree"
  one_error_line "" && has "the patch is empty" err
  ;;
unknown-flag)
  run 2 "$in/topology.patch" --tree "$tree" --frobnicate
  one_error_line "unknown option '--frobnicate'"
  # Nothing generated is no check: refused before anything runs.
  run 2 "$in/fn-pick-broken.patch" --tree "$tree" --runs 0
  one_error_line "--runs: must be greater than 0"
  # A report format that does not exist, and a work directory in use: refused
  # before anything runs, one line each.
  run 2 "$in/topology.patch" --tree "$tree" --format bogus
  one_error_line "" && has "--format" err
  mkdir -p "$tmp/used" && : >"$tmp/used/keep"
  run 2 "$in/topology.patch" --tree "$tree" --work-dir "$tmp/used"
  one_error_line "" && has "exists and is not empty" err
  [ -f "$tmp/used/keep" ] || fail "check-patch removed a file of a work directory in use"
  ;;
missing-tree)
  run 2 "$in/topology.patch" --tree "$tmp/no-such-tree"
  one_error_line ""
  has "no-such-tree" err
  run 2 "$in/topology.patch"
  one_error_line "--tree is required"
  ;;
missing-patch)
  run 2 "$tmp/no-such.patch" --tree "$tree"
  one_error_line "" && has "not a regular file" err
  ;;
base-missing)
  # The tree is not a git repository: --base cannot be found there.
  run 2 "$in/topology.patch" --tree "$tree" --base v1.0
  one_error_line "--base v1.0:"
  ;;
base-commit-git)
  # A git copy of the tree: the patch's base-commit is not in it (exit 2, one
  # line), a --base that is not a commit neither; the commit it has works.
  cp -r "$tree" "$tmp/git" && cd "$tmp/git" &&
    git init -q && git add -A && git -c user.name=t -c user.email=t@example.org commit -qm base ||
    fail "cannot make the git tree"
  run 2 "$in/base-missing.mbox" --tree "$tmp/git"
  one_error_line "the patch's base-commit 0123456789abcdef0123456789abcdef01234567 is not in the git tree"
  run 2 "$in/level.patch" --tree "$tmp/git" --base no-such-rev
  one_error_line "--base no-such-rev is not a commit"
  head=$(git -C "$tmp/git" rev-parse HEAD)
  echo "change" >>"$tmp/git/kernel/sched/level.c"   # the work tree moves on; the base does not
  sed "s/^-- \$/base-commit: $head\n-- /" "$in/level.patch" >"$tmp/based.patch"
  run 3 "$tmp/based.patch" --tree "$tmp/git"
  has "base:    base-commit $head (from the patch)"
  run 3 "$in/level.patch" --tree "$tmp/git" --base HEAD
  has "base:    --base HEAD ($head)"
  # Real `git format-patch --cover-letter --base`: the base is stated in the
  # cover letter only (0000-*), and it is the series' base.
  g() { git -C "$tmp/git" -c user.name=t -c user.email=t@example.org "$@"; }
  g checkout -q -- . && g am -q "$in/level.patch" && g format-patch -q --cover-letter --base="$head" -1 -o "$tmp/fp" ||
    fail "git am / format-patch"
  grep -q "^base-commit: $head" "$tmp"/fp/0000-* || fail "git wrote no base-commit in the cover letter"
  grep -q "^base-commit:" "$tmp"/fp/0001-* && fail "the patch itself has the base-commit: not the case tested"
  cat "$tmp"/fp/0000-* "$tmp"/fp/0001-* >"$tmp/cover.mbox"
  g reset -q --hard "$head" && echo "change" >>"$tmp/git/kernel/sched/level.c"
  run 3 "$tmp/cover.mbox" --tree "$tmp/git"
  has "base:    base-commit $head (from the patch)"
  run 0 "$tmp/cover.mbox" --list
  has "base-commit: $head"
  ;;
list)
  # The patch alone: files and the functions each hunk changes.
  run 0 "$in/cpudl-series.mbox" --list
  has "patch: $in/cpudl-series.mbox (mbox, 2 patches)"
  has "[patch-2] [PATCH 2/2] sched/deadline: clear only sifts down (test patch, a bug)"
  has "kernel/sched/cpudeadline.c: 1 hunk; functions: cpudl_clear"
  run 0 "$in/pick-and-topology.patch" --list
  has "kernel/sched/fair.c: 1 hunk; functions: pick_new_dst_cpu"
  has "kernel/sched/level.c: 1 hunk; functions: sd_level_of"
  run 0 "$in/cpudl-equivalent.html" --list
  has "(html, 1 patch)" && has "author: Check Patch Tester <tester@example.org>"
  run 2 "$in/bad-counts.diff" --list
  one_error_line ""
  ;;
nothing-checkable)
  run 3 "$in/level.patch" --tree "$tree"
  has "verdict: NO VERDICT" && has "not checked: kernel/sched/level.c sd_level_of"
  run 3 "$in/level.patch" --tree "$tree" --format ktap
  ktap_check "$tmp/out" 'flat == {"patch-1/kernel/sched/level.c sd_level_of": "SKIP"}'
  # Nested by 4 spaces (KUnit's); kunit.py reads the KTAP document's 2 alike.
  grep -q "^    # Subtest: patch-1\$" "$tmp/out" || fail "the subtests are not nested by 4 spaces"
  awk '{ match($0, /^ */); print substr($0, 1, RLENGTH / 2) substr($0, RLENGTH + 1) }' "$tmp/out" >"$tmp/two.ktap"
  grep -q "^  # Subtest: patch-1\$" "$tmp/two.ktap" || fail "no 2-space copy"
  ktap_check "$tmp/two.ktap" 'flat == {"patch-1/kernel/sched/level.c sd_level_of": "SKIP"}'
  # A binary file of a git diff cannot be applied: one line, exit 2.
  printf '%s\n' "diff --git a/kernel/sched/logo.bin b/kernel/sched/logo.bin" "new file mode 100644" \
    "index 0000000..a1b2c3d" "GIT binary patch" "literal 4" "LcmZQzWMT#Y01f~L" "" "literal 0" \
    "HcmV?d00001" "" >"$tmp/binary.diff"
  run 2 "$tmp/binary.diff" --tree "$tree"
  one_error_line "kernel/sched/logo.bin: a binary diff, which check-patch cannot apply"
  run 3 "$in/level.patch" --tree "$tree" --format json
  python3 -c "import json,sys; d=json.load(open('$tmp/out')); sys.exit(d['status'] != 3)" ||
    fail "json"
  ;;
b4)
  "$ds" check-patch --b4 --tree "$tree" <"$in/level.patch" >"$tmp/out" 2>"$tmp/err" ||
    fail "b4 mode exit $?"
  python3 -c "
import json,sys
a=json.load(open('$tmp/out'))
assert isinstance(a, list) and len(a) == 1, a
assert set(a[0]) == {'tool','status','summary','details'}, a[0]
assert a[0]['status'] == 'warn', a[0]" || fail "b4 array"
  # A bad patch: still the array (one warn), and its one line and exit 2.
  "$ds" check-patch --b4 --tree "$tree" <"$in/no-files.mbox" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ "$rc" = 2 ] || fail "b4 mode on a bad patch: exit $rc, expected 2"
  one_error_line "standard input: no file diff found"
  python3 -c "import json; a=json.load(open('$tmp/out')); assert a[0]['status']=='warn' and 'could not check' in a[0]['summary']" ||
    fail "b4 bad patch"
  "$ds" check-patch --b4 --tree "$tree" </dev/null >"$tmp/out" 2>"$tmp/err"
  rc=$?
  [ "$rc" = 2 ] || fail "b4 mode on empty input: exit $rc, expected 2"
  one_error_line "standard input: the patch is empty"
  ;;
equivalent-mbox)
  run 0 "$in/cpudl-equivalent.mbox" --tree "$tree" $fast
  has "verdict: EQUIVALENT" && has "cpudl kernel/sched/cpudeadline.c: EQUIVALENT"
  grep "functions: .*cpudl_heapify_down" "$tmp/out" | grep -q cpudl_exchange || fail "functions"
  run 0 "$in/cpudl-equivalent.mbox" --tree "$tree" $fast --format ktap
  ktap_check "$tmp/out" 'flat["patch-1/cpudl kernel/sched/cpudeadline.c/verdict"] == "PASS" and flat["patch-1/cpudl kernel/sched/cpudeadline.c/properties"] == "PASS" and "FAIL" not in flat.values()'
  ;;
html)
  run 0 "$in/cpudl-equivalent.html" --tree "$tree" $fast
  has "(html)" && has "cpudl kernel/sched/cpudeadline.c: EQUIVALENT"
  ;;
broken-diff)
  sums() { (cd "$tree" && find . -type f | sort | xargs sha256sum && ls -laR); }
  sums >"$tmp/before"
  run 1 "$in/cpudl-broken.diff" --tree "$tree" $thorough --work-dir "$tmp/work"
  sums >"$tmp/after"
  cmp -s "$tmp/before" "$tmp/after" || fail "the tree changed"
  has "verdict: FINDING" && has "functions: cpudl_clear" && has "minimised trace" && has "reproduce: "
  # The printed command reproduces it (exit 1).
  cmd=$(sed -n 's/^  *reproduce: //p' "$tmp/out" | head -1)
  sh -c "$cmd" >"$tmp/replay" 2>&1
  [ $? = 1 ] || { cat "$tmp/replay"; fail "the reproduce command did not exit 1: $cmd"; }
  run 1 "$in/cpudl-broken.diff" --tree "$tree" $thorough --format mail --work-dir "$tmp/work-mail"
  head -1 "$tmp/out" | grep -q "^diffsched check-patch: FINDING: " || fail "mail's first line"
  # No trailer that would pretend to come from another tool (or a person).
  grep -qE "^(Reported-by|Closes|Link|Tested-by|Signed-off-by|Fixes):" "$tmp/out" &&
    fail "the mail report carries a trailer"
  has "minimised trace" && has "-- " && has "(check-patch)" && has "level deadline; nr_cpu_ids: "
  has "base:    the tree as it is" && has "tree:    $tree"
  ;;
ktap-finding)
  run 1 "$in/cpudl-broken.diff" --tree "$tree" $thorough --format ktap --work-dir "$tmp/work-ktap"
  has "# reproduce: "
  # The stage that found it is not ok; the verdict is not ok.
  ktap_check "$tmp/out" '([v for k, v in flat.items() if k.endswith("cpudeadline.c/verdict")] == ["FAIL"] and
"FAIL" in [v for k, v in flat.items() if k.endswith(("cpudeadline.c/properties", "cpudeadline.c/fuzzing"))])'
  ;;
in-kernel)
  # --in-kernel: the host check and, as its stage, the patched file in the
  # booted kernel (QEMU) against the same file in the shim.
  "$ds" check-patch "$in/cpudl-equivalent.mbox" --tree "$tree" $fast --in-kernel --format ktap >"$tmp/out" 2>"$tmp/err"
  rc=$?
  if [ "$rc" = 2 ] && grep -q "needs" "$tmp/out" "$tmp/err"; then grep -h "needs" "$tmp/out" "$tmp/err" | head -3; exit 77; fi
  [ "$rc" = 0 ] || fail "exit $rc, expected 0: check-patch --in-kernel"
  h="patch-1/cpudl kernel/sched/cpudeadline.c"
  ktap_check "$tmp/out" "(flat['$h/verdict'] == 'PASS' and flat['$h/properties'] == 'PASS' and
flat['$h/in_kernel'] == 'PASS' and flat['$h/exhaustive'] == 'SKIP' and 'FAIL' not in flat.values())"
  grep -q "# in_kernel: in the booted kernel (QEMU) and in the shim, op by op: [1-9][0-9]* programs" "$tmp/out" ||
    fail "the in-kernel stage does not say what ran"
  # The host check's command has no --in-kernel; the in-kernel one no baseline.
  "$ds" check-patch "$in/cpudl-equivalent.mbox" --tree "$tree" $fast --in-kernel --format json >"$tmp/out" 2>"$tmp/err"
  python3 - "$tmp/out" <<'EOF' || fail "in-kernel json"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["units"][0]["checks"]
assert len(c) == 1 and [x["stage"] for x in c[0]["stages"]] == ["in-kernel"], c
k = c[0]["stages"][0]
assert "--in-kernel" not in c[0]["command"] and "--baseline" in c[0]["command"], c[0]["command"]
assert "--in-kernel" in k["command"] and "--baseline" not in k["command"], k["command"]
assert k["status"] == 0 and k["programs"] > 0 and c[0]["status_with_stages"] == 0, k
EOF
  ;;
exhaustive)
  # --exhaustive: each check's bounded exhaustive form as its stage; pick at
  # its default bound (every mask triple over 4 CPUs), fn at its own.
  run 0 "$in/pick.patch" --tree "$tree" $fast --exhaustive --format ktap
  h="patch-1/pick kernel/sched/fair.c pick_new_dst_cpu"
  ktap_check "$tmp/out" "(flat['$h/exhaustive'] == 'PASS' and flat['$h/verdict'] == 'PASS' and
flat['$h/in_kernel'] == 'SKIP' and 'FAIL' not in flat.values())"
  has "# exhaustive: every program within the subject's default bounds (kernel-check --exhaustive): 4096 programs"
  run 1 "$in/fn-pick-broken.patch" --tree "$tree" $fast --exhaustive --format json
  python3 - "$tmp/out" <<'EOF' || fail "fn --exhaustive json"
import json, sys
d = json.load(open(sys.argv[1]))
c = d["units"][0]["checks"][0]
assert c["tool"] == "fn" and [x["stage"] for x in c["stages"]] == ["exhaustive"], c
x = c["stages"][0]
assert "--exhaustive" in x["command"] and "--runs" not in x["command"], x["command"]
assert x["status"] == 1 and x["verdict"] == "finding", x
EOF
  ;;
series)
  run 1 "$in/cpudl-series.mbox" --tree "$tree" $thorough --format json --work-dir "$tmp/work-series"
  python3 - "$tmp/out" <<'EOF' || fail "series json"
import json, sys
d = json.load(open(sys.argv[1]))
u = {x["name"]: x["status"] for x in d["units"]}
assert u == {"patch-1": 0, "patch-2": 1, "series": 1}, u
EOF
  ;;
pick)
  run 0 "$in/pick.patch" --tree "$tree" $fast
  has "pick kernel/sched/fair.c pick_new_dst_cpu: EQUIVALENT"
  ;;
pick-and-topology)
  run 3 "$in/pick-and-topology.patch" --tree "$tree" $fast --format ktap
  ktap_check "$tmp/out" 'flat["patch-1/pick kernel/sched/fair.c pick_new_dst_cpu/verdict"] == "PASS" and flat["patch-1/kernel/sched/level.c sd_level_of"] == "SKIP" and "FAIL" not in flat.values()'
  run 3 "$in/pick-and-topology.patch" --tree "$tree" $fast
  has "pick kernel/sched/fair.c pick_new_dst_cpu: EQUIVALENT"
  has "not checked: kernel/sched/level.c sd_level_of"
  ;;
fn-pick)
  # A changed function no kernel-check takes goes to diffsched fn; the patch
  # in b4 am's mbox form (a cover letter, then fn-pick.patch's message; the
  # format-patch form is fn-pick-broken's).
  run 0 "$in/fn-pick.mbox" --tree "$tree" --runs 200
  has "fn kernel/sched/loadbalance.c find_new_dst_cpu: EQUIVALENT"
  has "diffsched fn: 200 generated inputs"
  ;;
b4-am)
  # The real b4 (Debian 12's b4 0.12, installed by scripts/install-deps.sh; a
  # missing b4 fails) run offline on fn-pick.mbox: `b4 am -m` reads the local
  # mbox, writes its git-am-ready .mbx; check-patch reads that. A temporary
  # HOME and XDG dirs, no system git config; b4 0.12 stops (KeyError 'email')
  # without a user.email, so a test-only identity is given in the environment.
  command -v b4 >/dev/null || fail "b4 is not installed (scripts/install-deps.sh installs it)"
  mkdir -p "$tmp/home" "$tmp/b4"
  (cd "$tmp" && env -i PATH="$PATH" HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" \
     XDG_DATA_HOME="$tmp/home/.local/share" XDG_CACHE_HOME="$tmp/home/.cache" \
     GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.email \
     GIT_CONFIG_VALUE_0=ctest@example.org GIT_CONFIG_KEY_1=user.name GIT_CONFIG_VALUE_1=ctest \
     b4 --offline-mode am -m "$in/fn-pick.mbox" -o "$tmp/b4" '<20261202060000.1-fn-pick@example.org>') \
     >"$tmp/out" 2>"$tmp/err" || fail "b4 am exit $?"
  set -- "$tmp"/b4/*.mbx
  [ $# = 1 ] && [ -f "$1" ] || fail "b4 am wrote no single .mbx in $tmp/b4"
  grep -q '^Total patches: 1' "$tmp/err" || fail "b4 am did not take 1 patch"
  mbx=$1
  run 0 "$mbx" --tree "$tree" --runs 100
  has ".mbx (mbox)" && has "[PATCH 1/1] sched/fair: find_new_dst_cpu() with cpumask_first_and_and() (test patch): EQUIVALENT"
  has "fn kernel/sched/loadbalance.c find_new_dst_cpu: EQUIVALENT"
  has "diffsched fn: 100 generated inputs"
  ;;
fn-pick-broken)
  run 1 "$in/fn-pick-broken.patch" --tree "$tree" --runs 200 --format ktap
  ktap_check "$tmp/out" 'flat["patch-1/fn kernel/sched/loadbalance.c find_new_dst_cpu/verdict"] == "FAIL"'
  has "# reproduce: " && has "--function find_new_dst_cpu"
  ;;
seeds)
  # The two seed pages (outside the repository; SEEDS_DIR, a cache variable):
  # their diffs found, the files and functions they touch named.
  s0=$(ls "$SEEDS_DIR"/000_*.txt) && s4=$(ls "$SEEDS_DIR"/004_*.txt) || fail "no seed pages in $SEEDS_DIR"
  run 0 "$s0" --list
  has "kernel/sched/cpudeadline.c: " && has "cpudl_exchange" && has "cpudl_heapify_down" && has "cpudl_heapify_up"
  run 0 "$s4" --list
  has "kernel/sched/fair.c: " && has "can_migrate_task"
  ;;
page)
  # A list-archive page's text written for the project (navigation, headers,
  # the message, the diff, the footer), as the seeds are: the page-reading
  # path always tested, seeds or not (cpudl-equivalent.html is the HTML form).
  run 0 "$in/archive-page.txt" --list
  has "(mail, 1 patch)" && has "author: Check Patch Tester <tester@example.org>"
  has "[PATCH] sched/deadline: clear sifts only down (test page)"
  has "kernel/sched/cpudeadline.c: 1 hunk; functions: cpudl_clear"
  ;;
page-finding)
  # The same page checked end to end: its patch applies to the tree and the
  # bug it brings is found (the text page form, as cpudl-broken.diff's diff).
  run 1 "$in/archive-page.txt" --tree "$tree" $thorough --format mail
  head -1 "$tmp/out" | grep -q "^diffsched check-patch: FINDING: .*clear sifts only down (test page)" ||
    fail "mail's first line"
  has "reproduce: "
  ;;
*) echo "unknown case $case"; exit 2 ;;
esac
echo "ok ($case)"
