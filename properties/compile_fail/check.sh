#!/usr/bin/env bash
# The subject contract is checked by the compiler (docs/extending.md):
#   check.sh CXX SRC_DIR
# compiles subject_contract.cpp once complete (must succeed: the harness is
# sound) and once per missing part of the contract (must fail, at the
# contract's static_assert).
set -u
cxx=$1
src=$2
here=$(cd "$(dirname "$0")" && pwd)
compile() {
  "$cxx" -std=c++20 -fsyntax-only -I"$src" "$@" "$here/subject_contract.cpp" 2>&1
}
if ! out=$(compile -DCOMPLETE); then
  echo "FAIL: the complete toy subject does not compile:"; echo "$out" | head -20; exit 1
fi
status=0
for part in close last_skipped kDefaultCpus kCode; do
  if out=$(compile -DMISSING_$part); then
    echo "FAIL: a subject without $part compiled"; status=1; continue
  fi
  if ! grep -q "does not keep the subject contract" <<<"$out"; then
    echo "FAIL: a subject without $part failed, but not at the contract's static_assert:"
    echo "$out" | head -20; status=1; continue
  fi
  echo "ok: a subject without $part does not compile"
done
exit $status
