// SPDX-License-Identifier: MIT
/*
 * HOSTILE pick (the v6.13 loop, otherwise correct): _exit(1) on its first call (the status of a harness finding).
 *
 * expect: the candidate ended the harness process (status 1), never a finding of a check, and no reproducer named that was not written.
 *
 * A diffsched test file for kernel-check's fail-closed verdict and its
 * sandbox (issue 22): the candidate is user code that runs inside the
 * harness process. Not kernel code: written for this project.
 */
#include <linux/cpumask.h>

/* No libc header reaches a candidate (-nostdinc): declared here. */
extern void _exit(int status) __attribute__((noreturn));

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	_exit(1);
	int cpu, new_dst_cpu = nr_cpu_ids;

	for_each_cpu_and(cpu, dst_grpmask, cpus) {
		if (cpumask_test_cpu(cpu, allowed)) {
			new_dst_cpu = cpu;
			break;
		}
	}
	return new_dst_cpu;
}
