#!/usr/bin/env bash
# Kills campaigns midway and checks that the corpus stays complete and
# readable: no staging directory left inside it, every file either one of the
# files it started with (unchanged) or a merged input named by the SHA-1 of
# its content (libFuzzer's naming, so a half-written file would not match),
# and every file replays as a cpudl input (exit 0 or 1, never 2).
#   scripts/check-campaign-interrupt.sh DIFFSCHED FUZZ_DIR
# Rounds: SIGINT after 6 s and once the progress shows features (so that
# there is something to merge, however loaded the machine), SIGTERM after 9 s,
# SIGKILL after 7 s (the engine is then orphaned and killed by us; the corpus
# must still be whole).
# SIGINT and SIGTERM must stop the campaign promptly (libFuzzer -fork keeps
# starting jobs unless its whole process group is signalled): the time from
# the signal to the campaign's exit is printed (the aim is under 2 s; the
# check fails only past a generous 5 s, as a sanity bound) and no engine
# process may outlive it (zombies left to init aside). SARIF must carry the
# exit status (130/143) and executionSuccessful false.
set -uo pipefail
diffsched=$(realpath "$1")
fuzz_dir=$(realpath "$2")
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check_corpus() {  # $1 label
  local dir=$tmp/corpus/cpudl bad=0 n=0
  if ls -d "$tmp"/corpus/.cpudl.merge-* >/dev/null 2>&1 && [[ $1 != SIGKILL ]]; then
    echo "interrupt: $1: a staging directory was left behind"; bad=1
  fi
  for f in "$dir"/*; do
    n=$((n + 1))
    name=$(basename "$f")
    if [[ -f $src/corpus/cpudl/$name ]]; then
      cmp -s "$f" "$src/corpus/cpudl/$name" || { echo "interrupt: $1: seed $name changed"; bad=1; }
    elif [[ $name != "$(sha1sum "$f" | cut -d' ' -f1)" ]]; then
      echo "interrupt: $1: $name is not whole (name is not the SHA-1 of its content)"; bad=1
    fi
  done
  # One replay of every file (a process per file took most of the check's
  # time): 0 equivalent, 1 finding, 3 out of domain are each readable input;
  # 2 is a file that does not read, named by the error line.
  local rc=0
  "$diffsched" replay -q --target cpudl "$dir"/* >"$tmp/replay.log" 2>&1 || rc=$?
  if [[ $rc -eq 2 || $rc -gt 3 ]]; then
    echo "interrupt: $1: the corpus does not replay (exit $rc): $(grep -m1 error "$tmp/replay.log")"; bad=1
  fi
  echo "interrupt: $1: corpus has $n files, all whole and readable$([[ $bad = 0 ]] || echo ' -- NO')"
  return $bad
}
round() {  # $1 signal, $2 seconds before it
  "$diffsched" campaign --time 60 --targets cpudl --jobs 2 --corpus "$tmp/corpus" \
      --out "$tmp/out-$1" --fuzz-dir "$fuzz_dir" --progress-every 2 >"$tmp/$1.log" 2>&1 &
  local pid=$!
  local start=$SECONDS
  sleep "$2"
  if [[ $1 == INT ]]; then
    # The round checks that an interrupted campaign merges what it found, so
    # the signal waits (at most 40 s more) for a progress line with features:
    # on a loaded machine the engine may not have run any input after 6 s.
    for _ in $(seq 80); do
      grep -Eq '\| cov [0-9]+ ft [1-9]' "$tmp/$1.log" && break
      sleep 0.5
    done
    sleep 1
  fi
  local engine t0 t1
  engine=$(pgrep -P $pid | head -1)  # the engine: its own process group
  t0=$(date +%s%N)
  kill -s "$1" $pid
  wait $pid
  local rc=$?
  t1=$(date +%s%N)
  local ms=$(((t1 - t0) / 1000000))
  if [[ $1 == KILL ]]; then
    [[ -n $engine ]] && kill -KILL -- -"$engine" 2>/dev/null; sleep 1
  elif [[ -n $engine && -n $(ps -eo pgid=,stat= | awk -v g="$engine" '$1 == g && $2 !~ /Z/') ]]; then
    echo "interrupt: SIG$1: the engine's process group $engine outlived the campaign"; fail=1
    kill -KILL -- -"$engine" 2>/dev/null
  fi
  echo "interrupt: SIG$1 after $((SECONDS - start)) s: campaign exit $rc, $ms ms after the signal"
  case $1 in
    INT) [[ $rc == 130 ]] || { echo "interrupt: expected exit 130"; tail -5 "$tmp/$1.log"; fail=1; } ;;
    TERM) [[ $rc == 143 ]] || { echo "interrupt: expected exit 143"; tail -5 "$tmp/$1.log"; fail=1; } ;;
  esac
  if [[ $1 != KILL ]]; then
    ((ms <= 5000)) || { echo "interrupt: SIG$1: took $ms ms to stop (bound 5000)"; fail=1; }
    grep -q 'interrupted' "$tmp/out-$1/summary.md" ||
      { echo "interrupt: the summary does not say interrupted"; fail=1; }
    local sarif=$tmp/out-$1/results.sarif
    [[ $(jq '.runs[0].invocations[0].exitCode' "$sarif") == "$rc" ]] ||
      { echo "interrupt: SARIF exitCode is not $rc"; fail=1; }
    [[ $(jq '.runs[0].invocations[0].executionSuccessful' "$sarif") == false ]] ||
      { echo "interrupt: SARIF executionSuccessful is not false"; fail=1; }
    grep -q '<property name="interrupted" value="true"/>' "$tmp/out-$1/junit.xml" ||
      { echo "interrupt: junit.xml is not marked interrupted"; fail=1; }
    bash "$src/scripts/validate-reports.sh" "$tmp/out-$1" >"$tmp/validate-$1.log" 2>&1 ||
      { echo "interrupt: SIG$1: the reports do not validate"; cat "$tmp/validate-$1.log"; fail=1; }
  fi
  check_corpus "SIG$1" || fail=1
}
round INT 6
before=$(ls "$tmp/corpus/cpudl" | wc -l)
round TERM 9
round KILL 7
after=$(ls "$tmp/corpus/cpudl" | wc -l)
echo "interrupt: corpus grew from $(ls "$src/corpus/cpudl" | wc -l) to $before (SIGINT round) to $after files"
[[ $before -gt $(ls "$src/corpus/cpudl" | wc -l) ]] || { echo "interrupt: the SIGINT round merged nothing"; fail=1; }
exit $fail
