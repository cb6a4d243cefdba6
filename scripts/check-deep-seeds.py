#!/usr/bin/env python3
"""Checks the deep seeds of issue 28 (scripts/make-deep-seeds.sh).

  scripts/check-deep-seeds.py DIFFSCHED [SOURCE_DIR]

* scripts/make-deep-seeds.sh, run afresh, writes exactly corpus/deep/;
* every nr_cpu_ids of io::kNrCpusTable has its seeds, for cpudl and pick;
* each cpudl raw seed corpus/cpudl/heap-ORDER-NR, replayed, runs at NR CPUs
  and its heap reaches the size its .ops header states, on both sides;
* each pick raw seed corpus/pick/mask-KIND-NR runs at NR CPUs, all its picks.
Exit 0 when all hold, 1 with one line per failure, 2 on bad usage.
"""
import filecmp
import json
import pathlib
import re
import subprocess
import sys
import tempfile

ORDERS = ("ascending", "descending", "interleaved", "equal")
KINDS = ("runs", "boundary", "alias", "last")


def nr_table(src):
    text = (src / "src/io/binary.h").read_text()
    m = re.search(r"kNrCpusTable\{([^}]*)\}", text)
    return [int(x) for x in re.findall(r"\d+", m.group(1))] if m else []


def replay(diffsched, target, raw):
    out = subprocess.run([diffsched, "replay", "--json", "--target", target, str(raw)],
                         capture_output=True, text=True, check=False)
    return out.returncode, (json.loads(out.stdout) if out.stdout.startswith("{") else None)


def check_cpudl(diffsched, src, nr, order, fails):
    ops = src / f"corpus/deep/cpudl/heap-{order}-{nr}.ops"
    m = re.search(r"heap of (\d+) CPUs at nr_cpu_ids (\d+)", ops.read_text())
    if not m or int(m.group(2)) != nr:
        fails.append(f"{ops}: no 'heap of S CPUs at nr_cpu_ids {nr}' header")
        return
    rc, doc = replay(diffsched, "cpudl", src / f"corpus/cpudl/heap-{order}-{nr}")
    if rc != 0 or doc is None or doc.get("cpus") != nr:
        fails.append(f"heap-{order}-{nr}: replay exit {rc}, cpus {doc and doc.get('cpus')}")
        return
    for side in ("reference", "optimized"):
        size = max(op["sides"][side]["size"] for op in doc["ops"])
        if size != int(m.group(1)):
            fails.append(f"heap-{order}-{nr}: the {side} heap reaches {size} CPUs, "
                         f"not the {m.group(1)} stated")


def check_pick(diffsched, src, nr, kind, fails):
    ops = src / f"corpus/deep/pick/mask-{kind}-{nr}.ops"
    picks = sum(1 for line in ops.read_text().splitlines() if line.startswith("pick "))
    rc, doc = replay(diffsched, "pick", src / f"corpus/pick/mask-{kind}-{nr}")
    if rc != 0 or doc is None or doc.get("cpus") != nr or len(doc["ops"]) != picks:
        fails.append(f"mask-{kind}-{nr}: replay exit {rc}, cpus {doc and doc.get('cpus')}, "
                     f"{doc and len(doc['ops'])} ops of {picks}")


def main(argv):
    if len(argv) not in (2, 3):
        print("usage: check-deep-seeds.py DIFFSCHED [SOURCE_DIR]", file=sys.stderr)
        return 2
    diffsched = argv[1]
    src = pathlib.Path(argv[2] if len(argv) == 3 else pathlib.Path(__file__).parent.parent)
    fails = []
    nrs = nr_table(src)
    if len(nrs) < 8:
        fails.append("cannot read io::kNrCpusTable from src/io/binary.h")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([src / "scripts/make-deep-seeds.sh", tmp], check=True)
        for sub in ("cpudl", "pick"):
            cmp = filecmp.dircmp(pathlib.Path(tmp) / sub, src / "corpus/deep" / sub)
            for name in cmp.left_only + cmp.right_only + cmp.diff_files:
                fails.append(f"corpus/deep/{sub}/{name}: differs from "
                             "scripts/make-deep-seeds.sh's output (run it and make-seeds.sh)")
    for nr in nrs:
        for order in ORDERS:
            check_cpudl(diffsched, src, nr, order, fails)
        for kind in KINDS:
            check_pick(diffsched, src, nr, kind, fails)
    for f in fails:
        print(f"check-deep-seeds: {f}")
    if not fails:
        print(f"check-deep-seeds: {len(nrs)} nr_cpu_ids x {len(ORDERS)} heap orders and "
              f"{len(KINDS)} mask kinds; each seed matches the script and reaches its size")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
