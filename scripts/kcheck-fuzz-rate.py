#!/usr/bin/env python3
"""Inputs per second of kernel-check's fuzzing stage, side by side.

Two comparisons, each of pairs of runs of the same file, budget and seed:

* --changes hook vs copy (the default): one diffsched, `kernel-check ...
  --changes hook` against `--changes copy`;
* --versus BEFORE: two diffsched binaries, BEFORE against --diffsched (the
  "after"), with the same arguments. Each uses the kcheck_harness of the
  checkout it was built in (--no-build: that checkout's
  build-fuzz/kshim/kcheck_harness, its corpus/ and its dictionaries), so
  build both checkouts the same way (default and fuzz presets) first.

For each file (default: kshim/examples/cpudl/v*.c) it runs `diffsched
kernel-check SUBJECT --candidate FILE --no-properties --time T --seed S
--verdict-json ... --work-dir ... --no-build`, the two sides alternately (the
order swapped every pair, so load falls on both), each run in a work
directory of its own, reads `inputs_per_second` from each verdict JSON (a
diffsched older than that field, before aae5cf8: the fuzzing record's
executions / seconds, kernel-check's own formula), and prints one row per
pair with the load average after it, then the median ratio. SUBJECT is the
file's directory name when that is `pick`, else cpudl (--subject to force).

  nice python3 scripts/kcheck-fuzz-rate.py --time 10 --rounds 1
  nice python3 scripts/kcheck-fuzz-rate.py --versus /work/old/build/diffsched \\
      --diffsched build/diffsched --time 10 --rounds 3 kshim/examples/cpudl/v4.9-hole.c
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile


def subject_of(path, forced):
    if forced:
        return forced
    return "pick" if os.path.basename(os.path.dirname(os.path.abspath(path))) == "pick" else "cpudl"


def checkout_of(diffsched):
    """The short commit of the checkout a binary sits in (DIR/build*/diffsched), or ''."""
    top = os.path.dirname(os.path.dirname(os.path.abspath(diffsched)))
    p = subprocess.run(["git", "-C", top, "rev-parse", "--short", "HEAD"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return p.stdout.strip() if p.returncode == 0 else ""


def rate_of(verdict, work):
    """inputs/s of one run: the verdict's, else the fuzzing record's executions / seconds."""
    j = json.load(open(verdict))
    if "inputs_per_second" in j:
        return j["inputs_per_second"], j.get("executions", 0)
    try:
        rec = json.load(open(os.path.join(work, "record.json")))
    except (OSError, ValueError):
        return None, 0
    if rec.get("mode") != "fuzz" or not rec.get("seconds") or not isinstance(rec.get("executions"), int):
        return None, 0
    return rec["executions"] / rec["seconds"], rec["executions"]


def run(side, path, args, tmp, k):
    name = f"{k}.{os.path.basename(path)}.{side['label']}"
    out, work = os.path.join(tmp, name + ".json"), os.path.join(tmp, name + ".work")
    cmd = [side["diffsched"], "kernel-check", subject_of(path, args.subject),
           "--candidate", os.path.abspath(path), "--no-properties",
           "--time", str(args.time), "--seed", str(args.seed)] + side["flags"] + [
           "--verdict-json", out, "--work-dir", work, "--no-build"] + args.extra
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0 or not os.path.exists(out):
        return None, f"exit {p.returncode}: {p.stdout.strip().splitlines()[-1:]}"
    rate, n = rate_of(out, work)
    return (rate, n) if rate else (None, "no rate in the verdict or the fuzzing record")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--diffsched", default="build/diffsched",
                    help="the binary measured (with --versus: the 'after')")
    ap.add_argument("--versus", metavar="BEFORE",
                    help="compare this diffsched ('before') with --diffsched, not hook with copy")
    ap.add_argument("--changes", choices=["hook", "copy"],
                    help="with --versus: pass --changes MODE to both (default: neither is given it)")
    ap.add_argument("--subject", choices=["cpudl", "pick"], help="default: from the file's directory")
    ap.add_argument("--time", type=float, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--keep", metavar="DIR",
                    help="keep every run's work directory and verdict JSON under DIR")
    ap.add_argument("files", nargs="*")
    ap.add_argument("--extra", nargs=argparse.REMAINDER, default=[])
    args = ap.parse_args()
    files = args.files or sorted(glob.glob("kshim/examples/cpudl/v*.c"))
    if args.versus:
        flags = ["--changes", args.changes] if args.changes else []
        a = {"label": "before", "diffsched": args.versus, "flags": flags}
        b = {"label": "after", "diffsched": args.diffsched, "flags": flags}
        for s in (a, b):
            c = checkout_of(s["diffsched"])
            print(f"{s['label']}: {s['diffsched']}" + (f" (checkout at {c})" if c else ""))
    else:
        if args.changes:
            ap.error("--changes goes with --versus (without it, hook and copy are compared)")
        a = {"label": "copy", "diffsched": args.diffsched, "flags": ["--changes", "copy"]}
        b = {"label": "hook", "diffsched": args.diffsched, "flags": ["--changes", "hook"]}
    A, B = a["label"], b["label"]
    print(f"load at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    ratios, by_subject = [], {}
    print(f"| file | round | {B} inputs/s | {A} inputs/s | {B}/{A} | load (1 min) |")
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.keep or scratch
        os.makedirs(tmp, exist_ok=True)
        k = 0
        for r in range(args.rounds):
            for f in files:
                order = [b, a] if k % 2 == 0 else [a, b]
                got = {}
                for side in order:
                    got[side["label"]] = run(side, f, args, tmp, k)
                k += 1
                load = os.getloadavg()[0]
                y, x = got[B][0], got[A][0]
                if not y or not x:
                    cell = {s: f"{g[0]:.0f}" if g[0] else g[1] for s, g in got.items()}
                    print(f"| {os.path.basename(f)} | {r} | {cell[B]} | {cell[A]} | - | {load:.1f} |",
                          flush=True)
                    continue
                ratios.append(y / x)
                by_subject.setdefault(subject_of(f, args.subject), []).append(y / x)
                print(f"| {os.path.basename(f)} | {r} | {y:.0f} | {x:.0f} | {y / x:.2f} | {load:.1f} |",
                      flush=True)
    if not ratios:
        print("no pair ran", file=sys.stderr)
        return 2
    ahead = sum(1 for q in ratios if q > 1)
    print(f"\nmedian {B}/{A} over {len(ratios)} pairs: {statistics.median(ratios):.2f} "
          f"(min {min(ratios):.2f}, max {max(ratios):.2f}; {B} ahead in {ahead})")
    if len(by_subject) > 1:
        for subj, q in sorted(by_subject.items()):
            print(f"  {subj}: median {statistics.median(q):.2f} over {len(q)} pairs "
                  f"(min {min(q):.2f}, max {max(q):.2f})")
    print(f"load at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
