// SPDX-License-Identifier: MIT
/*
 * Pick under another name, walking with cpumask_next() and testing two masks
 * per CPU, for `diffsched kernel-check pick --function pick_new_dst_cpu`
 * (check-patch test tree: a copy of kshim/examples/pick/named.c).
 *
 * A diffsched test file in the style of kernel/sched/fair.c's
 * can_migrate_task() destination pick. Not kernel code: written for this
 * project. The function returns the first CPU in all three masks, or
 * nr_cpu_ids when there is none.
 */
#include <linux/cpumask.h>

static bool usable(unsigned int cpu, const struct cpumask *cpus, const struct cpumask *allowed)
{
	return cpumask_test_cpu(cpu, cpus) && cpumask_test_cpu(cpu, allowed);
}

int pick_new_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		     const struct cpumask *allowed)
{
	unsigned int cpu;

	for (cpu = cpumask_first(dst_grpmask); cpu < nr_cpu_ids;
	     cpu = cpumask_next(cpu, dst_grpmask))
		if (usable(cpu, cpus, allowed))
			return cpu;
	return nr_cpu_ids;
}
