#!/usr/bin/env bash
# Short fuzz runs for CI: each target for SECONDS from a copy of the checked-in
# corpus must find nothing; cpudl_exact must find the tie divergence from an
# empty corpus (-seed=1) within 10 s, and minimize must shrink it to 2 ops.
#   scripts/fuzz-smoke.sh BUILD_DIR [SECONDS]
set -uo pipefail
cd "$(dirname "$0")/.."
build=$1
secs=${2:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for target in cpudl pick cpumask; do
  mkdir -p "$tmp/$target" && cp corpus/$target/* "$tmp/$target/"
  dict=(); [[ -f fuzz/$target.dict ]] && dict=(-dict=fuzz/$target.dict)
  if "$build/fuzz/$target" -seed=1 -max_total_time="$secs" "${dict[@]}" \
      -artifact_prefix="$tmp/" "$tmp/$target" >"$tmp/$target.log" 2>&1; then
    echo "fuzz-smoke: $target: $secs s, no finding ($(grep 'diffsched-stats' "$tmp/$target.log" | sed 's/.*s: //'))"
  else
    echo "fuzz-smoke: $target FOUND SOMETHING:"; grep -A30 '==== diffsched' "$tmp/$target.log" | head -40
    fail=1
  fi
done
mkdir -p "$tmp/empty"
if timeout 60 "$build/fuzz/cpudl_exact" -seed=1 -max_total_time=10 -artifact_prefix="$tmp/exact-" \
    "$tmp/empty" >"$tmp/exact.log" 2>&1; then
  echo "fuzz-smoke: cpudl_exact did NOT find the tie divergence in 10 s"; fail=1
else
  crash=$(ls "$tmp"/exact-crash-* 2>/dev/null | head -1)
  if [[ -z $crash ]]; then
    echo "fuzz-smoke: cpudl_exact stopped without a crash file"; tail -20 "$tmp/exact.log"; fail=1
  elif ! build/diffsched minimize --target cpudl_exact "$crash" -o "$tmp/min" >"$tmp/min.log"; then
    echo "fuzz-smoke: minimize failed"; cat "$tmp/min.log"; fail=1
  elif [[ $(grep -cE '^(set|clear|clear_online|set_freecpu|clear_freecpu|find|find_nomask) ' "$tmp/min.ops") -ne 2 ]]; then
    echo "fuzz-smoke: the tie divergence did not minimise to 2 ops:"; cat "$tmp/min.ops"; fail=1
  else
    echo "fuzz-smoke: cpudl_exact found the tie divergence; minimised to 2 ops: $(grep -E '^set' "$tmp/min.ops" | tr '\n' ';')"
  fi
fi
exit $fail
