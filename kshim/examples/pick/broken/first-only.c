// SPDX-License-Identifier: MIT
/*
 * BROKEN pick: tests only the first CPU of dst_grpmask & cpus against the affinity (gives up too early).
 *
 * A diffsched test file in the style of kernel/sched/fair.c's
 * can_migrate_task() destination pick, for `diffsched kernel-check pick`.
 * Not kernel code: written for this project. The function returns the first
 * CPU in all three masks, or nr_cpu_ids when there is none.
 */
// expect: kernel.pick.broken.first-only 1 1 "pick:" -- pick --time 10 ${kfast}
// expect: inkernel.pick.broken.first-only 1 2 "signature pick:invariant:pick-first-common:cpu:pick" -- pick --in-kernel --nr-cpus 65 --runs 50
#include <linux/cpumask.h>

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	unsigned int cpu = cpumask_first_and(dst_grpmask, cpus);

	if (cpu < nr_cpu_ids && cpumask_test_cpu(cpu, allowed))
		return cpu;
	return nr_cpu_ids;
}
