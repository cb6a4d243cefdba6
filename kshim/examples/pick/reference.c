// SPDX-License-Identifier: MIT
/*
 * Pick, v6.13 form: for_each_cpu_and() over the group and the env's CPUs, testing the task's affinity.
 *
 * A diffsched test file in the style of kernel/sched/fair.c's
 * can_migrate_task() destination pick, for `diffsched kernel-check pick`.
 * Not kernel code: written for this project. The function returns the first
 * CPU in all three masks, or nr_cpu_ids when there is none.
 */
// expect: kernel.pick.reference.equivalent 0 - "verdict: EQUIVALENT" -- pick --time 2 ${kfast}
// expect: inkernel.pick.reference.same 0 - "verdict: SAME" -- pick --in-kernel --nr-cpus 65 --runs 100
#include <linux/cpumask.h>

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	int cpu, new_dst_cpu = nr_cpu_ids;

	/* Prevent to re-select dst_cpu via env's CPUs */
	for_each_cpu_and(cpu, dst_grpmask, cpus) {
		if (cpumask_test_cpu(cpu, allowed)) {
			new_dst_cpu = cpu;
			break;
		}
	}
	return new_dst_cpu;
}
