// fn-expect: select_idle_cpu_lite equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "intended", the old side: scan the LLC for an
 * idle CPU that the task allows, from after the target, wrapping, and give
 * up after s->nr CPUs. A CPU the task does not allow still uses up one of
 * the nr. Written for this project in the shape of select_idle_cpu() in
 * kernel/sched/fair.c before 2019; not kernel code.
 * Domain: 0 <= target < nr_cpu_ids.
 */
#include <linux/sched.h>

struct idle_scan {
	const struct cpumask	*llc;	/* the target's last-level cache */
	const struct cpumask	*idle;	/* the idle CPUs */
	struct cpumask		*cpus;	/* scratch of the caller's CPU, not an output */
	int			nr;	/* the scan budget */
};

int select_idle_cpu_lite(struct idle_scan *s, const struct task_struct *p, int target)
{
	int cpu, nr = s->nr;

	for_each_cpu_wrap(cpu, s->llc, target + 1) {
		if (!--nr)
			return -1;
		if (!cpumask_test_cpu(cpu, p->cpus_ptr))
			continue;
		if (cpumask_test_cpu(cpu, s->idle))
			return cpu;
	}
	return -1;
}
