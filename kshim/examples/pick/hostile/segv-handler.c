// SPDX-License-Identifier: MIT
/*
 * HOSTILE pick (the v6.13 loop, otherwise correct): installs a SIGSEGV handler that _exit(0)s, then dereferences NULL.
 *
 * expect: a finding (exit 1), never EQUIVALENT: the sanitizer reports the SEGV or the handler ends the process.
 *
 * A diffsched test file for kernel-check's fail-closed verdict and its
 * sandbox (issue 22): the candidate is user code that runs inside the
 * harness process. Not kernel code: written for this project.
 */
#include <linux/cpumask.h>

/* No libc header reaches a candidate (-nostdinc): declared here. */
extern void _exit(int status) __attribute__((noreturn));
typedef void (*hostile_handler_t)(int);
extern hostile_handler_t signal(int sig, hostile_handler_t handler);
#define HOSTILE_SIGSEGV 11

static void hostile_on_segv(int sig)
{
	_exit(0);
}

static int *volatile hostile_null;

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	signal(HOSTILE_SIGSEGV, hostile_on_segv);
	*hostile_null = 1;
	int cpu, new_dst_cpu = nr_cpu_ids;

	for_each_cpu_and(cpu, dst_grpmask, cpus) {
		if (cpumask_test_cpu(cpu, allowed)) {
			new_dst_cpu = cpu;
			break;
		}
	}
	return new_dst_cpu;
}
