#!/usr/bin/env bash
# CI step: a small sampled `diffsched mutate` per subject (docs/mutation.md),
# failing when the mutation score drops below the floor. Needs build/diffsched
# and the kernel-check harness (build-fuzz/kshim/kcheck_harness; the first
# kernel-check builds it). About 1 min per subject on a 2-core machine.
#   scripts/ci-mutate.sh [OUT_DIR]   (env: CI_MUTATE_MUTANTS (30))
# The floors are per file, from the measured scores (docs/mutation.md): the
# survivors of v6.19-hole.c and pick/bitmap.c are the documented ones (2 and
# 3 of them in these samples; equivalent, or the capacity on/off hole).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/ci-mutate}
n=${CI_MUTATE_MUTANTS:-30}
rm -rf "$out" && mkdir -p "$out"
status=0
run() {  # run NAME MIN_SCORE SUBJECT ARGS...
  local name=$1 min=$2 rc=0
  shift 2
  echo "== mutate $name: $n sampled mutants, --min-score $min"
  ./build/diffsched mutate "$@" --max-mutants "$n" --seed 1 --budget 2 --jobs "$(nproc)" \
      --min-score "$min" --out "$out/$name" --json "$out/$name.json" \
      --markdown "$out/$name.md" >"$out/$name.log" 2>&1 || rc=$?
  sed -n '/^# diffsched mutate/,$p' "$out/$name.log"
  [[ -n ${GITHUB_STEP_SUMMARY:-} && -f $out/$name.md ]] && cat "$out/$name.md" >>"$GITHUB_STEP_SUMMARY"
  if [[ $rc -ne 0 ]]; then
    echo "ci: mutate $name exited $rc"; tail -5 "$out/$name.log"; status=1
  fi
}
# The files with documented survivors (v4.9-swap.c, 26/26 killed in this
# sample, is CI_MUTATE_ALL=1: CI's time budget).
[[ ${CI_MUTATE_ALL:-0} == 1 ]] &&
  run cpudl-v4.9-swap 95 cpudl --candidate kshim/examples/cpudl/v4.9-swap.c  # 26/26 killed
run cpudl-v6.19-hole 90 cpudl --candidate kshim/examples/cpudl/v6.19-hole.c  # 25/27
run pick-bitmap 80 pick --candidate kshim/examples/pick/bitmap.c             # 18/21
exit $status
