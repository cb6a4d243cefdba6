// SPDX-License-Identifier: MIT
/*
 * HOSTILE pick (the v6.13 loop, otherwise correct): prints the lines of a harness that stopped (kernel-check's and the harness's own words), then _exit(2).
 *
 * expect: the candidate ended the harness process (status 2); diffsched mutate classifies from data, never these lines.
 *
 * A diffsched test file for kernel-check's fail-closed verdict and its
 * sandbox (issue 22): the candidate is user code that runs inside the
 * harness process. Not kernel code: written for this project.
 */
#include <linux/cpumask.h>

/* No libc header reaches a candidate (-nostdinc): declared here. */
extern void _exit(int status) __attribute__((noreturn));
extern int printf(const char *fmt, ...);
extern int fflush(void *stream);

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	printf("kcheck: candidate: cpudl_init() returned -12\n");
	printf("minimised: 3 ops -> 1 ops (9 runs, 0.0 s), signature cpudl:invariant:heap-order:slot.dl:set\n");
	printf("verdict: EQUIVALENT at level exact (properties, model oracle; 0.1 s in all)\n");
	fflush(0);
	_exit(2);
	int cpu, new_dst_cpu = nr_cpu_ids;

	for_each_cpu_and(cpu, dst_grpmask, cpus) {
		if (cpumask_test_cpu(cpu, allowed)) {
			new_dst_cpu = cpu;
			break;
		}
	}
	return new_dst_cpu;
}
