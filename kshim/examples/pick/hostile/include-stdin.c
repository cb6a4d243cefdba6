// SPDX-License-Identifier: MIT
/*
 * HOSTILE pick (the v6.13 loop, otherwise correct): it #includes the
 * standard-input device, which would read kernel-check's own stdin.
 *
 * expect: EQUIVALENT (exit 0), promptly, even while kernel-check's stdin is a
 * pipe that never ends: the compile's stdin is /dev/null.
 *
 * A diffsched test file for kernel-check's bounded build (issue 22). Not
 * kernel code: written for this project.
 */
#include <linux/cpumask.h>
#include "/dev/stdin"

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
