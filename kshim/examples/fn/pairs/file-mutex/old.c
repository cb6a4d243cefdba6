// fn-expect: count_covered equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "file-mutex", the old side: the CPUs of cpu_map
 * that the scratch mask `covered` holds, counted under a mutex the caller
 * must hold. The mutex is defined by the file through the shim's
 * DEFINE_MUTEX() (as kernel/sched/topology.c defines sched_domains_mutex):
 * the file's data, which the unit must carry, not the shim's. The spec
 * generates it per call (held or not: lockdep_assert_held() warns alike on
 * both sides). Written for this project; not kernel code.
 */
#include <linux/cpumask.h>

DEFINE_MUTEX(levels_mutex);

unsigned int count_covered(const struct cpumask *cpu_map, const struct cpumask *covered)
{
	unsigned int n = 0;
	int cpu;

	lockdep_assert_held(&levels_mutex);
	for_each_cpu(cpu, cpu_map)
		if (cpumask_test_cpu(cpu, covered))
			n++;
	return n;
}
