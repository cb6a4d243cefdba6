#!/usr/bin/env bash
# docs/extending.md's "Add a subject", checked against the code by planting
# a third tool subject (ctest contract.add-a-subject):
#   plant-subject.sh CXX SOURCE_DIR LIBCLANG_INCLUDE_DIR [--build [--build-harness]]
# A copy of the tree gets `picktwo`, a copy of the pick package under a new
# name with a new candidate API form, made the way the doc says a subject
# with kernel-check, perf, verify, mutate and --in-kernel is made: its own
# new files (src/subjects/picktwo/, the glue kshim/runtime/glue_picktwo.c,
# the in-kernel driver's part kshim/kmod/kc_subject_picktwo.c, its fuzz
# options and seeds) and edits to the lists only. Then
#   - at most 6 existing files are edited (git diff of the copy), each one
#     the doc's "Add a subject" table names;
#   - the new package's units, and the generic units that instantiate every
#     tool subject's hooks (verify, perf, kernel-check's build and
#     --in-kernel, export, mutate, the harness, the registry), compile, as do
#     the driver's subject part and the glue;
#   - with --build (ctest contract.add-a-subject.build: a whole build of the
#     copy at -O1 without debug info), `diffsched` is built in the copy and verify
#     and perf run on the new subject (mutate and kernel-check list it);
#   - with --build --build-harness (the same ctest) also the copy's harness
#     (fuzz preset, kcheck_harness), and every mode runs on picktwo:
#     kernel-check (properties and fuzzing: equivalent; --exhaustive 3:
#     equivalent; a broken pick file: a picktwo finding), mutate (two
#     mutants, a JSON report of subject picktwo) and kernel-check
#     --in-kernel (one guest boot: the same answers in the kernel).
set -u
cxx=$1
src=$2
clang_include=$3
build=${4:-}
cc=${CC:-cc}
doc="$src/docs/extending.md"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../support/testlib.sh"  # fail: counted in $fails

# The tree as it is (tracked and new files, not the build directories).
copy=$tmp/tree
mkdir -p "$copy"
if git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1; then
  (cd "$src" && git ls-files -z --cached --others --exclude-standard |
     xargs -0 -r tar cf - --ignore-failed-read 2>/dev/null) | tar xf - -C "$copy"
else
  (cd "$src" && tar cf - --exclude='./build*' .) | tar xf - -C "$copy"
fi
git -C "$copy" init -q && git -C "$copy" add -A &&
  git -C "$copy" -c user.name=plant -c user.email=plant@localhost commit -qm base ||
  { echo "FAIL: cannot make a git baseline of the copy"; exit 1; }

python3 - "$copy" <<'PY' || { echo "FAIL: the plant's edits did not apply (has a list moved?)"; exit 1; }
import pathlib, re, shutil, sys
root = pathlib.Path(sys.argv[1])
def edit(rel, fn):
    p = root / rel
    s = p.read_text()
    t = fn(s)
    if t == s:
        raise SystemExit(f"plant: {rel} unchanged")
    p.write_text(t)
def new(rel, text):
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    if p.exists():
        raise SystemExit(f"plant: {rel} exists")
    p.write_text(text)

# New files: the package, renamed (its namespace, its subject name, its
# descriptor, its API form and its glue).
def rename(s):
    s = re.sub(r'\bnamespace diffsched::pick\b', 'namespace diffsched::picktwo', s)
    s = re.sub(r'(?<![\w])pick::', 'picktwo::', s)
    s = s.replace('subjects/pick/', 'subjects/picktwo/')
    s = s.replace('kPickTool', 'kPicktwoTool')
    s = s.replace('KCHECK_API_PICK', 'KCHECK_API_PICKTWO').replace('KernelApi::kPICK', 'KernelApi::kPICKTWO')
    s = s.replace('glue_pick.c', 'glue_picktwo.c')
    return s
for f in sorted((root / 'src/subjects/pick').iterdir()):
    s = rename(f.read_text())
    if f.name == 'lockstep.h':
        s = s.replace('kName = "pick"', 'kName = "picktwo"')
    if f.name == 'cli_verify.cpp':
        s = s.replace('"pick", "Every triple', '"picktwo", "Every triple')
    new(f'src/subjects/picktwo/{f.name}', s)
new('kshim/runtime/glue_picktwo.c', rename((root / 'kshim/runtime/glue_pick.c').read_text()))
new('kshim/kmod/kc_subject_picktwo.c', (root / 'kshim/kmod/kc_subject_pick.c').read_text())
new('fuzz/picktwo.options', (root / 'fuzz/pick.options').read_text())
for d in ('corpus/seeds', 'corpus/regressions'):
    for f in sorted((root / d / 'pick').glob('*.ops')):
        new(f'{d}/picktwo/{f.name}', re.sub(r'(?m)^subject pick$', 'subject picktwo', f.read_text()))

# The lists: each an append.
edit('src/subjects.h', lambda s: s.replace(
    '#include "subjects/pick/print.h"\n',
    '#include "subjects/pick/print.h"\n#include "subjects/picktwo/lockstep.h"\n'
    '#include "subjects/picktwo/print.h"\n', 1).replace(
    'cpumask::Subject>;', 'cpumask::Subject, picktwo::Subject>;', 1).replace(
    'static_assert(Subject<cpumask::Subject>);',
    'static_assert(Subject<cpumask::Subject>);\nstatic_assert(Subject<picktwo::Subject>);', 1))
def tools(s):
    m = re.search(r'inline constexpr SubjectTool kPickTool\{.*?\n\};\n', s, re.S)
    two = m.group(0).replace('kPickTool', 'kPicktwoTool').replace(
        'pick::Subject', 'picktwo::Subject').replace(
        '"kernel/sched/fair.c"', '"kernel/sched/picktwo.c"')
    s = s[:m.end()] + '\n' + two + s[m.end():]
    s = re.sub(r'std::array<const SubjectTool\*, (\d+)> kSubjectTools\{(.*?)\};',
               lambda m: f'std::array<const SubjectTool*, {int(m.group(1)) + 1}> '
                         f'kSubjectTools{{{m.group(2)}, &kPicktwoTool}};', s, 1)
    return s.replace('using ToolSubjects = std::tuple<cpudl::Subject, pick::Subject>;',
                     'using ToolSubjects = std::tuple<cpudl::Subject, pick::Subject, picktwo::Subject>;', 1)
edit('src/subject_tools.h', tools)
edit('src/registry.def', lambda s: re.sub(
    r'(DIFFSCHED_TARGET\(pick, [^\n]*\n)',
    r'\1DIFFSCHED_TARGET(picktwo, "picktwo", kExact, lockstep, "pick", "the planted copy of pick (plant-subject.sh)")\n',
    s, 1))
edit('kshim/abi/kcheck_abi.h', lambda s: s.replace(
    '#define KCHECK_API_PICK 1000', '#define KCHECK_API_PICK 1000\n#define KCHECK_API_PICKTWO 1001', 1).replace(
    'X(PICK, "pick")', 'X(PICK, "pick") \\\n\tX(PICKTWO, "picktwo")', 1))
PY

# The count: existing files edited, each named by the doc's table.
mapfile -t edited < <(git -C "$copy" diff --name-only)
echo "existing files edited: ${#edited[@]}: ${edited[*]}"
((${#edited[@]} <= 6)) || fail "a third subject edits ${#edited[@]} existing files (at most 6)"
table=$(awk '/^## Add a subject/{on=1; next} /^## /{on=0} on' "$doc")
for f in "${edited[@]}"; do
  grep -qF "\`$f\`" <<<"$table" || fail "$f is edited, but docs/extending.md's 'Add a subject' does not name it"
done
grep -q "a third subject edits ${#edited[@]} existing files" "$doc" ||
  fail "docs/extending.md does not say 'a third subject edits ${#edited[@]} existing files'"

# The compiles: the new package and the units that instantiate its hooks.
compile() {  # unit -> its errors
  case $1 in
    kshim/kmod/*.c) "$cc" -std=gnu11 -fsyntax-only -Wall -Werror -I"$copy/kshim/abi" "$copy/$1" 2>&1 ;;
    kshim/runtime/*.c) "$cc" -std=gnu11 -fsyntax-only -nostdinc -iquote "$copy/kshim/sched" \
         -I"$copy/kshim/include" -I"$copy/kshim/abi" -include "$copy/kshim/include/kshim/kshim.h" \
         -DKCHECK_FUNCTION=select_dst_cpu -DKCHECK_SOURCE='"x.c"' "$copy/$1" 2>&1 ;;
    *) "$cxx" -std=c++20 -fsyntax-only -DBOOST_ALL_NO_LIB -DDIFFSCHED_SOURCE_DIR=\"$copy\" \
         -DDIFFSCHED_LIBCLANG_PATH=\"\" -DDIFFSCHED_VERSION=\"0\" -I"$copy/src" -I"$copy/kshim/abi" \
         -I"$copy/kshim/harness" -isystem "$clang_include" "$copy/$1" 2>&1 ;;
  esac
}
# (A sample, to keep the test near a minute: the package's units that define
# its hooks and the generic units that instantiate them for every subject.)
units=(src/subjects/picktwo/{lockstep,cli_verify,perf_search,kcheck_check,kcheck_harness}.cpp
       kshim/kmod/kc_subject_picktwo.c kshim/runtime/glue_picktwo.c
       src/cli/cmd_verify.cpp src/kcheck/in_kernel.cpp src/kcheck/kernel_check.cpp
       src/subject_tools.cpp kshim/harness/harness.cpp)
(cd "$copy" && printf '%s\n' ${units[@]}) >"$tmp/units"
# Two at a time (the CI machine's cores), each unit's errors in its own log.
i=0
while read -r u; do
  i=$((i + 1))
  { compile "$u" >"$tmp/unit-$i.log" || echo "$u" >"$tmp/unit-$i.failed"; } &
  (( i % 2 == 0 )) && wait
done <"$tmp/units"
wait
for f in "$tmp"/unit-*.failed; do
  [ -e "$f" ] || continue
  fail "$(cat "$f") does not compile with the planted subject:"
  head -5 "${f%.failed}.log"
done
echo "compiled $i units"

# The copy's builds are at -O1 without debug info: what they prove is that the
# planted subject builds and runs in every mode, not its speed; the default
# -O2 -g1 takes 1.3x as long to compile (one unity unit: 15.9 s against 12.4 s).
# The suite's slowest test (ctest contract.add-a-subject.build) runs beside
# the rest, so its compile time is the suite's.
copy_flags=(-DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG")
if [ "$build" = --build ]; then
  t0=$(date +%s)
  (cd "$copy" && cmake --preset default "${copy_flags[@]}" >/dev/null &&
     nice cmake --build build -j2 --target diffsched >"$tmp/build.log" 2>&1) ||
    { fail "the copy with the planted subject does not build:"; tail -20 "$tmp/build.log"; exit 1; }
  echo "built diffsched in $(($(date +%s) - t0)) s"
  # pick's and picktwo's units (the same helper names) never share a unity file.
  "$src/properties/compile_fail/unity-by-package.sh" "$copy/build" ||
    fail "a unity file of the copy joins two packages"
  ds=$copy/build/diffsched
  cd "$tmp" || exit 1  # what a mode writes to its working directory stays in the temporary one
  "$ds" verify picktwo --bits 3 || fail "verify picktwo"
  "$ds" perf picktwo --cpus 64 --runs 50 --out "$tmp/perf-out" >"$tmp/perf.txt" || fail "perf picktwo"; tail -3 "$tmp/perf.txt"
  "$ds" mutate picktwo --help >/dev/null || fail "mutate picktwo --help"
  "$ds" kernel-check picktwo --help >/dev/null || fail "kernel-check picktwo --help"
  # The copy's harness (the fuzz preset: a second build), then every mode.
  if [ "${5:-}" = --build-harness ]; then
    t0=$(date +%s)
    (cd "$copy" && cmake --preset fuzz "${copy_flags[@]}" >/dev/null &&
       nice cmake --build build-fuzz -j2 --target kcheck_harness \
       >"$tmp/build-fuzz.log" 2>&1) ||
      { fail "the copy's harness does not build:"; tail -20 "$tmp/build-fuzz.log"; exit 1; }
    echo "built the harness in $(($(date +%s) - t0)) s"
    ex=$copy/kshim/examples/pick
    h="--harness $copy/build-fuzz/kshim/kcheck_harness --no-build"
    # run WANT NAME ARGS...: the copy's diffsched, its exit status and a
    # line of its output that names picktwo.
    run() {
      want=$1 name=$2; shift 2
      "$ds" "$@" >"$tmp/mode.log" 2>&1
      rc=$?
      if [ "$rc" != "$want" ] || ! grep -q picktwo "$tmp/mode.log"; then
        fail "$name: exit $rc (expected $want), or no 'picktwo' in its output:"; tail -15 "$tmp/mode.log"
      else
        echo "ok: $name: exit $rc: $(grep -m1 "verdict\|score\|FINDING" "$tmp/mode.log")"
      fi
    }
    # shellcheck disable=SC2086
    run 0 "kernel-check picktwo" kernel-check picktwo --candidate "$ex/optimized.c" $h --time 1 --runs 200
    # shellcheck disable=SC2086
    run 0 "kernel-check picktwo --exhaustive 3" kernel-check picktwo --candidate "$ex/optimized.c" $h --exhaustive 3 --time 0
    # shellcheck disable=SC2086
    run 1 "kernel-check picktwo on a broken file" kernel-check picktwo --candidate "$ex/broken/first-only.c" $h \
      --time 2 --runs 500 -o "$tmp/finding.ops"
    grep -q '^subject picktwo$' "$tmp/finding.ops" 2>/dev/null || fail "the reproducer is not a picktwo program"
    # shellcheck disable=SC2086
    run 0 "mutate picktwo" mutate picktwo --candidate "$ex/optimized.c" --max-mutants 2 --budget 1 --runs 200 \
      --no-confirm --no-equiv --harness "$copy/build-fuzz/kshim/kcheck_harness" --json "$tmp/mutate.json"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert "picktwo" in json.dumps(d)' "$tmp/mutate.json" ||
      fail "mutate's JSON report does not name picktwo"
    run 0 "kernel-check picktwo --in-kernel" kernel-check picktwo --candidate "$ex/optimized.c" --in-kernel --runs 10 \
      --nr-cpus 8
  fi
fi
[ "$fails" = 0 ] || exit 1
echo "ok: a third subject (picktwo) edits ${#edited[@]} existing files, all named by the doc, and compiles${build:+; built and run: $build ${5:-}}"
