#!/usr/bin/env bash
# The lockless-reader answer (kernel-check --race) of every example
# cpudeadline.c era (kshim/examples/cpudl/*.c) against a baseline (default
# builtin-reference, the swap heap), as a Markdown table: the verdict (exit
# status), the finding's signature or the classes both sides reach.
#   scripts/race-eras.sh [DIFFSCHED] [BASELINE] [RACE_PROGRAMS] [HARNESS]   (build and build-fuzz first)
# RACE_PROGRAMS: kernel-check --race-programs (default 0: the seeds only).
# HARNESS: kernel-check --harness (default: build-fuzz/kshim/kcheck_harness).
set -uo pipefail
cd "$(dirname "$0")/.."
diffsched=${1:-build/diffsched}
baseline=${2:-builtin-reference}
programs=${3:-0}
harness=()
[ -n "${4:-}" ] && harness=(--harness "$4")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| file | exit | answer (baseline $baseline) |"
echo "|---|---:|---|"
for f in kshim/examples/cpudl/*.c; do
  "$diffsched" kernel-check cpudl --candidate "$f" --baseline "$baseline" --race --race-programs "$programs" \
    "${harness[@]}" --no-properties --time 0 --no-build -o "$tmp/min.ops" --work-dir "$tmp/work" >"$tmp/log" 2>&1
  rc=$?
  case $rc in
    0) answer=$(sed -n 's/^  race: no reader class only the candidate reaches (\(.*\); [0-9.]* s)$/no finding: \1/p' "$tmp/log") ;;
    1) answer=$(grep -o 'cpudl:reader:[a-z]*:[a-z_]*' "$tmp/log" | head -1) ;;
    *) answer="could not run: $(grep -m1 'error' "$tmp/log" | cut -c1-120)" ;;
  esac
  echo "| $(basename "$f") | $rc | $answer |"
  rm -rf "$tmp/work"
done
