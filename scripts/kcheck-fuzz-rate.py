#!/usr/bin/env python3
"""Inputs per second of kernel-check's fuzzing stage, --changes hook vs copy.

For each example file (default: kshim/examples/cpudl/*.c eras), runs
`diffsched kernel-check cpudl --candidate FILE --no-properties --time T
--seed S --changes MODE --verdict-json ...` with hook and copy alternately
(the order swapped every pair, so load falls on both), the same budget and
seed, reads `inputs_per_second` from each verdict JSON, and prints one row
per pair and the median ratio hook/copy.

  nice python3 scripts/kcheck-fuzz-rate.py --time 10 --rounds 1
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile


def run(diffsched, path, mode, args, tmp):
    out = os.path.join(tmp, f"{os.path.basename(path)}.{mode}.json")
    cmd = [diffsched, "kernel-check", "cpudl", "--candidate", path, "--no-properties",
           "--time", str(args.time), "--seed", str(args.seed), "--changes", mode,
           "--verdict-json", out, "--no-build"] + args.extra
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0 or not os.path.exists(out):
        return None, f"exit {p.returncode}: {p.stdout.strip().splitlines()[-1:]}"
    j = json.load(open(out))
    return j.get("inputs_per_second", 0.0), j.get("executions", 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--diffsched", default="build/diffsched")
    ap.add_argument("--time", type=float, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--extra", nargs=argparse.REMAINDER, default=[])
    args = ap.parse_args()
    files = args.files or sorted(glob.glob("kshim/examples/cpudl/v*.c"))
    ratios = []
    print(f"| file | round | hook inputs/s | copy inputs/s | hook/copy |")
    print("|---|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        k = 0
        for r in range(args.rounds):
            for f in files:
                order = ["hook", "copy"] if k % 2 == 0 else ["copy", "hook"]
                k += 1
                got = {}
                for mode in order:
                    got[mode] = run(args.diffsched, f, mode, args, tmp)
                h, c = got["hook"][0], got["copy"][0]
                if not h or not c:
                    print(f"| {os.path.basename(f)} | {r} | {got['hook']} | {got['copy']} | - |")
                    continue
                ratios.append(h / c)
                print(f"| {os.path.basename(f)} | {r} | {h:.0f} | {c:.0f} | {h / c:.2f} |",
                      flush=True)
    if not ratios:
        print("no pair ran", file=sys.stderr)
        return 2
    print(f"\nmedian hook/copy over {len(ratios)} pairs: {statistics.median(ratios):.2f} "
          f"(min {min(ratios):.2f}, max {max(ratios):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
