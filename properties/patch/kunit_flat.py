#!/usr/bin/env python3
"""kunit_flat.py KUNIT_JSON EXPR: the JSON of `kunit.py parse --json` as a
flat dict, "group/subgroup/test" -> PASS, FAIL or SKIP, and EXPR (Python,
over `flat`) evaluated on it; exit 0 when true, else 1 with the dict printed.
Used by check-patch-cli.sh and ktap-module.sh (properties/patch)."""
import json
import sys

d = json.load(open(sys.argv[1]))
flat = {}


def walk(g, prefix):
    for c in g.get("test_cases", []):
        flat[prefix + c["name"]] = c["status"]
    for s in g.get("sub_groups", []):
        walk(s, prefix + s["name"] + "/")


walk(d, "")
ok = eval(sys.argv[2], {"flat": flat})
if not ok:
    print("not true:", sys.argv[2], "over", json.dumps(flat, indent=1))
sys.exit(0 if ok else 1)
