#!/usr/bin/env bash
# Fuzzing throughput of each target: inputs/s (libFuzzer exec/s) and checked
# ops/s (the targets count ops themselves), median of 3 runs of SECONDS
# (default 30) with -seed=1 from a copy of the checked-in corpus, without
# sanitizers (build-fuzz-nosan) and with ASan+UBSan (build-fuzz). Also the
# time cpudl_exact needs to find the tie divergence from an empty corpus.
# Prints a Markdown table. Build first:
#   cmake --preset fuzz && cmake --build --preset fuzz -j
#   cmake --preset fuzz-nosan && cmake --build --preset fuzz-nosan -j
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-30}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "| target | build | inputs/s (median of 3 x ${secs} s) | checked ops/s | findings |"
echo "|---|---|---:|---:|---|"
for build in build-fuzz-nosan build-fuzz; do
  label=$([[ $build == build-fuzz ]] && echo "ASan+UBSan" || echo "no sanitizers")
  for target in $(bash scripts/registry.sh targets lockstep); do
    bin=$build/fuzz/$target
    [[ -x $bin ]] || { echo "fuzz-throughput: $bin missing (build the $build preset)" >&2; exit 2; }
    execs=() ops=() found=none
    for run in 1 2 3; do
      rm -rf "$tmp/corpus" && mkdir "$tmp/corpus" && cp corpus/$target/* "$tmp/corpus/"
      dict=(); d=$(bash scripts/registry.sh field "$target" dict); [[ -n $d ]] && dict=(-dict=fuzz/$d.dict)
      if ! "$bin" -seed=1 -max_total_time="$secs" -print_final_stats=1 "${dict[@]}" \
          -artifact_prefix="$tmp/" "$tmp/corpus" >"$tmp/log" 2>&1; then
        found="CRASH (see $tmp/log)"; cp "$tmp/log" "/tmp/fuzz-throughput-$target-$run.log"
      fi
      execs+=("$(sed -n 's/^stat::average_exec_per_sec:[[:space:]]*//p' "$tmp/log")")
      ops+=("$(sed -n 's/.* \([0-9]*\) checked ops\/s$/\1/p' "$tmp/log" | tail -1)")
    done
    echo "| $target | $label | $(printf '%s\n' "${execs[@]}" | median) | $(printf '%s\n' "${ops[@]}" | median) | $found |"
  done
done

for build in build-fuzz-nosan build-fuzz; do
  rm -rf "$tmp/empty" && mkdir "$tmp/empty"
  start=$(date +%s.%N)
  "$build/fuzz/cpudl_exact" -seed=1 -artifact_prefix="$tmp/" "$tmp/empty" >"$tmp/log" 2>&1 || true
  end=$(date +%s.%N)
  execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' "$tmp/log" | tail -1)
  printf 'cpudl_exact (%s): tie divergence found from an empty corpus with -seed=1 after %.2f s, %s execs\n' \
    "$build" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "${execs:-?}"
done
