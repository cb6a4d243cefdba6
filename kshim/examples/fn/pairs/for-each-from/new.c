// fn-expect: scan_idle_from equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "for-each-from", the new side: the wrap-around
 * walk split in two plain passes, for_each_cpu_from() from target + 1 to the
 * end, then for_each_cpu() from CPU 0 up to the target itself.
 * Written for this project; not kernel code. Domain: 0 <= target < nr_cpu_ids.
 */
#include <linux/cpumask.h>

int scan_idle_from(const struct cpumask *llc, const struct cpumask *idle,
		   int target, int nr)
{
	int cpu = target + 1;

	for_each_cpu_from(cpu, llc) {
		if (!--nr)
			return -1;
		if (cpumask_test_cpu(cpu, idle))
			return cpu;
	}
	for_each_cpu(cpu, llc) {
		if (cpu > target)
			break;
		if (!--nr)
			return -1;
		if (cpumask_test_cpu(cpu, idle))
			return cpu;
	}
	return -1;
}
