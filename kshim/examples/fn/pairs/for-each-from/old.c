// fn-expect: scan_idle_from equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "for-each-from", the old side: look for an idle
 * CPU of the LLC, starting after the target and wrapping around to it, and
 * give up after nr CPUs: for_each_cpu_wrap() as select_idle_cpu() in
 * kernel/sched/fair.c uses it. Written for this project; not kernel code.
 * Domain: 0 <= target < nr_cpu_ids.
 */
#include <linux/cpumask.h>

int scan_idle_from(const struct cpumask *llc, const struct cpumask *idle,
		   int target, int nr)
{
	int cpu;

	for_each_cpu_wrap(cpu, llc, target + 1) {
		if (!--nr)
			return -1;
		if (cpumask_test_cpu(cpu, idle))
			return cpu;
	}
	return -1;
}
