#!/bin/sh
# diffsched fn on the real kernel/sched/fair.c of Debian's linux-source-6.1
# (docs/fn.md, the real-file rows; properties/fn/fn-real.cmake):
#   fn-real.sh DIFFSCHED SOURCE_DIR CASE
# The file is extracted from /usr/src/linux-source-6.1.tar.xz at test time
# and edited by edit-fair.py (project-written edits); neither is committed.
set -u
ds=$1 src=$2 case=$3
here=$src/properties/fn/real-fair
tarball=/usr/src/linux-source-6.1.tar.xz
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fn-real-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
show_outputs() { [ -f "$tmp/out" ] && grep -v "^  input:" "$tmp/out" | cut -c1-300 | sed 's/^/  | /' | head -60; }
TL_FAIL_EXIT=1 TL_FAIL_HOOK=show_outputs
TL_FAIL_PREFIX="FAIL ($case): "
. "$src/properties/support/testlib.sh"
[ -f "$tarball" ] ||
  fail "$tarball is missing: install the Debian package linux-source-6.1 (scripts/install-deps.sh)"
# The file stays in its tree, with the tree's top Makefile: fn builds at
# the era it names, v6.1 (docs/fn.md "Eras"); the edited copies sit outside.
tar -xJf "$tarball" -C "$tmp" linux-source-6.1/kernel/sched/fair.c linux-source-6.1/Makefile ||
  fail "cannot extract kernel/sched/fair.c and Makefile from $tarball"
old=$tmp/linux-source-6.1/kernel/sched/fair.c
edit() { python3 "$here/edit-fair.py" "$old" "$1" "$tmp/$1.c" || fail "edit-fair.py $1 failed"; }
# run EXPECTED_STATUS ARGS...: diffsched's output (both streams) in $tmp/out.
run() {
  want=$1; shift
  "$ds" "$@" >"$tmp/out" 2>&1
  rc=$?
  [ "$rc" = "$want" ] || fail "exit $rc, expected $want: diffsched $*"
}
has() { grep -qE -- "$1" "$tmp/out" || fail "no /$1/ in the output"; }
# A finding's replay: line, run verbatim, exits 1 too.
replays() {
  replay=$(sed -n 's/^replay: //p' "$tmp/out" | head -n 1)
  [ -n "$replay" ] || fail "a finding without a replay: line"
  sh -c "$replay" >/dev/null 2>&1
  again=$?
  [ "$again" = 1 ] || fail "the replay exited $again, not 1"
}

case $case in
can-migrate-task)
  edit first-and-and
  run 0 fn --old "$old" --new "$tmp/first-and-and.c" --function can_migrate_task
  has "^stubs: kthread_is_per_cpu\(\) " && has "^verdict: equivalent \(300 inputs, level exact\)"
  has "^shim era: v6.1 \(the tree's .*/linux-source-6.1/Makefile\)$"
  ;;
can-migrate-task-broken)
  # The affinity term dropped: the new side pins a CPU the task does not allow.
  edit broken
  run 1 fn --old "$old" --new "$tmp/broken.c" --function can_migrate_task
  has "same finding .differs:\*env." && has "^verdict: finding: the sides differ at level .exact."
  replays
  ;;
select-idle-cpu)
  edit sic-budget
  run 0 fn --old "$tmp/sic-budget.c" --new "$old" --function select_idle_cpu --spec "$here/select-idle-cpu.fnspec"
  has "^verdict: intended: the sides differ only in what the spec declares intended \(.calls., .return., .select_rq_mask.\)"
  ;;
select-idle-cpu-mask-only)
  # Only the scratch mask declared: the budget's effect (a CPU found where
  # the old side gave up) is a finding, so the intended lines matter.
  edit sic-budget
  grep -v "^intended return\|^intended calls" "$here/select-idle-cpu.fnspec" >"$tmp/mask.fnspec"
  run 1 fn --old "$tmp/sic-budget.c" --new "$old" --function select_idle_cpu --spec "$tmp/mask.fnspec" --no-minimize
  has "^verdict: finding: the sides differ at level .exact." && has "<-- differs"
  # The per-CPU row names only the copies that differ, by CPU (src/fn/show.h).
  has "^  select_rq_mask old: \[[0-9]+(-[0-9]+)?\]=unchanged.*   \([0-9]+ of 128 elements differs?; the rest are equal\)$"
  has "^ +new: \[[0-9]+(-[0-9]+)?\]=\{[0-9,-]*\}.*   <-- differs \(intended\)$"
  replays
  # At 4 CPUs the copies of CPUs 4..127 are zeros: one run in the input line.
  run 1 fn --old "$tmp/sic-budget.c" --new "$old" --function select_idle_cpu --spec "$tmp/mask.fnspec" --no-minimize --nr-cpus 4
  has "^  input: nr_cpu_ids=4 sd_llc_shared=\[[^]]*, &\{nr_busy_cpus=0 has_idle_cores=0 nr_idle_scan=0\} x12[4-8]\] select_rq_mask=\[[^]]*&\{\} x12[4-8]\] "
  replays
  ;;
select-idle-cpu-hidden)
  # Without the spec: the LLC's shared state (the SIS_UTIL budget) and the
  # per-CPU scratch mask are named at once; with the first covered, the second.
  edit sic-budget
  run 2 fn --old "$tmp/sic-budget.c" --new "$old" --function select_idle_cpu
  has "hidden globals: select_idle_cpu\(\) reads the globals .sd_llc_shared. .*, .select_rq_mask. "
  echo "global sd_llc_shared input" >"$tmp/llc.fnspec"
  run 2 fn --old "$tmp/sic-budget.c" --new "$old" --function select_idle_cpu --spec "$tmp/llc.fnspec"
  has "hidden global: select_idle_cpu\(\) reads the global .select_rq_mask."
  ;;
find-idlest-group)
  # The merged cpumask_weight_and() rewrite (upstream form: the scratch
  # mask's pointer dropped, so the new side no longer reads select_rq_mask:
  # drawn for both, its difference intended). The ring of groups is what
  # makes the walk end: without the spec's ring line both sides fault on
  # a NULL group (sd->groups->next past the field depth) on input 0.
  edit weight-and
  run 0 fn --old "$old" --new "$tmp/weight-and.c" --function find_idlest_group --spec "$here/find-idlest-group.fnspec"
  has "^stubs: get_current\(\) "
  has "^verdict: equivalent \(300 inputs, level exact\)"
  # The rewritten branch is reached: with the scratch mask an output whose
  # difference is intended, some inputs differ there, and only there.
  sed 's/^global select_rq_mask scratch$/global select_rq_mask input\nintended select_rq_mask/' \
    "$here/find-idlest-group.fnspec" > "$tmp/reached.fnspec"
  run 0 fn --old "$old" --new "$tmp/weight-and.c" --function find_idlest_group --spec "$tmp/reached.fnspec"
  has "^verdict: intended: the sides differ only in what the spec declares intended \(.select_rq_mask.\), on [1-9][0-9]* of 300 inputs"
  ;;
find-idlest-group-broken)
  # The domain's span counted where the local group's belongs: a different
  # group (or none) is returned, by identity (&inK+OFF), minimised.
  edit weight-domain
  run 1 fn --old "$old" --new "$tmp/weight-domain.c" --function find_idlest_group --spec "$here/find-idlest-group.fnspec" --runs 1000
  has "^minimised .*the same finding .differs:return."
  has "^verdict: finding: the sides differ at level .exact. on input "
  replays
  ;;
task-numa-find-cpu)
  # The for_each_cpu_and() rewrite (NUMA balancing, which the shim leaves
  # off: the spec's config line; its two helpers stubs). Without the spec
  # the option is named with the line that fixes it.
  edit numa-and
  run 2 fn --old "$old" --new "$tmp/numa-and.c" --function task_numa_find_cpu
  has "no function .task_numa_find_cpu. is defined in it \(it is in a block the preprocessor skips, line [0-9]+: .#ifdef CONFIG_NUMA_BALANCING.; the shim leaves CONFIG_NUMA_BALANCING off: --config CONFIG_NUMA_BALANCING \(or a spec line .config CONFIG_NUMA_BALANCING.\) defines it\)"
  run 0 fn --old "$old" --new "$tmp/numa-and.c" --function task_numa_find_cpu --spec "$here/task-numa-find-cpu.fnspec"
  has "^stubs: task_numa_assign\(\), task_numa_compare\(\) \(functions of the file the spec makes stubs"
  has "^verdict: equivalent \(300 inputs, level exact\)"
  ;;
task-numa-find-cpu-broken)
  # The affinity test dropped: task_numa_compare() is offered a CPU the task
  # does not allow. The walk from env->src_cpu + 1 round: another order.
  edit numa-broken
  run 1 fn --old "$old" --new "$tmp/numa-broken.c" --function task_numa_find_cpu --spec "$here/task-numa-find-cpu.fnspec"
  has "^               new: call 1 of [0-9]+: task_numa_compare\(&in0\+0, " && has "^verdict: finding: the sides differ at level .exact."
  replays
  edit numa-from
  run 1 fn --old "$old" --new "$tmp/numa-from.c" --function task_numa_find_cpu --spec "$here/task-numa-find-cpu.fnspec" --no-minimize
  has "^verdict: finding: the sides differ at level .exact."
  replays
  ;;
find-idlest-group-busy)
  # The task's affinity dropped from the count (cpumask_weight() of the
  # local group's span): found only with the run queues drawn (busy
  # destinations); with them zeroed, as the shim leaves them, equivalent.
  edit weight-broken
  run 1 fn --old "$old" --new "$tmp/weight-broken.c" --function find_idlest_group --spec "$here/find-idlest-group.fnspec" --runs 1000
  has "^minimised .*the same finding .differs:return."
  has "^verdict: finding: the sides differ at level .exact. on input "
  replays
  grep -v "^global runqueues input\|^param runqueues" "$here/find-idlest-group.fnspec" >"$tmp/idle-rqs.fnspec"
  run 0 fn --old "$old" --new "$tmp/weight-broken.c" --function find_idlest_group --spec "$tmp/idle-rqs.fnspec" --runs 1000
  has "^verdict: equivalent \(1000 inputs, level exact\)"
  ;;
patch)
  # The rewrite as a unified diff on a tree holding the real file.
  edit first-and-and
  mkdir -p "$tmp/tree/kernel/sched" "$tmp/a/kernel/sched" "$tmp/b/kernel/sched"
  cp "$old" "$tmp/tree/kernel/sched/fair.c"
  cp "$tmp/linux-source-6.1/Makefile" "$tmp/tree/Makefile"
  cp "$old" "$tmp/a/kernel/sched/fair.c"
  cp "$tmp/first-and-and.c" "$tmp/b/kernel/sched/fair.c"
  (cd "$tmp" && diff -u a/kernel/sched/fair.c b/kernel/sched/fair.c >"$tmp/p.diff")
  [ -s "$tmp/p.diff" ] || fail "an empty diff"
  run 0 fn --patch "$tmp/p.diff" --tree "$tmp/tree"
  has "kernel/sched/fair.c can_migrate_task: checked: equivalent \(300 inputs, 300 compared, level exact, shim era v6\.1\)"
  has "^verdict: equivalent: every changed function checked \(1\), exit 0"
  ;;
*)
  fail "unknown case"
  ;;
esac
exit 0
