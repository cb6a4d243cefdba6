// SPDX-License-Identifier: MIT
/*
 * diffsched fn --fuzz test input (properties/fn/fn-fuzz.cmake), the old
 * side: the first allowed CPU, or -1.
 */
#include <linux/cpumask.h>

int pick_cookie_cpu(unsigned int cookie, const struct cpumask *allowed)
{
	unsigned int cpu = cpumask_first(allowed);

	if (cpu >= nr_cpu_ids)
		return -1;
	return cpu;
}
