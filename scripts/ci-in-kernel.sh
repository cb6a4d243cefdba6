#!/usr/bin/env bash
# CI step of kernel-check --in-kernel (.ci/run): the project's correct example
# files of every API form and the pick examples in a booted Debian kernel
# (QEMU TCG) against the shim, each with the checked-in seeds and regressions
# and 200 random programs (CI_IN_KERNEL_RUNS). Any finding (a kernel-vs-shim
# difference, a failed check or a warning in the guest) or a program that did
# not run fails CI. The random programs run at the checked-in programs'
# nr_cpu_ids plus CI_IN_KERNEL_CPUDL_NR / CI_IN_KERNEL_PICK_NR, the largest
# that boot here (docs/kernel-check.md, "In a real kernel").
set -euo pipefail
cd "$(dirname "$0")/.."
diffsched=${DIFFSCHED:-./build/diffsched}
runs=${CI_IN_KERNEL_RUNS:-200}
cpudl_nr=${CI_IN_KERNEL_CPUDL_NR:-256}
pick_nr=${CI_IN_KERNEL_PICK_NR:-2048}
examples=kshim/examples
status=0
check() {  # check SUBJECT FILE ARGS...
  local subject=$1 file=$2
  shift 2
  echo "== kernel-check $subject --in-kernel: $file $*"
  local rc=0
  "$diffsched" kernel-check "$subject" --candidate "$file" --in-kernel --runs "$runs" "$@" || rc=$?
  if [[ $rc -ne 0 ]]; then
    echo "ci: kernel-check --in-kernel $file exited $rc"
    status=1
  fi
}
# One file per subject with all the checked-in programs (one boot per
# nr_cpu_ids) and random programs at the largest nr_cpu_ids.
check cpudl "$examples/cpudl/v4.9-hole.c" --nr-cpus 2 3 4 8 65 127 130 "$cpudl_nr"
check pick "$examples/pick/reference.c"   # its checked-in programs' nr_cpu_ids, 8192 included
# Every other correct file at the largest nr_cpu_ids and a small one (two boots).
for f in v4.8-change-key v4.8-hole v4.8-swap v4.9-cpu-hole v4.9-cpu-swap v4.9-swap v5.18-swap \
         v6.19-hole v6.19-swap; do
  check cpudl "$examples/cpudl/$f.c" --nr-cpus 8 "$cpudl_nr"
done
for f in bitmap fair-sched-h fair-v6-includes fused named optimized; do
  fn=select_dst_cpu
  [[ $f == named ]] && fn=$(sed -n 's/^int \([a-z_]*\)(.*/\1/p' "$examples/pick/$f.c" | head -n1)
  check pick "$examples/pick/$f.c" --function "$fn" --nr-cpus 65 "$pick_nr"
done
exit $status
