// fn-expect: count_covered equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "file-mutex", the new side: one
 * cpumask_weight_and() instead of the loop; the same file-defined mutex.
 * Written for this project; not kernel code.
 */
#include <linux/cpumask.h>

DEFINE_MUTEX(levels_mutex);

unsigned int count_covered(const struct cpumask *cpu_map, const struct cpumask *covered)
{
	lockdep_assert_held(&levels_mutex);
	return cpumask_weight_and(cpu_map, covered);
}
