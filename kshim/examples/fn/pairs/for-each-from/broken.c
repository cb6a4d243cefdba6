// fn-expect: scan_idle_from finding
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "for-each-from", a broken new side: the second
 * pass stops one CPU early (at the target, not after it), so the target is
 * never scanned, though the wrap-around walk ends with it.
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
		if (cpu >= target)
			break;
		if (!--nr)
			return -1;
		if (cpumask_test_cpu(cpu, idle))
			return cpu;
	}
	return -1;
}
