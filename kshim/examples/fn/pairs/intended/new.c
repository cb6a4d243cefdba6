// fn-expect: select_idle_cpu_lite intended
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "intended", the new side: the LLC is ANDed with
 * the task's CPUs first, so only CPUs the task allows use up the budget.
 * It finds an idle CPU where the old side gave up: a difference, and the
 * one intended (as select_idle_cpu()'s pre-AND with p->cpus_ptr of 2019
 * intended it). The spec declares it, and that s->cpus is scratch; anything
 * else that differs is a finding. Written for this project; not kernel code.
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

	cpumask_and(s->cpus, s->llc, p->cpus_ptr);
	for_each_cpu_wrap(cpu, s->cpus, target + 1) {
		if (!--nr)
			return -1;
		if (cpumask_test_cpu(cpu, s->idle))
			return cpu;
	}
	return -1;
}
