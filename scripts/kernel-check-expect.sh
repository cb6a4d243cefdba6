#!/bin/sh
# Runs `diffsched kernel-check ...` and checks its outcome, for ctest (label kernel).
#
#   kernel-check-expect.sh DIFFSCHED STATUS MAX_OPS PATTERN -- kernel-check ARGS...
#
# STATUS: the exit status expected (0 equivalent, 1 finding, 2 could not build).
# MAX_OPS: for a finding, the minimised reproducer must have at most this many
#   ops, and the printed replay command, run verbatim, must exit 1 ("-": skip;
#   "replay": only the replay command, for sanitizer findings, not minimised).
# PATTERN: a grep -E pattern the output must contain ("-": none).
set -u
diffsched=$1 status=$2 max_ops=$3 pattern=$4
shift 5
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# --replay writes no reproducer (kernel-check refuses -o with it).
output="-o $out/min.ops"
for a in "$@"; do [ "$a" = "--replay" ] && output=; done
# shellcheck disable=SC2086
"$diffsched" kernel-check "$@" $output --work-dir "$out/work" >"$out/log" 2>&1
got=$?
cat "$out/log"
if [ "$got" != "$status" ]; then
  echo "FAIL: exit status $got, expected $status"
  exit 1
fi
if [ "$pattern" != "-" ] && ! grep -Eq -- "$pattern" "$out/log"; then
  echo "FAIL: the output does not match /$pattern/"
  exit 1
fi
if [ "$max_ops" != "-" ] && [ "$max_ops" != "replay" ]; then
  ops=$(grep -Ev '^[[:space:]]*(#|$|subject |cpus |level |capacity )' "$out/min.ops" | wc -l)
  echo "minimised reproducer: $ops ops (at most $max_ops expected)"
  if [ "$ops" -gt "$max_ops" ] || [ "$ops" -eq 0 ]; then
    echo "FAIL: $ops ops"
    exit 1
  fi
fi
if [ "$max_ops" != "-" ]; then
  replay=$(grep -A1 '^replay it against the candidate:' "$out/log" | tail -n 1 | sed 's/^ *[^ ]* //')
  echo "replaying: $diffsched $replay"
  # shellcheck disable=SC2086
  "$diffsched" $replay --work-dir "$out/replay-work" >"$out/replay" 2>&1
  rrc=$?
  tail -n 12 "$out/replay"
  if [ "$rrc" != 1 ]; then
    echo "FAIL: the replay command exited $rrc, expected 1 (a finding)"
    exit 1
  fi
fi
echo "ok"
