/* SPDX-License-Identifier: MIT */
/*
 * A deliberately wrong shim primitive, for the test inkernel.pick.planted-shim
 * only (force-included into the shim build of the candidate through
 * DIFFSCHED_KSHIM_TEST_FLAGS; the kernel module is built without it):
 * cpumask_first_and_and() that ignores the third mask at CPUs 64 and above.
 * kernel-check --in-kernel must catch it as pick:kernel-vs-shim:cpu:pick.
 */
#include <kshim/kshim.h>

static inline unsigned int planted_cpumask_first_and_and(const struct cpumask *a,
							 const struct cpumask *b,
							 const struct cpumask *c)
{
	unsigned int cpu;

	for (cpu = cpumask_first_and(a, b); cpu < nr_cpu_ids; cpu = cpumask_next_and(cpu, a, b))
		if (cpu >= 64 || cpumask_test_cpu(cpu, c))
			return cpu;
	return nr_cpu_ids;
}
#define cpumask_first_and_and planted_cpumask_first_and_and
