#!/usr/bin/env bash
# Turns the hand-written seeds corpus/seeds/<target>/*.ops, and the deep seeds
# corpus/deep/<target>/*.ops (scripts/make-deep-seeds.sh), into the raw fuzzer
# inputs corpus/<target>/<name> that libFuzzer starts from.
#   scripts/make-seeds.sh [DIFFSCHED] [OUT_DIR]   (defaults: build/diffsched, corpus)
set -euo pipefail
cd "$(dirname "$0")/.."
diffsched=${1:-build/diffsched}
out=${2:-corpus}
for dir in corpus/seeds/*/ corpus/deep/*/; do
  target=$(basename "$dir")
  mkdir -p "$out/$target"
  for ops in "$dir"*.ops; do
    "$diffsched" encode --raw "$ops" -o "$out/$target/$(basename "$ops" .ops)" >/dev/null
  done
done
