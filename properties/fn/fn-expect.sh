#!/bin/sh
# Runs `diffsched fn ARGS...` and checks its outcome, for ctest (label fn).
#
#   fn-expect.sh DIFFSCHED STATUS PATTERN -- ARGS...
#
# STATUS: the exit status expected (0 equivalent, 1 finding, 2 cannot build
#   or run / bad input). PATTERN: a grep -E pattern the output (stdout and
#   stderr) must contain. For a finding, the printed `replay:` command, run
#   verbatim, must exit 1 as well (not with --json, which has no such line).
set -u
diffsched=$1 status=$2 pattern=$3
shift 4
# grep takes each line of a pattern as a pattern of its own: one with a
# newline (CMake's "\n") would match any output that has an empty line.
case $pattern in
*"
"*) echo "FAIL: the pattern has a newline: grep would match its lines one by one"; exit 1 ;;
esac
json=no
for a in "$@"; do [ "$a" = "--json" ] && json=yes; done
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$diffsched" fn "$@" >"$out" 2>&1
got=$?
cat "$out"
if [ "$got" != "$status" ]; then
  echo "FAIL: exit status $got, expected $status"
  exit 1
fi
if ! grep -Eq -- "$pattern" "$out"; then
  echo "FAIL: the output does not match /$pattern/"
  exit 1
fi
if [ "$status" = 1 ] && [ "$json" = no ]; then
  replay=$(sed -n 's/^replay: //p' "$out" | head -n 1)
  if [ -z "$replay" ]; then
    echo "FAIL: a finding without a replay: line"
    exit 1
  fi
  sh -c "$replay" >/dev/null 2>&1
  again=$?
  if [ "$again" != 1 ]; then
    echo "FAIL: the replay command exited $again, not 1: $replay"
    exit 1
  fi
fi
exit 0
