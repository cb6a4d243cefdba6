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
fail=0

expect_status() {  # want, description, command...
  local want=$1 what=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [[ $got -ne $want ]]; then
    echo "FAIL: $what: exit $got, want $want"; cat "$tmp/err"; fail=1
  elif [[ $want -eq 2 && $(wc -l <"$tmp/err") -ne 1 ]]; then
    echo "FAIL: $what: expected a one-line error, got:"; cat "$tmp/err"; fail=1
  fi
}

expect_status 2 "missing file" "$diffsched" replay "$tmp/does-not-exist"
: >"$tmp/empty"
expect_status 2 "empty file" "$diffsched" replay "$tmp/empty"
printf 'DSCH\001' >"$tmp/truncated"
expect_status 2 "truncated header" "$diffsched" replay "$tmp/truncated"
printf 'DSCH\011\000\000\001\000' >"$tmp/version"
expect_status 2 "wrong version" "$diffsched" replay "$tmp/version"
printf '\001\002\000\377' >"$tmp/raw"
expect_status 2 "raw input without --target" "$diffsched" replay "$tmp/raw"
expect_status 2 "unknown target" "$diffsched" replay --target nope "$tmp/raw"
expect_status 2 "bad .ops line" "$diffsched" replay <(printf 'cpus 4\nset 9 1\n')

for ((i = 0; i < count; i++)); do
  len=$((RANDOM % 200))
  file="$tmp/r$i"
  {
    if ((i % 4 == 0)); then printf 'DSCH\001\\%03o\\%03o' $((RANDOM % 4)) $((RANDOM % 4)) | xargs -0 printf; fi
    for ((b = 0; b < len; b++)); do printf "\\$(printf '%03o' $((RANDOM % 256)))"; done
  } >"$file"
  for target in "" $(bash "$(dirname "$0")/registry.sh" targets lockstep self_check); do
    "$diffsched" replay -q ${target:+--target $target} "$file" >/dev/null 2>"$tmp/err"
    status=$?
    if ((status > 3)); then  # 0 1 2, or 3: out of domain (random deadlines may span 2^63)
      echo "FAIL: replay ${target:+--target $target} on random file $i: exit $status"
      cat "$tmp/err"; cp "$file" "/tmp/diffsched-robustness-$i"; fail=1
    fi
  done
done
if ((fail)); then exit 1; fi
echo "replay survived $count random files x 5 modes and every bad-input case"
