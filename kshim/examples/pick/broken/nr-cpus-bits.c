// SPDX-License-Identifier: MIT
/*
 * BROKEN pick: searches the whole NR_CPUS-bit stack bitmap, of which bitmap_and() wrote only the words below nr_cpumask_bits.
 *
 * A diffsched test file in the style of kernel/sched/fair.c's
 * can_migrate_task() destination pick, for `diffsched kernel-check pick`.
 * Not kernel code: written for this project. The function returns the first
 * CPU in all three masks, or nr_cpu_ids when there is none.
 */
// expect: kernel.pick.broken.nr-cpus-bits 1 1 "pick:" -- pick --time 10 ${kfast}
#include <linux/cpumask.h>

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	DECLARE_BITMAP(tmp, NR_CPUS);

	bitmap_and(tmp, cpumask_bits(dst_grpmask), cpumask_bits(cpus), nr_cpumask_bits);
	bitmap_and(tmp, tmp, cpumask_bits(allowed), nr_cpumask_bits);
	return find_first_bit(tmp, NR_CPUS);
}
