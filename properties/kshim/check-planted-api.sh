#!/bin/sh
# SPDX-License-Identifier: MIT
# inkernel.kshim-api.planted-any-but-is-caught (written for diffsched): a copy
# of the shim whose cpumask_any_but() ignores the CPU to skip must be caught
# by scripts/inkernel-api-check.sh against the booted kernel (exit 1, and the
# finding names cpumask_any_but); exit 0 when caught, 1 when not.
#
#   check-planted-api.sh REPO WORK
set -u
repo=$1 work=$2
rm -rf "$work" && mkdir -p "$work/repo" || exit 1
cp -r "$repo/kshim" "$repo/scripts" "$work/repo/" || exit 1
f=$work/repo/kshim/include/kshim/cpumask.h
sed -i 's/return i != cpu ? i : cpumask_next((int)cpu, m);/return i;/' "$f"
grep -q '^	return i;$' "$f" || { echo "could not plant the bug in $f"; exit 1; }
"$work/repo/scripts/inkernel-api-check.sh" "$work/run" --nr 7 --ops 1500 >"$work/out.txt" 2>&1
rc=$?
cat "$work/out.txt"
[ $rc -eq 1 ] && grep -q "FINDING against the shim" "$work/out.txt" && grep -q "cpumask_any_but" "$work/out.txt"
