// SPDX-License-Identifier: MIT
/*
 * HOSTILE pick (the v6.13 loop, otherwise correct): it #includes a FIFO
 * that nobody writes (the test creates /var/tmp/diffsched-hostile-include.fifo),
 * so the compiler's read of it never ends.
 *
 * expect: exit 2 within --build-seconds: "the compile did not finish within".
 *
 * A diffsched test file for kernel-check's bounded build (issue 22). Not
 * kernel code: written for this project.
 */
#include <linux/cpumask.h>
#include "/var/tmp/diffsched-hostile-include.fifo"

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	int cpu, new_dst_cpu = nr_cpu_ids;

	for_each_cpu_and(cpu, dst_grpmask, cpus) {
		if (cpumask_test_cpu(cpu, allowed)) {
			new_dst_cpu = cpu;
			break;
		}
	}
	return new_dst_cpu;
}
