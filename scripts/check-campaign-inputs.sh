#!/usr/bin/env bash
# A campaign never passes on nothing: bad paths are refused before anything
# starts, an engine that fails or runs no input fails the campaign (exit 2,
# status engine-failed in all three reports), and a reused --out holds only
# the new run's findings.
#   scripts/check-campaign-inputs.sh DIFFSCHED [FUZZ_DIR]
# Without FUZZ_DIR, fake engines (shell scripts) stand in for the fuzz
# binaries; with it (the fuzz preset's build-fuzz/fuzz), real libFuzzer and
# afl-fuzz are made to fail too.
set -uo pipefail
diffsched=$(realpath "$1")
fuzz_dir=${2:+$(realpath "$2")}
src=$(cd "$(dirname "$0")/.." && pwd)
source "$src/scripts/registry.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
. "$src/properties/support/testlib.sh"
# fail MESSAGE: "campaign-inputs: MESSAGE", counted in $fails.
# expect_status STATUS PATTERN ARGS... (properties/support/testlib.sh):
# `diffsched campaign ARGS` exits STATUS, with one "diffsched: error:" line on
# stderr that matches PATTERN.
TL_FAIL_PREFIX="campaign-inputs: " TL_PROG=$diffsched TL_SUB=campaign TL_SHOW= TL_ERROR_LINES=count TL_OK=1

# A fake fuzz binary: prints $2 and exits $1.
fake() {  # fake DIR STATUS TEXT
  mkdir -p "$1"
  local name
  for name in $(registry_targets); do
    printf '#!/bin/sh\nprintf "%%s\\n" "%s"\nexit %s\n' "$3" "$2" >"$1/$name"
    chmod +x "$1/$name"
  done
}

# engine_failed ARGS...: the campaign runs, exits 2, and each report says
# engine-failed; the reports validate.
engine_failed() {
  local out=$1 reason=$2 rc before=$fails
  shift 2
  "$diffsched" campaign --out "$out" "$@" -q >"$out.log" 2>&1
  rc=$?
  local sarif=$out/results.sarif
  if [[ $rc != 2 ]]; then fail "$*: exit $rc, want 2"; cat "$out.log"; return; fi
  grep -q "engine-failed: .*$reason" "$out/summary.md" || fail "$*: summary.md lacks '$reason'"
  grep -q "<error message=\"engine-failed: .*$reason" "$out/junit.xml" ||
    fail "$*: junit.xml has no engine-failed <error> with '$reason'"
  grep -q '<testcase' "$out/junit.xml" || fail "$*: junit.xml has no test case"
  [[ $(jq '.runs[0].invocations[0].executionSuccessful' "$sarif") == false ]] ||
    fail "$*: SARIF executionSuccessful is not false"
  [[ $(jq '.runs[0].invocations[0].exitCode' "$sarif") == 2 ]] || fail "$*: SARIF exitCode is not 2"
  grep -q "^diffsched: error: campaign: .*engine-failed" "$out.log" ||
    fail "$*: no one-line error on stderr"
  if [[ -x $src/scripts/validate-reports.sh ]]; then
    bash "$src/scripts/validate-reports.sh" "$out" >"$out.validate" 2>&1 ||
      { fail "$*: reports do not validate"; cat "$out.validate"; }
  fi
  [[ $fails == "$before" ]] && echo "ok: campaign $* -> 2, engine-failed: $(grep -o "engine-failed: [^|*]*" "$out/summary.md" | head -1)"
}

touch afile
mkdir -p corpus-with-file && touch corpus-with-file/cpudl
mkdir -p empty-dir not-a-campaign && echo keep >not-a-campaign/notes.txt
fake ok-fuzz 0 "INFO: Seed: 1"
t=(--time 3 --targets cpudl)

echo "== paths are checked before anything starts"
expect_status 2 "--corpus afile: not a directory" "${t[@]}" --corpus afile --fuzz-dir ok-fuzz
expect_status 2 "--corpus afile/sub: cannot create" "${t[@]}" --corpus afile/sub --fuzz-dir ok-fuzz
expect_status 2 "--corpus corpus-with-file/cpudl: not a directory" "${t[@]}" \
  --corpus corpus-with-file --fuzz-dir ok-fuzz
expect_status 2 "--out afile: not a directory" "${t[@]}" --out afile --fuzz-dir ok-fuzz
expect_status 2 "--out afile/x: cannot create" "${t[@]}" --out afile/x --fuzz-dir ok-fuzz
expect_status 2 "--fuzz-dir afile: not a directory" "${t[@]}" --fuzz-dir afile
expect_status 2 "--fuzz-dir /nonexistent: no such directory" "${t[@]}" --fuzz-dir /nonexistent
expect_status 2 "--fuzz-dir empty-dir: no executable fuzz binary 'cpudl'" "${t[@]}" --fuzz-dir empty-dir
expect_status 2 "--afl-dir ok-fuzz: only used with --engine afl" "${t[@]}" --fuzz-dir ok-fuzz \
  --afl-dir ok-fuzz
expect_status 2 "--afl-dir afile: not a directory" "${t[@]}" --engine afl --fuzz-dir ok-fuzz \
  --afl-dir afile
expect_status 2 "--afl-dir empty-dir: no executable fuzz binary" "${t[@]}" --engine afl \
  --fuzz-dir ok-fuzz --afl-dir empty-dir
expect_status 2 "overlap" "${t[@]}" --fuzz-dir ok-fuzz --corpus ovl --out ovl
expect_status 2 "overlap" "${t[@]}" --fuzz-dir ok-fuzz --corpus ovl2 --out ovl2/cpudl
expect_status 2 "overlap" "${t[@]}" --fuzz-dir ok-fuzz --corpus ovl3/work/c --out ovl3
expect_status 2 "--out not-a-campaign: not empty and not a campaign's output directory" \
  "${t[@]}" --fuzz-dir ok-fuzz --out not-a-campaign
[[ -e corpus ]] && fail "a refused campaign created ./corpus"

echo "== an engine that fails, or runs no input, fails the campaign"
fake fail-fuzz 1 "ERROR: the engine gave up"
fake silent-fuzz 0 ""
fake idle-fuzz 0 "INFO: Seed: 1"
engine_failed o-fail "exited with status 1: ERROR: the engine gave up" "${t[@]}" --fuzz-dir fail-fuzz
engine_failed o-silent "did not start" "${t[@]}" --fuzz-dir silent-fuzz
engine_failed o-idle "ran 0 inputs" "${t[@]}" --fuzz-dir idle-fuzz
engine_failed o-two "ran 0 inputs" --time 4 --targets cpudl,pick --fuzz-dir idle-fuzz
[[ $(grep -c '<error ' o-two/junit.xml) == 2 ]] || fail "two failed targets: not two JUnit errors"
if command -v afl-fuzz >/dev/null; then
  # afl-fuzz refuses a target that is not an instrumented binary.
  engine_failed o-afl "afl" "${t[@]}" --engine afl --fuzz-dir idle-fuzz --afl-dir idle-fuzz
fi

echo "== what a working engine prints is not a failure"
# libFuzzer -fork runs the seeds first, and exits with the status of the last
# crash it ignored (here 77) once it is done: ran inputs, exited normally.
mkdir -p fork-fuzz
for name in $(registry_targets); do
  printf '#!/bin/sh\necho "INFO: Seed: 1"\necho "INFO: -fork=2: 52 seed inputs, starting to fuzz in /tmp/x"\necho "INFO: exiting: 77 time: 1s"\nexit 77\n' >fork-fuzz/$name
  chmod +x fork-fuzz/$name
done
"$diffsched" campaign "${t[@]}" --fuzz-dir fork-fuzz --out o-fork -q >o-fork.log 2>&1
rc=$?
if [[ $rc != 0 ]] || [[ $(jq '.runs[0].invocations[0].exitCode' o-fork/results.sarif) != 0 ]] ||
   ! grep -q '52 execs' o-fork.log; then
  fail "a fork-mode libFuzzer that ran its seeds and exited 77 after 'INFO: exiting': exit $rc"
  cat o-fork.log
else
  echo "ok: fork-mode exit 77 after 'INFO: exiting', 52 seed inputs run -> 0"
fi

echo "== a reused --out holds only the new run's files"
mkdir -p reused/findings && touch reused/.diffsched-campaign reused/findings/cpudl-1.ops
echo old >reused/summary.md
mkdir -p reused/own && echo mine >reused/own/file
engine_failed reused "ran 0 inputs" "${t[@]}" --fuzz-dir idle-fuzz
[[ -e reused/findings/cpudl-1.ops ]] && fail "an old finding survived in the reused --out"
[[ -f reused/own/file ]] || fail "a file the campaign does not own was removed from --out"
grep -q old reused/summary.md && fail "the old summary survived"
engine_failed not-a-campaign "ran 0 inputs" "${t[@]}" --fuzz-dir idle-fuzz --force
[[ -f not-a-campaign/notes.txt ]] || fail "--force removed a file the campaign does not own"
# Names like a campaign's without its marker do not make a campaign's
# directory (issue 22): refused, nothing removed; --force replaces only the
# campaign's names, and never an input inside them (the accepted file).
mkdir -p older/findings older/work && touch older/junit.xml older/findings/pick-3.ops
echo "# accepted" >older/work/accepted.txt
expect_status 2 "--out older: not empty and not a campaign's output directory" \
  --out older "${t[@]}" --fuzz-dir idle-fuzz
[[ -e older/findings/pick-3.ops && -e older/junit.xml ]] ||
  fail "a directory without the marker lost files without --force"
engine_failed older "ran 0 inputs" "${t[@]}" --fuzz-dir idle-fuzz --force --accepted older/work/accepted.txt
[[ -e older/findings/pick-3.ops ]] && fail "an old finding survived in an older campaign's --out under --force"
[[ -f older/work/accepted.txt ]] || fail "--force deleted an input (the accepted file) inside --out"

if [[ -n $fuzz_dir ]]; then
  echo "== real engines"
  # libFuzzer refuses a dictionary it cannot read (its .options names it).
  mkdir -p bad-dict && ln -s "$fuzz_dir/cpudl" bad-dict/cpudl
  printf '[libfuzzer]\ndict = no-such.dict\n' >bad-dict/cpudl.options
  engine_failed o-dict "libfuzzer exited with status" "${t[@]}" --fuzz-dir bad-dict
  # afl-fuzz refuses an empty input directory (libFuzzer does not).
  mkdir -p empty-corpus/cpudl
  if command -v afl-fuzz >/dev/null; then
    engine_failed o-afl-empty "afl" "${t[@]}" --engine afl --corpus empty-corpus \
      --fuzz-dir "$fuzz_dir" --afl-dir "$fuzz_dir"
  fi
fi
((fails == 0))
