#!/bin/sh
# Runs `diffsched kernel-check ...` on a hostile candidate (kshim/examples/*/hostile/)
# or with a harness that does nothing, for ctest (label kernel; issue 22).
#
#   kernel-check-hostile.sh DIFFSCHED STATUS PATTERN NOT_PATTERN -- kernel-check ARGS...
#
# Checks: the exit status is STATUS; the output matches PATTERN and never
# NOT_PATTERN (grep -E; "-": none); no "verdict: EQUIVALENT" unless STATUS
# is 0; every file the output names as an input or a reproducer exists.
# Environment:
#   HOSTILE_ABSENT="FILE..."   these files must not exist afterwards (nor before)
#   HOSTILE_MKFIFO=FILE        a FIFO nobody writes exists there during the run
#   HOSTILE_STDIN_PIPE=1       kernel-check's stdin is a pipe that never ends
#   HOSTILE_PATH=DIRS          kernel-check runs with this PATH (the script keeps its own)
set -u
. "$(dirname "$0")/../properties/support/testlib.sh"
TL_FAIL_EXIT=1  # fail: "FAIL: ..." and exit 1 (properties/support/testlib.sh)
diffsched=$1 status=$2 pattern=$3 not_pattern=$4
shift 5
out=$(mktemp -d)
writer=
cleanup() {
  [ -n "$writer" ] && kill "$writer" 2>/dev/null
  [ -n "${HOSTILE_MKFIFO:-}" ] && rm -f "$HOSTILE_MKFIFO"
  rm -rf "$out"
}
trap cleanup EXIT
for f in ${HOSTILE_ABSENT:-}; do
  if [ -e "$f" ]; then echo "FAIL: $f exists before the run"; exit 1; fi
done
if [ -n "${HOSTILE_MKFIFO:-}" ]; then rm -f "$HOSTILE_MKFIFO"; mkfifo "$HOSTILE_MKFIFO" || exit 1; fi
stdin=/dev/null
if [ "${HOSTILE_STDIN_PIPE:-}" = 1 ]; then
  mkfifo "$out/stdin" || exit 1
  sleep 600 >"$out/stdin" &
  writer=$!
  stdin="$out/stdin"
fi
output="-o $out/min.ops"
for a in "$@"; do [ "$a" = "--replay" ] && output=; done
start=$(date +%s)
# shellcheck disable=SC2086
if [ -n "${HOSTILE_PATH:-}" ]; then
  env PATH="$HOSTILE_PATH" "$diffsched" kernel-check "$@" $output --work-dir "$out/work" \
    <"$stdin" >"$out/log" 2>&1
else
  "$diffsched" kernel-check "$@" $output --work-dir "$out/work" <"$stdin" >"$out/log" 2>&1
fi
got=$?
echo "($(( $(date +%s) - start )) s)"
cat "$out/log"
[ "$got" = "$status" ] || fail "exit status $got, expected $status"
if [ "$pattern" != "-" ] && ! grep -Eq -- "$pattern" "$out/log"; then
  fail "the output does not match /$pattern/"
fi
if [ "$not_pattern" != "-" ] && grep -Eq -- "$not_pattern" "$out/log"; then
  fail "the output matches /$not_pattern/"
fi
# The tool's own verdict is its last one: a candidate may print anything before it.
if [ "$status" != 0 ] && grep '^verdict: ' "$out/log" | tail -n1 | grep -q '^verdict: EQUIVALENT'; then
  fail "an EQUIVALENT verdict with exit $got"
fi
for f in $(sed -n 's/^input: //p; s/^minimised reproducer: //p' "$out/log"); do
  [ -f "$f" ] || fail "the output names $f, which does not exist"
done
for f in ${HOSTILE_ABSENT:-}; do
  if [ -e "$f" ]; then rm -f "$f"; fail "the candidate wrote $f"; fi
done
echo "ok"
