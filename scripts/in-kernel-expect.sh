#!/bin/sh
# Runs `diffsched kernel-check ... --in-kernel` and checks its outcome, for
# ctest (label inkernel).
#
#   in-kernel-expect.sh DIFFSCHED STATUS MAX_OPS PATTERN -- kernel-check ARGS...
#
# STATUS: the exit status expected (0 same, 1 finding, 2 could not run).
# MAX_OPS: for a finding, the minimised reproducer must have at most this many
#   ops, and the printed replay command, run verbatim, must exit 1 ("-": skip).
# PATTERN: a grep -E pattern the output must contain ("-": none).
# Exits 77 (the tests' SKIP_RETURN_CODE) when a kernel piece is missing
# (qemu, busybox, the headers or the image: scripts/install-deps.sh installs
# them), unless that error is what the test expects.
set -u
diffsched=$1 status=$2 max_ops=$3 pattern=$4
shift 5
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
output="-o $out/min.ops"
for a in "$@"; do [ "$a" = "--replay" ] && output=; done
# shellcheck disable=SC2086
"$diffsched" kernel-check "$@" $output --work-dir "$out/work" >"$out/log" 2>&1
got=$?
cat "$out/log"
if [ "$got" = 2 ] && [ "$status" != 2 ] && grep -q '^diffsched: error: --in-kernel needs' "$out/log"; then
  echo "SKIP: a kernel piece is missing (run scripts/install-deps.sh)"
  exit 77
fi
if [ "$got" != "$status" ]; then
  echo "FAIL: exit status $got, expected $status"
  exit 1
fi
if [ "$status" = 2 ]; then
  n=$(grep -c '^diffsched: error: ' "$out/log")
  if [ "$n" != 1 ]; then
    echo "FAIL: $n 'diffsched: error:' lines, expected exactly one"
    exit 1
  fi
fi
if [ "$pattern" != "-" ] && ! grep -Eq -- "$pattern" "$out/log"; then
  echo "FAIL: the output does not match /$pattern/"
  exit 1
fi
if [ "$max_ops" != "-" ]; then
  ops=$(grep -Ev '^[[:space:]]*(#|$|subject |cpus |level |capacity )' "$out/min.ops" | wc -l)
  echo "minimised reproducer: $ops ops (at most $max_ops expected)"
  if [ "$ops" -gt "$max_ops" ] || [ "$ops" -eq 0 ]; then
    echo "FAIL: $ops ops"
    exit 1
  fi
  replay=$(grep '^replay: ' "$out/log" | tail -n 1 | sed 's/^replay: [^ ]* //')
  echo "replaying: $replay"
  # shellcheck disable=SC2086
  "$diffsched" $replay --work-dir "$out/replay" >"$out/replay.log" 2>&1
  r=$?
  tail -n 5 "$out/replay.log"
  if [ "$r" != 1 ]; then
    echo "FAIL: the replay command exited $r, expected 1"
    exit 1
  fi
fi
echo "ok"
