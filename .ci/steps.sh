#!/usr/bin/env bash
# The steps only CI runs, after README's test command has built the tree and
# passed (.ci/run runs this in the fresh Debian 12 root of
# scripts/check-fresh-machine.sh, in the clone whose build/ the test command made):
#  1. a short libFuzzer campaign over all targets (CI_CAMPAIGN_SECONDS, 60; in
#     .ci/run's fresh root it is the main job's own, CI_CAMPAIGN_OUT, of that length)
#     that fails on a new finding and must list the accepted tie divergence
#     under cpudl_exact, minimised to 2 ops; its three reports must validate;
#  2. the same campaign through AFL++ (CI_AFL_SECONDS, 40);
#  3. the coverage gate: the checked-in corpus covers every line and branch of
#     both heapify strategies and the three picks;
#  4. .clusterfuzzlite/build.sh run with OSS-Fuzz's variables;
#  5. kernel-check --in-kernel on what no ctest boots (scripts/ci-in-kernel.sh);
#  6. a sampled mutation score of the checks (scripts/ci-mutate.sh).
# Each step fits CI's 60 minutes on 2 cores (README, CI); the longer forms are
# CI_IN_KERNEL_ALL=1 and CI_MUTATE_ALL=1.
# The Markdown summary goes to the job summary when $GITHUB_STEP_SUMMARY is set.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's wall time, so a slow CI run shows where its minutes went.
step_start=$SECONDS
step() {  # step TITLE: ends the previous step's timing, starts TITLE's
  if ((SECONDS > step_start)); then echo "ci: the step took $((SECONDS - step_start)) s"; fi
  step_start=$SECONDS
  if [[ $1 != done ]]; then echo "== $1"; fi
}
[[ -x build/diffsched ]] || { echo "ci-steps: error: no build/diffsched (run README's test command first)" >&2; exit 2; }

check_campaign() {  # check_campaign OUT_DIR STATUS
  local out=$1 status=$2 tie
  [[ -n ${GITHUB_STEP_SUMMARY:-} ]] && cat "$out/summary.md" >>"$GITHUB_STEP_SUMMARY"
  if [[ $status -ne 0 ]]; then
    echo "ci: the campaign failed (exit $status)"; cat "$out/summary.md"; exit 1
  fi
  tie=$(compgen -G "$out/findings/cpudl_exact-*.ops" | head -n1 || true)
  if [[ -z $tie || $(grep -cE '^set ' "$tie") -ne 2 ]] || ! grep -q 'accepted' "$out/summary.md"; then
    echo "ci: $out does not list the accepted tie divergence under cpudl_exact as 2 ops"; exit 1
  fi
  bash scripts/validate-reports.sh "$out"
  echo "ci: campaign clean; accepted tie under cpudl_exact: $(grep -E '^set' "$tie" | tr '\n' ';')"
}

if [[ -n ${CI_CAMPAIGN_OUT:-} ]]; then
  # .ci/run's fresh root: the main job (README's first command) ran the
  # campaign of CAMPAIGN_SECONDS and exited 0; its reports are checked here.
  step "fuzz campaign (libFuzzer), all targets: the main job's, ${CAMPAIGN_SECONDS:-?} s, in $CI_CAMPAIGN_OUT"
  [[ -f $CI_CAMPAIGN_OUT/summary.md ]] || { echo "ci: no $CI_CAMPAIGN_OUT/summary.md (did the main job run?)"; exit 1; }
  check_campaign "$CI_CAMPAIGN_OUT" 0
else
  step "fuzz campaign (libFuzzer), all targets, ${CI_CAMPAIGN_SECONDS:-60} s"
  status=0
  ./build/diffsched campaign --time "${CI_CAMPAIGN_SECONDS:-60}" --jobs "$(nproc)" \
      --corpus build/ci-corpus --out build/ci-campaign --progress-every 30 -q || status=$?
  check_campaign build/ci-campaign $status
fi

step "fuzz campaign (AFL++), all targets, ${CI_AFL_SECONDS:-40} s"
status=0
./build/diffsched campaign --engine afl --time "${CI_AFL_SECONDS:-40}" --jobs "$(nproc)" \
    --corpus build/ci-corpus-afl --out build/ci-campaign-afl --progress-every 30 -q || status=$?
check_campaign build/ci-campaign-afl $status

step "coverage of the checked-in corpus"
./build/diffsched coverage

step "OSS-Fuzz / ClusterFuzzLite build.sh"
bash scripts/check-oss-fuzz-build.sh address 1000

step "kernel-check --in-kernel: the examples in a booted kernel vs the shim"
bash scripts/ci-in-kernel.sh

step "mutation score of the checks (diffsched mutate, 30 sampled mutants per file)"
bash scripts/ci-mutate.sh build/ci-mutate
step "done"
