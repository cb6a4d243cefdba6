#!/usr/bin/env python3
"""Time-to-bug benchmark (issue 28, section 3): planted-bug files under
kernel-check with default options, over several seeds.

  python3 scripts/ttb.py                          # bench/ttb/*/*.{c,patch}, --time 60, seeds 1..5
  python3 scripts/ttb.py --time 60 --seeds 1 2 3 4 5 --json out.json
  python3 scripts/ttb.py --files bench/ttb/cpudl/clear-rise-once.patch --seeds 1
  python3 scripts/ttb.py --compare before.json after.json   # side by side
  python3 scripts/ttb.py --check        # every file made and its ttb line read, no trials

A planted-bug file is a whole `.c` file, or a `.patch`: a unified diff
against a kernel example file named on its `--- ` line (relative to the
checkout; made against that file without its `// expect:` lines, which are
left out before patching), which `patch` applies to a copy in a temporary
directory before the trials (the file the trials check is that copy, named after the patch).
Each file names its class and the subcommand in one line,
`// ttb: CLASS -- SUBJECT [ARGS...]` (bench/ttb/README.md). Each trial is

  diffsched kernel-check SUBJECT --candidate FILE --time T --seed S [ARGS] --verdict-json J

and its time to bug is the verdict's `found_seconds` (from the start of the
checks, after the build, to the finding; its minimisation left out). A trial
with no finding within --time is a miss. The report gives, per class and in
all, the trials found, the median and the maximum time to bug (a miss counts
as longer than any time, so a median or maximum with misses can be "> T"),
as Magma and FuzzBench report it. Exit 0 when every trial ran (found or
not), 2 when a trial could not run (kernel-check's exit 2, a missing file).
"""
import argparse
import atexit
import concurrent.futures
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def die(msg):
    print(f"ttb: error: {msg}", file=sys.stderr)
    sys.exit(2)


def read_spec(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("// ttb:"):
                head, _, args = line[len("// ttb:"):].partition("--")
                words = args.split()
                if not head.strip() or not words:
                    die(f"{path}: malformed '// ttb:' line")
                return head.strip(), words[0], words[1:]
    die(f"{path}: no '// ttb: CLASS -- SUBJECT' line")


def materialise(path, tmp):
    """The planted-bug file `path` as a .c file: itself, or for a .patch its
    base (the `--- ` line) patched in a copy under `tmp`."""
    if not path.endswith(".patch"):
        return path
    base = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("--- "):
                base = os.path.join(ROOT, line[4:].split("\t")[0].strip())
                break
    if base is None or not os.path.isfile(base):
        die(f"{path}: no '--- BASE' line naming a file of the checkout")
    if shutil.which("patch") is None:
        die("patch is not installed (scripts/install-deps.sh installs it)")
    out = os.path.join(tmp, os.path.basename(path)[:-len(".patch")] + ".c")
    # The base's `// expect:` lines (its ctests) are left out before the
    # patch applies, so a test added to the example never breaks the
    # planted-bug patches (made against the base without them).
    stripped = out + ".base"
    with open(base, encoding="utf-8") as f, open(stripped, "w", encoding="utf-8") as g:
        g.writelines(line for line in f if not line.startswith("// expect:"))
    proc = subprocess.run(["patch", "--batch", "--silent", "--reject-file=-", "-o", out,
                           stripped, path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          check=False)
    if proc.returncode != 0:
        die(f"{path}: does not apply to {os.path.relpath(base, ROOT)}: "
            + proc.stdout.decode(errors="replace").strip().replace("\n", "; "))
    return out


def run_trial(exe, path, subject, extra, seed, seconds, keep):
    work = tempfile.mkdtemp(prefix="ttb-")
    verdict = os.path.join(work, "verdict.json")
    argv = [exe, "kernel-check", subject, "--candidate", path, "--time", str(seconds),
            "--seed", str(seed), "--work-dir", os.path.join(work, "w"),
            "--verdict-json", verdict] + extra
    start = time.monotonic()
    # kernel-check bounds itself (--time + minimisation + watchdogs); this
    # deadline only guards against a hung tool.
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=seconds + 300, check=False)
    wall = time.monotonic() - start
    try:
        with open(verdict, encoding="utf-8") as f:
            v = json.load(f)
    except (OSError, ValueError):
        v = {"verdict": "error", "detail": proc.stdout.decode(errors="replace")[-2000:]}
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
    return {"exit": proc.returncode, "wall": wall, "command": " ".join(argv[:-2]), **v}


def summary(times, n, limit):
    """found, median, max over n trials; a miss is infinity."""
    allt = sorted(times + [float("inf")] * (n - len(times)))
    med = statistics.median(allt) if allt else float("inf")
    return {"found": len(times), "trials": n, "median": med, "max": allt[-1] if allt else None}


def fmt_s(x, limit):
    return f"> {limit:g}" if x == float("inf") else f"{x:.1f}"


def compare(paths):
    """Side-by-side table of two or more --json outputs (e.g. before, after)."""
    docs = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            docs.append(json.load(f))
    names = [d.get("label") or os.path.basename(p) for d, p in zip(docs, paths)]

    def cell(r, limit):
        if r is None:
            return "-"
        med = "> %g" % limit if r["median"] is None else "%.1f" % r["median"]
        mx = "> %g" % limit if r["max"] is None else "%.1f" % r["max"]
        return f"{r['found']}/{r['trials']}, {med}, {mx}"

    print("| class | " + " | ".join(f"{n}: found, median s, max s" for n in names) + " |")
    print("|---|" + "---:|" * len(names))
    classes = list(dict.fromkeys(c for d in docs for c in d["classes"]))
    for c in classes + ["all"]:
        print(f"| {c} | " + " | ".join(
            cell(d["all"] if c == "all" else d["classes"].get(c), d["time"]) for d in docs) + " |")
    return 0


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--compare":
        return compare(sys.argv[2:])
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", nargs="+",
                    help="planted-bug files, .c or .patch (default bench/ttb/*/*.c and *.patch)")
    ap.add_argument("--time", type=float, default=60, help="kernel-check --time (default 60)")
    ap.add_argument("--seeds", nargs="+", type=int, default=[1, 2, 3, 4, 5])
    ap.add_argument("--diffsched", default=os.path.join(ROOT, "build", "diffsched"))
    ap.add_argument("--harness", help="kernel-check --harness: a kcheck_harness binary to use "
                    "as it is (a copy, so that a rebuild does not change a running benchmark)")
    ap.add_argument("--json", help="write every trial and the summary here")
    ap.add_argument("--label", default="", help="a name for this run in the JSON")
    ap.add_argument("--keep", action="store_true", help="keep the work directories")
    ap.add_argument("--jobs", type=int, default=1, help="trials at once (default 1)")
    ap.add_argument("--check", action="store_true",
                    help="only make every planted-bug file and read its ttb line (no trials)")
    o = ap.parse_args()
    if not o.check and not os.access(o.diffsched, os.X_OK):
        die(f"{o.diffsched} is not an executable (build the default preset)")
    files = o.files
    if not files:
        base = os.path.join(ROOT, "bench", "ttb")
        files = sorted(os.path.join(base, d, f) for d in sorted(os.listdir(base))
                       if os.path.isdir(os.path.join(base, d))
                       for f in os.listdir(os.path.join(base, d))
                       if f.endswith(".c") or f.endswith(".patch"))
    jobs = []
    tmp = tempfile.mkdtemp(prefix="ttb-files-")
    if not o.keep:  # the patched files, which the trials' commands name
        atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    for path in files:
        if not os.path.isfile(path):
            die(f"{path}: no such file")
        checked = materialise(path, tmp)
        cls, subject, extra = read_spec(checked)
        if o.harness:
            extra = extra + ["--harness", o.harness]
        jobs += [(cls, path, checked, subject, extra, seed) for seed in o.seeds]
        if o.check:
            print(f"{os.path.relpath(path, ROOT)}: {cls} -- {subject} {' '.join(extra)}".rstrip())
    if o.check:
        return 0

    def one(job):
        cls, path, checked, subject, extra, seed = job
        t = run_trial(o.diffsched, checked, subject, extra, seed, o.time, o.keep)
        t.update({"class": cls, "file": os.path.relpath(path, ROOT), "seed": seed})
        found = t.get("verdict") == "finding" and t.get("found_seconds", -1) >= 0
        t["ttb"] = t["found_seconds"] if found else None
        print(f"{cls:16} seed {seed}: "
              + (f"found in {t['ttb']:.1f} s ({t.get('found_in')}, {t.get('signature')})"
                 if found else f"{t.get('verdict')} (exit {t['exit']}) {t.get('detail', '')[:200]}"),
              flush=True)
        return t

    with concurrent.futures.ThreadPoolExecutor(max_workers=o.jobs) as pool:
        trials = list(pool.map(one, jobs))
    failed = any(t.get("verdict") not in ("finding", "equivalent") for t in trials)
    classes = {}
    for t in trials:
        classes.setdefault(t["class"], []).append(t)
    rows = {c: summary([t["ttb"] for t in ts if t["ttb"] is not None], len(ts), o.time)
            for c, ts in classes.items()}
    overall = summary([t["ttb"] for t in trials if t["ttb"] is not None], len(trials), o.time)
    print(f"\ntime to bug, kernel-check --time {o.time:g}, seeds {' '.join(map(str, o.seeds))}\n")
    print("| class | found | median s | max s |")
    print("|---|---:|---:|---:|")
    for c, r in list(rows.items()) + [("all", overall)]:
        print(f"| {c} | {r['found']}/{r['trials']} | {fmt_s(r['median'], o.time)} | "
              f"{fmt_s(r['max'], o.time)} |")
    if o.json:
        def clean(x):
            return None if x == float("inf") else x
        doc = {"label": o.label, "time": o.time, "seeds": o.seeds, "trials": trials,
               "classes": {c: {k: clean(v) for k, v in r.items()} for c, r in rows.items()},
               "all": {k: clean(v) for k, v in overall.items()}}
        with open(o.json, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
    return 2 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
