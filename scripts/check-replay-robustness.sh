#!/usr/bin/env bash
# Any byte string is safe: `diffsched replay` on random, empty, truncated,
# wrong-version and missing files exits 0, 1 or 2 and never crashes.
#   scripts/check-replay-robustness.sh DIFFSCHED [COUNT]
set -uo pipefail
diffsched=$1
count=${2:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RANDOM=42  # deterministic
. "$(dirname "$0")/../properties/support/testlib.sh"
# expect_status STATUS '' COMMAND... (properties/support/testlib.sh): the exit
# status, and for 2 a one-line error (any one line: what it says is not checked here).
TL_OUT=$tmp/out TL_ERR=$tmp/err TL_ERROR_PREFIX=

expect_status 2 '' "$diffsched" replay "$tmp/does-not-exist"  # missing file
: >"$tmp/empty"
expect_status 2 '' "$diffsched" replay "$tmp/empty"  # empty file
printf 'DSCH\001' >"$tmp/truncated"
expect_status 2 '' "$diffsched" replay "$tmp/truncated"  # truncated header
printf 'DSCH\011\000\000\001\000' >"$tmp/version"
expect_status 2 '' "$diffsched" replay "$tmp/version"  # wrong version
printf '\001\002\000\377' >"$tmp/raw"
expect_status 2 '' "$diffsched" replay "$tmp/raw"  # raw input without --target
expect_status 2 '' "$diffsched" replay --target nope "$tmp/raw"  # unknown target
expect_status 2 '' "$diffsched" replay <(printf 'cpus 4\nset 9 1\n')  # bad .ops line

targets=$(bash "$(dirname "$0")/registry.sh" targets lockstep self_check race)
for ((i = 0; i < count; i++)); do
  len=$((RANDOM % 200))
  file="$tmp/r$i"
  # The bytes as one printf format of octal escapes, built with printf -v:
  # no process per byte, and every draw from this shell's seeded RANDOM (a
  # $(...) subshell reseeds it, so the files were not the same each run).
  bytes=
  if ((i % 4 == 0)); then
    printf -v head 'DSCH\\001\\%03o\\%03o' $((RANDOM % 4)) $((RANDOM % 4))
    bytes=$head
  fi
  for ((b = 0; b < len; b++)); do printf -v one '\\%03o' $((RANDOM % 256)); bytes+=$one; done
  printf "$bytes" >"$file"
  for target in "" $targets; do
    "$diffsched" replay -q ${target:+--target $target} "$file" >/dev/null 2>"$tmp/err"
    status=$?
    if ((status > 3)); then  # 0 1 2, or 3: out of domain (random deadlines may span 2^63)
      fail "replay ${target:+--target $target} on random file $i: exit $status"
      cat "$tmp/err"; cp "$file" "/tmp/diffsched-robustness-$i"
    fi
  done
done
if ((fails)); then exit 1; fi
echo "replay survived $count random files x 5 modes and every bad-input case"
