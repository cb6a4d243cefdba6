// SPDX-License-Identifier: MIT
/*
 * BROKEN pick: returns -1 when no CPU qualifies, where callers test >= nr_cpu_ids.
 *
 * A diffsched test file in the style of kernel/sched/fair.c's
 * can_migrate_task() destination pick, for `diffsched kernel-check pick`.
 * Not kernel code: written for this project. The function returns the first
 * CPU in all three masks, or nr_cpu_ids when there is none.
 */
// expect: kernel.pick.broken.minus-one 1 1 "pick:" -- pick --time 10 ${kfast}
#include <linux/cpumask.h>

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	int cpu;

	for_each_cpu_and(cpu, dst_grpmask, cpus)
		if (cpumask_test_cpu(cpu, allowed))
			return cpu;
	return -1;
}
