#!/usr/bin/env bash
# CI step: a small sampled `diffsched mutate` per subject (docs/mutation.md),
# failing when the mutation score drops below the floor. Needs build/diffsched
# and the kernel-check harness (build-fuzz/kshim/kcheck_harness; the first
# kernel-check builds it). About 1 min per subject on a 2-core machine.
#   scripts/ci-mutate.sh [OUT_DIR]   (env: CI_MUTATE_MUTANTS (30), CI_MUTATE_MIN_SCORE (95))
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/ci-mutate}
n=${CI_MUTATE_MUTANTS:-30}
min=${CI_MUTATE_MIN_SCORE:-95}
rm -rf "$out" && mkdir -p "$out"
status=0
run() {  # run NAME SUBJECT ARGS...
  local name=$1 rc=0
  shift
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
run cpudl-v4.9-swap cpudl --candidate kshim/examples/cpudl/v4.9-swap.c
run cpudl-v6.19-hole cpudl --candidate kshim/examples/cpudl/v6.19-hole.c
run pick-bitmap pick --candidate kshim/examples/pick/bitmap.c
exit $status
