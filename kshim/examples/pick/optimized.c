// SPDX-License-Identifier: MIT
/*
 * Pick, RFC form: two cpumask_and() into a struct cpumask on the stack, then cpumask_first().
 *
 * A diffsched test file in the style of kernel/sched/fair.c's
 * can_migrate_task() destination pick, for `diffsched kernel-check pick`.
 * Not kernel code: written for this project. The function returns the first
 * CPU in all three masks, or nr_cpu_ids when there is none.
 */
// expect: kernel.pick.optimized.equivalent 0 - "verdict: EQUIVALENT" -- pick --time 2 ${kfast}
#include <linux/cpumask.h>

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	struct cpumask dst_mask;

	cpumask_and(&dst_mask, dst_grpmask, cpus);
	cpumask_and(&dst_mask, &dst_mask, allowed);
	return cpumask_first(&dst_mask);
}
