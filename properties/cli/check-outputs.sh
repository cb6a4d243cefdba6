#!/usr/bin/env bash
# Outputs, printed commands and writes (issue 22, sections 3, 4, 5), one
# class per call:
#   check-outputs.sh DIFFSCHED SOURCE_DIR CLASS
# CLASS:
#   paste-safe     every printed command (minimize's reproduce:, verify's
#                  explain it with:), pasted into bash, runs what it shows and
#                  nothing else, for hostile -o names and a hostile binary path
#   json-bytes     replay --json of a file whose name is not UTF-8 is valid JSON
#   full-stdout    replay, replay --json, ops, targets --json, decode -o -,
#                  --help into /dev/full: exit 2, one line; a finding keeps 1
#   full-disk      encode and minimize onto a full device: exit 2, one line,
#                  never "wrote"
#   missing-dir    -o into a missing directory makes it; a finding stays 1
#   export-kmod    export --kmod -o DIR never removes DIR, an input or a file
#                  it did not write; a foreign DIR needs --force
#   campaign-args  --targets twice, --out/--corpus as symlink loops, a foreign
#                  --out with only a campaign's names
#   workdir        kernel-check --work-dir: a foreign one is refused, inputs in
#                  candidate/ survive, an earlier run's crash files are never
#                  this run's; a candidate named with '"' or a newline builds
set -u
. "$(dirname "$0")/../support/testlib.sh"
D=$(realpath "$1")
SRC=$(realpath "$2")
CLASS=$3
DIR=$(mktemp -d "${TMPDIR:-/tmp}/diffsched-outputs-XXXXXX")
trap 'rm -rf "$DIR"' EXIT
cd "$DIR" || exit 2
TIE=$SRC/corpus/regressions/cpudl/tie-exact.ops

# expect_status STATUS PATTERN ARGS... ( properties/support/testlib.sh):
# diffsched ARGS exits STATUS; for 2, stderr is one "diffsched: error:" line;
# stderr matches PATTERN ('': none) whatever the status; status 1 if not.
TL_PROG=$D TL_OK=1

# The hostile names: $(...) and backquotes, quotes, spaces, a newline, a
# leading '-', ESC, a byte that is not UTF-8.
names=('m$(touch INJECTED)' 'm`touch INJECTED`' "it's \"q\"" 'a b' $'nl\n$(touch INJECTED)'
       '-dash' $'esc\e[31m' $'lat\xe9' '$HOME;touch INJECTED')

case $CLASS in
paste-safe)
  # A binary whose own path is hostile: the printed command must quote it too.
  bindir="b i n/\$(touch INJECTED)/it's"
  mkdir -p "$bindir" && cp "$D" "$bindir/diffsched"
  for bin in "$D" "$DIR/$bindir/diffsched"; do
    for n in "${names[@]}"; do
      mkdir -p out && rm -f out/* ./-dash*
      "$bin" minimize "$TIE" --level exact -o "out/$n" >out.log 2>err.log ||
        { fail "minimize -o out/$n: exit $?"; cat err.log; continue; }
      line=$(grep -a '^reproduce: ' out.log | LC_ALL=C sed 's/^reproduce: //')
      [[ $(grep -ac '^reproduce: ' out.log) == 1 ]] || fail "minimize -o out/$n: not one reproduce: line"
      # The line replays the written file from the same directory: exit 1, the tie.
      rc=$(bash --norc -c "$line" >paste.log 2>&1; echo $?)
      [[ $rc == 1 ]] && grep -qi 'divergence' paste.log ||
        fail "the pasted reproduce: line '$line' did not replay the finding (exit $rc)"
      [[ -e INJECTED ]] && fail "the reproduce: line '$line' ran an injected command"
      # And with a leading '-' as a relative -o (no directory part).
      if [[ $n == -dash ]]; then
        "$bin" minimize "$TIE" --level exact -o ./-dash >out.log 2>&1
        line=$(grep -a '^reproduce: ' out.log | LC_ALL=C sed 's/^reproduce: //')
        [[ $line == *" ./-dash.ops" ]] || fail "a leading '-' is printed as an option: $line"
        rc=$(bash --norc -c "$line" >/dev/null 2>&1; echo $?)
        [[ $rc == 1 ]] || fail "'$line' did not replay ./-dash.ops (exit $rc)"
      fi
      "$bin" verify cpudl --cpus 3 --deadlines 2 --level exact -o "out/v$n" >out.log 2>err.log
      [[ $? == 1 ]] || { fail "verify -o out/v$n: not exit 1"; cat err.log; }
      line=$(grep -a 'explain it with: ' out.log | LC_ALL=C sed 's/.*explain it with: //')
      rc=$(bash --norc -c "$line" >paste.log 2>&1; echo $?)
      [[ $rc == 1 ]] || fail "the pasted explain line '$line' did not replay (exit $rc)"
      [[ -e INJECTED ]] && fail "the explain line '$line' ran an injected command"
    done
  done
  [[ $fails == 0 ]] && ok "every printed command, pasted, ran only what it showed"
  ;;
json-bytes)
  for n in $'lat\xe9.ops' $'bad\xff\xfe.ops' $'ctl\x01\x1b.ops' 'plain.ops'; do
    cp "$TIE" "$n"
    "$D" replay --json --level exact "$n" >out.json 2>err.log
    rc=$?
    [[ $rc == 1 ]] || { fail "replay --json on a name with bytes: exit $rc"; cat err.log; }
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1], encoding="utf-8")); assert d["verdict"]' out.json ||
      fail "replay --json $(printf %q "$n"): not valid UTF-8 JSON"
  done
  # The one rule (util/json.h): a byte that is not UTF-8 is its U+00XX.
  cp "$TIE" $'r\xe9.ops'
  "$D" replay --json --level exact $'r\xe9.ops' >out.json
  python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["file"].endswith("r\u00e9.ops")' out.json ||
    fail "a non-UTF-8 byte is not written as its U+00XX"
  [[ $fails == 0 ]] && ok "replay --json is valid JSON for any file name"
  ;;
full-stdout)
  cp "$SRC/corpus/regressions/cpudl/wrap-2to64.ops" ok.ops
  "$D" encode ok.ops -o ok.bin >/dev/null || fail "encode ok.ops"
  for args in "replay ok.ops" "replay --json ok.ops" "replay --tree ok.ops" "ops" \
              "targets" "targets --json" "decode ok.bin" "decode ok.bin -o -" "--help" "replay --help"; do
    # shellcheck disable=SC2086
    "$D" $args >/dev/full 2>err.log
    rc=$?
    if [[ $rc != 2 ]] || [[ $(wc -l <err.log) != 1 ]] || ! grep -q 'cannot write standard output' err.log; then
      fail "diffsched $args >/dev/full: exit $rc, stderr:"; sed 's/^/  | /' err.log
    else
      ok "diffsched $args >/dev/full -> 2: $(cat err.log)"
    fi
  done
  # A finding keeps its status (1): a lost report never turns it into exit 2.
  "$D" replay --level exact "$TIE" >/dev/full 2>err.log
  rc=$?
  [[ $rc == 1 ]] && grep -q 'cannot write standard output' err.log ||
    fail "replay of a finding >/dev/full: exit $rc (want 1 and the write error)"
  ;;
full-disk)
  cp "$TIE" in.ops
  ln -s /dev/full full.bin
  expect_status 2 'cannot write full.bin: No space left on device' encode in.ops -o full.bin
  grep -q '^wrote' out.log && fail "encode said 'wrote' on a full device"
  ln -s /dev/full m.ops
  expect_status 2 'cannot write m.ops: No space left on device' minimize in.ops --level exact -o m
  grep -q '^wrote\|^reproduce' out.log && fail "minimize said 'wrote' on a full device"
  ln -s /dev/full v.ops
  expect_status 1 'cannot write v.ops: No space left on device' verify cpudl --cpus 3 --deadlines 2 --level exact -o v.ops
  grep -q 'written to' out.log && fail "verify said 'written to' on a full device"
  ;;
missing-dir)
  cp "$TIE" in.ops
  expect_status 0 '' encode in.ops -o new/a/b.bin && [[ -s new/a/b.bin ]] || fail "encode -o new/a/b.bin"
  expect_status 0 '' minimize in.ops --level exact -o new/m/min && [[ -s new/m/min.ops && -s new/m/min.bin ]] ||
    fail "minimize -o new/m/min"
  expect_status 1 '' verify cpudl --cpus 3 --deadlines 2 --level exact -o new/v/c.ops && [[ -s new/v/c.ops ]] ||
    fail "verify -o new/v/c.ops: the counterexample is not written"
  touch afile
  expect_status 1 'cannot write afile/c.ops' verify cpudl --cpus 3 --deadlines 2 --level exact -o afile/c.ops
  grep -q 'COUNTEREXAMPLE' out.log || fail "verify: the finding is not reported when -o cannot be written"
  ;;
export-kmod)
  cand=$SRC/kshim/examples/cpudl/v4.9-swap.c
  { echo "# candidate: $DIR/out/cand.c"; cat "$TIE"; } >f.ops
  # A directory the tool does not own: an unrelated file, the candidate and the
  # .ops inside it. Refused without --force, nothing deleted.
  mkdir out && echo mine >out/notes.txt && cp "$cand" out/cand.c && cp f.ops out/f.ops
  before=$(cd out && find . -type f | sort | xargs md5sum)
  expect_status 2 'not empty and not written by diffsched export --kmod' export --kmod out/f.ops -o out
  [[ $(cd out && find . -type f | sort | xargs md5sum) == "$before" ]] || fail "a refused export changed -o"
  expect_status 0 '' export --kmod out/f.ops -o out --force
  for f in notes.txt cand.c f.ops; do [[ -f out/$f ]] || fail "export --force deleted out/$f"; done
  [[ -f out/Kbuild && -f out/candidate.c && -f out/program.ops ]] || fail "export wrote no module"
  # An earlier export's directory: taken without --force, its files replaced,
  # the others kept; the candidate as out/candidate.c itself is never deleted.
  echo later >out/later.txt
  { echo "# candidate: $DIR/out/candidate.c"; cat "$TIE"; } >g.ops
  expect_status 0 '' export --kmod g.ops -o out
  for f in notes.txt cand.c f.ops later.txt candidate.c Kbuild; do [[ -f out/$f ]] || fail "the second export lost out/$f"; done
  expect_status 0 '' export --kmod out/program.ops -o out --candidate out/candidate.c
  [[ -s out/program.ops && -s out/candidate.c ]] || fail "an export from its own directory deleted its inputs"
  # A missing candidate: an error, never "wrote".
  { echo "# candidate: $DIR/gone.c"; cat "$TIE"; } >h.ops
  expect_status 2 'gone.c: no such file' export --kmod h.ops -o out2
  grep -q wrote out.log && fail "export said wrote without a candidate"
  ln -s loop loop
  expect_status 2 'Too many levels of symbolic links' export --kmod f.ops --candidate "$cand" -o loop
  ;;
campaign-args)
  mkdir fz && for t in cpudl cpudl_exact pick cpumask inputs; do printf '#!/bin/sh\nexit 0\n' >fz/$t; chmod +x fz/$t; done
  expect_status 2 "--targets: 'cpudl_exact' is given twice" campaign --time 1 --targets cpudl_exact,cpudl_exact --fuzz-dir fz --out o1
  [[ -e o1 ]] && fail "a refused campaign made --out"
  ln -s oloop oloop
  expect_status 2 '--out oloop: Too many levels of symbolic links' campaign --time 1 --targets cpudl --fuzz-dir fz --out oloop
  expect_status 2 '--corpus oloop: Too many levels of symbolic links' campaign --time 1 --targets cpudl --fuzz-dir fz --out o2 --corpus oloop
  grep -q overlap err.log && fail "a symlink loop is called an overlap"
  mkdir -p o3/work o3/findings && echo x >o3/summary.md && echo keep >o3/work/mine
  expect_status 2 "not a campaign's output directory" campaign --time 1 --targets cpudl --fuzz-dir fz --out o3
  [[ -f o3/summary.md && -f o3/work/mine ]] || fail "a foreign --out lost files without --force"
  # A symlink loop (and a dangling link) inside CORPUS/<target>: the campaign
  # runs to its reports (here engine-failed: the fake engine runs nothing),
  # never an abort on filesystem_error.
  mkdir -p corp/cpudl && ln -s loop corp/cpudl/loop && ln -s gone corp/cpudl/dangling
  "$D" campaign --time 2 --targets cpudl --fuzz-dir fz --out o4 --corpus corp -q >o4.log 2>&1
  rc=$?
  [[ $rc == 2 && -f o4/summary.md && -f o4/junit.xml ]] ||
    { fail "a symlink loop in the corpus: exit $rc, reports missing"; tail -5 o4.log; }
  ;;
workdir)
  cand=$SRC/kshim/examples/cpudl/v4.9-swap.c
  # The built harness (fixture kcheck_harness), so that the fuzzing step runs
  # and looks for this run's artifacts: a harness that does nothing stops at
  # the property run now (no result record), before any crash file is read.
  kc=(kernel-check cpudl --no-build --time 1 --runs 1)
  mkdir foreign && echo mine >foreign/notes.txt
  expect_status 2 '--work-dir [^ ]*foreign: not empty and not written by diffsched kernel-check' "${kc[@]}" --candidate "$cand" --work-dir foreign
  [[ -f foreign/notes.txt ]] || fail "a refused --work-dir lost a file"
  # First run: a kernel-check's directory. Then the user's candidate is put in
  # candidate/ and baseline/, and stale crash files beside the artifacts.
  "$D" "${kc[@]}" --candidate "$cand" --work-dir w >first.log 2>&1
  [[ -f w/.diffsched-owned ]] || { fail "kernel-check wrote no manifest in --work-dir"; cat first.log; }
  mkdir -p w/candidate w/baseline w/artifacts
  cp "$cand" w/candidate/mine.c && cp "$cand" w/baseline/base.c
  echo stale >w/artifacts/crash-deadbeef && echo stale >w/timeout-deadbeef && echo stale >w/crash-cafe
  "$D" "${kc[@]}" --candidate w/candidate/mine.c --baseline w/baseline/base.c --work-dir w >second.log 2>&1
  [[ -s w/candidate/mine.c && -s w/baseline/base.c ]] || fail "kernel-check deleted an input inside --work-dir"
  grep -q 'deadbeef\|cafe' second.log && { fail "a reused --work-dir reported an earlier run's crash file"; cat second.log; }
  grep -q 'FINDING' second.log && { fail "a reused --work-dir gave a FINDING"; cat second.log; }
  [[ -e w/artifacts/crash-deadbeef ]] && fail "the earlier artifacts survived the reuse"
  grep -q '^verdict: EQUIVALENT' second.log || { fail "a reused --work-dir with its inputs in candidate/ did not complete"; cat second.log; }
  # And again: the header the last run staged beside mine.c in candidate/ is
  # its leftover, not the tree's own cpudeadline.h (it is cleaned, not read).
  "$D" "${kc[@]}" --candidate w/candidate/mine.c --baseline w/baseline/base.c --work-dir w >third.log 2>&1
  grep -q '^verdict: EQUIVALENT' third.log || { fail "a third run in the same --work-dir did not complete"; cat third.log; }
  grep -q 'header .*cpudeadline.h' third.log && { fail "a third run took the staged header for the tree's own"; cat third.log; }
  # The tree's own cpudeadline.h beside a candidate outside the work directory is still used.
  mkdir -p w2 && cp "$cand" w2/mine.c && cp "$SRC/kshim/cpudeadline/cpudeadline-v4.9.h" w2/cpudeadline.h
  "$D" "${kc[@]}" --candidate w2/mine.c --work-dir w2/w --verdict-json w2/verdict.json >fourth.log 2>&1
  grep -q 'header w2/cpudeadline.h' fourth.log || { fail "the tree's own cpudeadline.h beside the candidate was not used"; cat fourth.log; }
  # The verdict as data: the candidate's cpudl_find() convention as a word
  # (this example returns 1 or 0), which mutate reads instead of the form's prose.
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["find_returns"] == "0/1", d["find_returns"]' w2/verdict.json ||
    { fail "the verdict file does not say find_returns 0/1 for a cpudl_find() that returns 1 or 0"; cat w2/verdict.json; }
  mkdir -p w3 && cp "$SRC/kshim/examples/cpudl/v4.9-cpu-swap.c" w3/mine.c
  "$D" "${kc[@]}" --candidate w3/mine.c --work-dir w3/w --verdict-json w3/verdict.json >fifth.log 2>&1
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["find_returns"] == "cpu", d["find_returns"]' w3/verdict.json ||
    { fail "the verdict file does not say find_returns cpu for a cpudl_find() that returns a CPU"; cat w3/verdict.json fifth.log; }
  # Names that need quoting in a generated compiler argument.
  for n in 'q"uote.c' $'new\nline.c' 'back\slash.c' 'd$(touch INJECTED).c' $'lat\xe9.c'; do
    cp "$cand" "$n"
    "$D" "${kc[@]}" --candidate "$n" --work-dir "w-$RANDOM" >name.log 2>&1
    grep -q 'does not build\|not support' name.log && { fail "a candidate named $(printf %q "$n") did not build"; cat name.log; }
    grep -q '^  built ' name.log || { fail "a candidate named $(printf %q "$n") was not built"; cat name.log; }
    [[ -e INJECTED ]] && fail "a candidate's name ran a command"
  done
  [[ $fails == 0 ]] && ok "work directories: refused when foreign, inputs kept, stale crashes ignored, names quoted"
  ;;
*)
  echo "unknown class $CLASS"; exit 2 ;;
esac
if [[ $fails -ne 0 ]]; then echo "$fails failure(s)"; exit 1; fi
echo "all ok"
