#!/usr/bin/env bash
# AFL++ on the same harness: builds preset afl (afl-clang-fast++ +
# libAFLDriver.a) if needed, fuzzes cpudl_exact for SECONDS from its seeds
# with afl-fuzz, and requires a saved crash that `diffsched replay --target
# cpudl_exact` reproduces as the exact-level tie divergence; prints the
# fuzzer_stats figures. The afl-fuzz command line here is the one a campaign
# uses (env: no CPU governor or core_pattern changes, no UI, no pinning).
#   scripts/afl-smoke.sh [SECONDS] [DIFFSCHED]   (defaults: 10, build/diffsched)
# Exit 0 found and reproduced, 1 not found / not reproduced, 2 could not run.
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
diffsched=${2:-build/diffsched}
command -v afl-fuzz >/dev/null || { echo "afl-smoke: error: afl-fuzz not found (scripts/install-deps.sh installs afl++)" >&2; exit 2; }
[[ -x $diffsched ]] || { echo "afl-smoke: error: $diffsched not found (build the default preset)" >&2; exit 2; }
if ! { cmake --preset afl && cmake --build --preset afl -j"$(nproc)" --target fuzz_cpudl_exact; } >/tmp/afl-smoke-build.$$.log 2>&1; then
  echo "afl-smoke: error: building preset afl failed:" >&2; tail -20 /tmp/afl-smoke-build.$$.log >&2
  rm -f /tmp/afl-smoke-build.$$.log; exit 2
fi
rm -f /tmp/afl-smoke-build.$$.log
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/in" && cp corpus/cpudl_exact/* "$tmp/in/"
AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 \
  timeout $((secs + 60)) afl-fuzz -i "$tmp/in" -o "$tmp/out" -V "$secs" -x fuzz/cpudl.dict \
  -- build-afl/fuzz/cpudl_exact >"$tmp/afl.log" 2>&1
rc=$?
stats=$tmp/out/default/fuzzer_stats
if [[ $rc -ne 0 || ! -f $stats ]]; then
  echo "afl-smoke: error: afl-fuzz exited with $rc:" >&2; sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' "$tmp/afl.log" | tail -15 >&2; exit 2
fi
field() { sed -n "s/^$1 *: //p" "$stats"; }
echo "afl-smoke: cpudl_exact, $secs s: $(field execs_done) execs ($(field execs_per_sec)/s), $(field edges_found) edges, $(field corpus_count) queue entries, $(field saved_crashes) crashes saved"
crash=$(ls "$tmp/out/default/crashes/"id:* 2>/dev/null | head -1)
[[ -n $crash ]] || { echo "afl-smoke: FAIL: no crash saved in $secs s"; exit 1; }
sig=$("$diffsched" replay -q --target cpudl_exact "$crash" 2>/dev/null | sed -n 's/^ *signature //p' | head -1)
if [[ $sig == cpudl:divergence:exact:* ]]; then
  echo "afl-smoke: ok: $(basename "$crash") replays as $sig"
else
  echo "afl-smoke: FAIL: $(basename "$crash") does not replay as an exact divergence (got '${sig:-none}')"; exit 1
fi
