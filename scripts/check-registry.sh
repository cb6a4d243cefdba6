#!/usr/bin/env bash
# check-registry.sh DIFFSCHED: the registry of fuzz targets (src/registry.def)
# is the one list. `diffsched targets` and scripts/registry.sh read the same
# targets; each target has its options file, raw seeds and (but the front end)
# .ops seeds, and its
# dictionary exists and is the one its options name; no build file or script
# repeats the list.
set -euo pipefail
. "$(dirname "$0")/../properties/support/testlib.sh"
cd "$(dirname "$0")/.."
diffsched=$1
# fail: "check-registry: ..." on stderr, counted in $fails (properties/support/testlib.sh)
TL_FAIL_PREFIX="check-registry: " TL_FAIL_STDERR=1

cli=$("$diffsched" targets --names)
sh=$(bash scripts/registry.sh targets)
[[ $cli == "$sh" ]] || fail "diffsched targets --names ($(echo $cli)) != scripts/registry.sh ($(echo $sh))"
"$diffsched" targets --json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert all({"name","subject","level","role","dict","property"} <= set(t) for t in d), d' \
  || fail "diffsched targets --json lacks a field"

for t in $sh; do
  [[ -f fuzz/$t.options ]] || fail "$t: fuzz/$t.options missing"
  compgen -G "corpus/$t/*" >/dev/null || fail "$t: no raw seeds in corpus/$t/"
  if [[ $(bash scripts/registry.sh field "$t" role) != front_end ]]; then
    compgen -G "corpus/seeds/$t/*.ops" >/dev/null || fail "$t: no .ops seeds in corpus/seeds/$t/"
  fi
  dict=$(bash scripts/registry.sh field "$t" dict)
  named=$(sed -n 's/^dict = \(.*\)\.dict$/\1/p' "fuzz/$t.options" 2>/dev/null || true)
  if [[ -n $dict ]]; then
    [[ -f fuzz/$dict.dict ]] || fail "$t: dictionary fuzz/$dict.dict missing"
    [[ $named == "$dict" ]] || fail "$t: fuzz/$t.options names dict '${named:-none}', the registry '$dict'"
  else
    [[ -z $named ]] || fail "$t: fuzz/$t.options names dict '$named', the registry none"
  fi
done

# Each fuzz target is fuzz/fuzz_target.cpp built with its name: no per-target source.
extra=$(ls fuzz/*.cpp | grep -v '^fuzz/fuzz_target.cpp$' || true)
[[ -z $extra ]] || fail "per-target sources in fuzz/ (the registry builds fuzz_target.cpp per target): $extra"

# No copy of the list: two or more target names in a row, as a word list, in a
# build file or script.
pattern="$(echo $sh | sed 's/ /|/g')"
copies=$(grep -nE "(^|[ (])($pattern)[ ]+($pattern)([ ;)]|$)" CMakeLists.txt */CMakeLists.txt \
           kshim/*/CMakeLists.txt cmake/*.cmake .clusterfuzzlite/build.sh scripts/*.sh .ci/run 2>/dev/null |
         grep -v '^\S*:[0-9]*:\s*#' || true)
[[ -z $copies ]] || fail "a copy of the target list (use scripts/registry.sh or diffsched_registry_targets()):
$copies"

((fails == 0)) && echo "check-registry: $(echo $sh | wc -w) targets; CLI, shell reader, options, seeds and dictionaries agree; no copied list"
[[ $fails -eq 0 ]]
