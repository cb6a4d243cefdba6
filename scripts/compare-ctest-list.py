#!/usr/bin/env python3
"""Compares two `ctest --show-only=json-v1` listings: the same tests, with the
same commands and properties (issue 23: moving tests' definitions must change
no test). Paths are compared relative to each tree, so a listing of another
worktree or build directory compares equal; the definition site (backtrace)
is ignored.

  compare-ctest-list.py [--ignore-unbuilt] BEFORE.json BEFORE_SRC BEFORE_BUILD AFTER.json AFTER_SRC AFTER_BUILD

--ignore-unbuilt: AFTER's build directory has not built every test program
(ctest lists a discovered GoogleTest program as NAME_NOT_BUILT and a command
whose program is missing as []): leave out those tests on both sides, and
say how many. Prints each difference; exits 0 when there is none, 1 otherwise.
"""
import json
import re
import sys


def load(path, src, build):
    def norm(value):
        if isinstance(value, str):
            # The build directory first (it may lie inside the source tree),
            # as a whole path component: build-fuzz is not build + "-fuzz".
            value = re.sub(re.escape(build) + r"(?![\w.-])", "@BUILD@", value)
            return re.sub(re.escape(src) + r"(?![\w.-])", "@SRC@", value)
        if isinstance(value, list):
            return [norm(v) for v in value]
        return value

    tests = {}
    for t in json.load(open(path))["tests"]:
        props = {p["name"]: norm(p["value"]) for p in t.get("properties", [])}
        tests[t["name"]] = {"command": norm(t.get("command", [])), "properties": props}
    return tests


def main(argv):
    ignore = "--ignore-unbuilt" in argv
    argv = [a for a in argv if a != "--ignore-unbuilt"]
    if len(argv) != 7:
        sys.exit(__doc__)
    before = load(*argv[1:4])
    after = load(*argv[4:7])
    if ignore:
        unbuilt = {n[: -len("_NOT_BUILT")] for n in after if n.endswith("_NOT_BUILT")}
        left_out = {n for n in after if n.endswith("_NOT_BUILT") or not after[n]["command"]}
        left_out |= {n for n in before if n.split(".")[0] in unbuilt}
        for n in left_out:
            before.pop(n, None)
            after.pop(n, None)
        print(f"left out (not built in AFTER): {len(left_out)} tests")
    diffs = 0
    for name in sorted(before.keys() - after.keys()):
        print(f"only before: {name}")
        diffs += 1
    for name in sorted(after.keys() - before.keys()):
        print(f"only after: {name}")
        diffs += 1
    for name in sorted(before.keys() & after.keys()):
        b, a = before[name], after[name]
        if b["command"] != a["command"]:
            print(f"{name}: command\n  before: {b['command']}\n  after:  {a['command']}")
            diffs += 1
        for prop in sorted(b["properties"].keys() | a["properties"].keys()):
            bv, av = b["properties"].get(prop), a["properties"].get(prop)
            if bv != av:
                print(f"{name}: {prop}\n  before: {bv}\n  after:  {av}")
                diffs += 1
    print(f"{len(before)} tests before, {len(after)} after, {diffs} difference(s)")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
