#!/usr/bin/env bash
# ctest (label inkernel): the `replay:` line of an in-kernel finding, pasted
# into bash, replays that finding (exit 1) and runs nothing else, for a
# candidate and a reproducer whose paths need quoting ('$(...)', a quote, a
# space, a leading '-') and for a diffsched binary whose own path does
# (issue 22, section 4). One finding per path; each is a boot or two.
#   check-replay-paste.sh DIFFSCHED SOURCE_DIR
set -u
. "$(dirname "$0")/../support/testlib.sh"  # fail: "FAIL: ...", counted in $fails
D=$(realpath "$1")
SRC=$(realpath "$2")
DIR=$(mktemp -d "${TMPDIR:-/tmp}/diffsched-replay-paste-XXXXXX")
trap 'rm -rf "$DIR"' EXIT
cd "$DIR" || exit 2
broken=$SRC/kshim/examples/cpudl/broken/v4.9-hole-clear-active-guard.c
bindir="b i n/\$(touch INJECTED)/it's"
mkdir -p "$bindir" && cp "$D" "$bindir/diffsched"
for bin in "$D" "$DIR/$bindir/diffsched"; do
  d="./-c a\$(touch INJECTED) \"q\" it's"
  mkdir -p "$d"
  cp "$broken" "$d/cand.c"
  "$bin" kernel-check cpudl --candidate "$d/cand.c" --in-kernel --nr-cpus 4 --runs 0 \
      -o "$d/m \$(touch INJECTED).ops" >run.log 2>&1
  rc=$?
  [[ $rc == 1 ]] || { fail "$bin: the broken file gave exit $rc, not a finding"; tail -5 run.log; continue; }
  [[ $(grep -ac '^replay: ' run.log) == 1 ]] || { fail "not one replay: line"; continue; }
  line=$(grep -a '^replay: ' run.log | sed 's/^replay: //')
  rc=$(bash --norc -c "$line" >paste.log 2>&1; echo $?)
  if [[ $rc != 1 ]] || ! grep -q '^verdict: FINDING cpudl:model-mismatch' paste.log; then
    fail "the pasted replay line did not replay the finding (exit $rc): $line"
    tail -5 paste.log
  fi
  [[ -e INJECTED || -e "$d/INJECTED" ]] && fail "the replay line ran an injected command: $line"
  echo "ok: pasted: $line"
done
[[ $fails == 0 ]] && echo "ok: the in-kernel replay: line, pasted, replays the finding and nothing else"
exit $((fails > 0))
