// SPDX-License-Identifier: MIT
/*
 * HOSTILE pick (the v6.13 loop, otherwise correct): raise(SIGKILL) on its first call.
 *
 * expect: the candidate ended the harness process (status 137), a finding on that input.
 *
 * A diffsched test file for kernel-check's fail-closed verdict and its
 * sandbox (issue 22): the candidate is user code that runs inside the
 * harness process. Not kernel code: written for this project.
 */
#include <linux/cpumask.h>

/* No libc header reaches a candidate (-nostdinc): declared here. */
extern int raise(int sig);
#define HOSTILE_SIGKILL 9

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	raise(HOSTILE_SIGKILL);
	int cpu, new_dst_cpu = nr_cpu_ids;

	for_each_cpu_and(cpu, dst_grpmask, cpus) {
		if (cpumask_test_cpu(cpu, allowed)) {
			new_dst_cpu = cpu;
			break;
		}
	}
	return new_dst_cpu;
}
