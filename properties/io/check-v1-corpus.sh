#!/usr/bin/env bash
# Format v2 keeps the meaning of v1 inputs (docs/input-format.md, "Versions"):
#   check-v1-corpus.sh DIFFSCHED SOURCE_DIR
# properties/io/v1-corpus/<target>/<name>.bin is the checked-in raw corpus
# file corpus/<target>/<name> as it was in format v1, behind a v1 file header.
# Each must decode (as v1) to the same program as today's raw body (v2), and
# replay with the same verdict under its target (equivalent, as every corpus
# file). The regression .ops files are text and replay in corpus.regressions.
set -u
. "$(dirname "$0")/../support/testlib.sh"  # fail: "FAIL: ...", counted in $fails
diffsched=$1
root=$2
count=0
for v1 in "$root"/properties/io/v1-corpus/*/*.bin; do
  target=$(basename "$(dirname "$v1")")
  raw="$root/corpus/$target/$(basename "$v1" .bin)"
  if [ ! -f "$raw" ]; then
    fail "$v1 has no corpus file $raw"; continue
  fi
  # The same ops (the level line differs: a v1 file fixes none, a target does).
  a=$("$diffsched" decode "$v1" | grep -v '^level ') || { fail "decode $v1"; continue; }
  b=$("$diffsched" decode --target "$target" "$raw" | grep -v '^level ') || { fail "decode $raw"; continue; }
  if [ "$a" != "$b" ]; then
    fail "$v1 (v1) and $raw (v2) decode differently:"
    diff <(echo "$a") <(echo "$b") | head -10
    continue
  fi
  for input in "$v1" "$raw"; do
    if ! "$diffsched" replay -q --target "$target" --expect equivalent "$input" >/dev/null; then
      fail "$input is no longer equivalent under $target"
    fi
  done
  count=$((count + 1))
done
[ "$count" -gt 0 ] || { fail "no v1 corpus files"; exit 1; }
echo "$count v1 corpus files decode and replay as their v2 forms"
[ "$fails" -eq 0 ]
