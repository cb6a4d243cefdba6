#!/usr/bin/env bash
# `diffsched mutate` over the project's correct example files (every cpudl API
# form, every pick variant), for the table of docs/mutation.md.
#   scripts/mutate-examples.sh [OUT_DIR] [CPUDL_MUTANTS] [BUDGET]
# CPUDL_MUTANTS: mutants sampled per cpudl file (--seed 1; 0: all, ~250 per
# file); every pick mutant runs. Prints one row per file and the totals.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/mutate-examples}
n=${2:-20}
budget=${3:-2}
mkdir -p "$out"
for f in kshim/examples/cpudl/*.c; do
  name=cpudl-$(basename "$f" .c)
  ./build/diffsched mutate cpudl --candidate "$f" --max-mutants "$n" --seed 1 --budget "$budget" \
      --jobs "$(nproc)" --out "$out/$name" --json "$out/$name.json" >"$out/$name.log" 2>&1 ||
    echo "$name: exit $?"
done
for f in kshim/examples/pick/*.c; do
  name=pick-$(basename "$f" .c)
  fn=select_dst_cpu
  grep -q 'int pick_new_dst_cpu(' "$f" && fn=pick_new_dst_cpu
  ./build/diffsched mutate pick --candidate "$f" --function "$fn" --seed 1 --budget "$budget" \
      --jobs "$(nproc)" --out "$out/$name" --json "$out/$name.json" >"$out/$name.log" 2>&1 ||
    echo "$name: exit $?"
done
python3 - "$out" <<'PY'
import glob, json, os, sys
rows, allk = [], []
tot = dict(n=0, killed=0, survived=0, timeout=0, compile_error=0, equivalent=0, error=0)
print("| file | mutants | killed | survived | timeout | compile_error | error | score | p50 s | p90 s | max s |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for j in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    r = json.load(open(j))
    c = r["counts"]
    ms = r["mutants"]
    k = sorted(m["seconds"] for m in ms if m["status"] == "killed")
    allk += k
    tot["n"] += len(ms)
    for key in c: tot[key] += c[key]
    t = r["time_to_kill"]
    score = "n/a" if r["score"] is None else f'{100 * r["score"]:.1f}%'
    print(f'| {os.path.basename(j)[:-5]} | {len(ms)} | {c["killed"]} | {c["survived"]} | {c["timeout"]} | '
          f'{c["compile_error"]} | {c["error"]} | {score} | {t["p50"]:.2f} | {t["p90"]:.2f} | {t["max"]:.2f} |')
allk.sort()
pct = lambda p: allk[min(len(allk) - 1, max(0, -(-len(allk) * p // 100) - 1))] if allk else 0
den = tot["n"] - tot["compile_error"] - tot["equivalent"]
print(f'| **all** | {tot["n"]} | {tot["killed"]} | {tot["survived"]} | {tot["timeout"]} | {tot["compile_error"]} | '
      f'{tot["error"]} | {100 * tot["killed"] / den:.1f}% | {pct(50):.2f} | {pct(90):.2f} | {pct(100):.2f} |')
PY
