// SPDX-License-Identifier: MIT
/*
 * Pick on raw bitmaps: a DECLARE_BITMAP on the stack, bitmap_and(), then a find_next_and_bit() walk.
 *
 * A diffsched test file in the style of kernel/sched/fair.c's
 * can_migrate_task() destination pick, for `diffsched kernel-check pick`.
 * Not kernel code: written for this project. The function returns the first
 * CPU in all three masks, or nr_cpu_ids when there is none.
 */
// expect: kernel.pick.bitmap.equivalent 0 - "verdict: EQUIVALENT" -- pick --time 2 ${kfast}
#include <linux/cpumask.h>

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	DECLARE_BITMAP(both, NR_CPUS);
	unsigned long cpu;

	if (!bitmap_and(both, cpumask_bits(dst_grpmask), cpumask_bits(cpus), nr_cpumask_bits))
		return nr_cpu_ids;
	cpu = find_first_bit(both, small_cpumask_bits);
	while (cpu < small_cpumask_bits && !cpumask_test_cpu(cpu, allowed))
		cpu = find_next_and_bit(both, cpumask_bits(allowed), small_cpumask_bits, cpu + 1);
	return cpu < small_cpumask_bits ? (int)cpu : (int)nr_cpu_ids;
}
