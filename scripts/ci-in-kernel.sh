#!/usr/bin/env bash
# CI step of kernel-check --in-kernel (.ci/run): the project's example files in
# a booted Debian kernel (QEMU TCG) against the shim. Any kernel-vs-shim
# difference, failed check or warning in the guest of a correct file, a broken
# file that is not caught, or a program that did not run fails CI.
#
# Per subject, one file gets CI_IN_KERNEL_RUNS (200) random programs at the
# largest nr_cpu_ids that boots here (and, with CI_IN_KERNEL_ALL=1, every
# checked-in program at its own nr_cpu_ids): 256 for cpudl,
# 8192 for pick (CI_IN_KERNEL_CPUDL_NR / CI_IN_KERNEL_PICK_NR;
# docs/kernel-check.md, "In a real kernel"). Every API form and the files with
# the issue-12 ops (find_cap, cpu_down/cpu_up) get the regressions at 4 CPUs
# and a few random programs (one boot each), unless a ctest of label inkernel
# boots that file already (the broken files are ctests too). The module holds one candidate, so each file is at least one
# build and one boot: about 5 minutes here.
set -euo pipefail
cd "$(dirname "$0")/.."
diffsched=${DIFFSCHED:-./build/diffsched}
runs=${CI_IN_KERNEL_RUNS:-200}
small_runs=${CI_IN_KERNEL_SMALL_RUNS:-20}
cpudl_nr=${CI_IN_KERNEL_CPUDL_NR:-256}
pick_nr=${CI_IN_KERNEL_PICK_NR:-8192}
examples=kshim/examples
status=0
start=$SECONDS
check() {  # check EXPECTED_STATUS SUBJECT FILE ARGS...
  local want=$1 subject=$2 file=$3
  shift 3
  echo "== kernel-check $subject --in-kernel: $file $* (expect exit $want)"
  local rc=0 t=$SECONDS
  "$diffsched" kernel-check "$subject" --candidate "$file" --in-kernel "$@" || rc=$?
  echo "ci: $file: exit $rc in $((SECONDS - t)) s"
  if [[ $rc -ne $want ]]; then
    echo "ci: kernel-check --in-kernel $file exited $rc, expected $want"
    status=1
  fi
}
# The deep checks: random programs at the largest nr_cpu_ids that boots here
# (the checked-in programs at their own nr_cpu_ids: CI_IN_KERNEL_ALL=1, one
# boot per nr_cpu_ids, 1.5 min more; ctest's label inkernel replays several).
if [[ ${CI_IN_KERNEL_ALL:-0} == 1 ]]; then
  check 0 cpudl "$examples/cpudl/v4.9-hole.c" --nr-cpus 2 3 4 8 127 130 --runs 0
  check 0 pick "$examples/pick/reference.c" --nr-cpus 8 65 --runs 0
fi
check 0 cpudl "$examples/cpudl/v4.9-hole.c" --nr-cpus "$cpudl_nr" --runs "$runs"
check 0 pick "$examples/pick/reference.c" --nr-cpus "$pick_nr" --runs "$runs"
# The API forms that no ctest boots (ctest's label inkernel already runs
# v4.8-swap, v4.9-cpu-swap, v5.9-capacity-swap with find_cap, v6.19-hole with
# hotplug, pick/fused.c, the broken files and the shim's API check, so CI does
# not boot them twice): the regressions at 4 CPUs and a few random programs.
for f in v6.19-swap v5.18-rfc-clear-active v3.18-android-split-cpu-hole; do
  check 0 cpudl "$examples/cpudl/$f.c" --nr-cpus 4 --runs "$small_runs"
done
# The shim's own API against the booted kernel, op by op (issue 27; the ctest
# inkernel.kshim-api.same runs it at 1, 7, 64, 65 and 130): here once more at
# 130 with another seed, so the step's summary says how many ops were compared.
echo "== inkernel-api-check (the shim's cpumask/bitmap/find-bit API against the kernel)"
t=$SECONDS
if ! scripts/inkernel-api-check.sh build/inkernel-api-check --nr 130 --seed 2 \
       --ops "${CI_IN_KERNEL_API_OPS:-3000}"; then
  echo "ci: inkernel-api-check failed"
  status=1
fi
echo "ci: inkernel-api-check: $((SECONDS - t)) s"
echo "ci: kernel-check --in-kernel step: $((SECONDS - start)) s"
exit $status
