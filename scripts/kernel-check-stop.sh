#!/bin/sh
# SIGINT or SIGTERM to `diffsched kernel-check` stops its children too (the
# harness in its sandbox, a candidate that spins), for ctest (issue 22):
#
#   kernel-check-stop.sh DIFFSCHED SIGNAL -- kernel-check ARGS...
#
# Starts kernel-check with a work directory of its own, waits until its
# property run has started, sends SIGNAL, then checks that kernel-check died
# of it and that no process whose command line names that work directory is
# left after 2 s.
set -u
diffsched=$1 sig=$2
shift 3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$diffsched" kernel-check "$@" --work-dir "$out/work" </dev/null >"$out/log" 2>&1 &
pid=$!
i=0
until grep -q 'properties and model' "$out/log" 2>/dev/null; do
  i=$((i + 1))
  if [ "$i" -gt 600 ] || ! kill -0 "$pid" 2>/dev/null; then
    cat "$out/log"; echo "FAIL: the property run never started"; exit 1
  fi
  sleep 0.2
done
sleep 2  # the harness is running (the candidate spins)
if ! pgrep -f -- "--candidate=$out/work" >/dev/null; then
  cat "$out/log"; echo "FAIL: no harness process names $out/work"; exit 1
fi
kill "-$sig" "$pid"
wait "$pid"
rc=$?
sleep 2
cat "$out/log"
left=$(pgrep -f -- "$out/work")
if [ -n "$left" ]; then
  ps -o pid,pgid,args -p "$(echo $left | tr ' ' ',')"
  for p in $left; do kill -9 "$p" 2>/dev/null; done
  echo "FAIL: children left after SIG$sig: $left"; exit 1
fi
case "$sig" in INT) want=130 ;; TERM) want=143 ;; *) want=x ;; esac
[ "$rc" = "$want" ] || { echo "FAIL: kernel-check exited $rc, expected $want (died of SIG$sig)"; exit 1; }
echo "ok"
