// fn-expect: update_group_allowed equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "weight-and", the old side: while it looks for
 * the idlest group, the balancer counts the group's CPUs that the task may
 * run on, one CPU at a time.
 * Written for this project in the shape of sched_balance_find_dst_group()
 * in kernel/sched/fair.c; not kernel code.
 */
#include <linux/cpumask.h>

struct sg_allowed_stats {
	unsigned int	nr_allowed;	/* CPUs of the group the task allows */
	bool		fits;		/* at least `need` of them */
};

void update_group_allowed(struct sg_allowed_stats *sgs, const struct cpumask *span,
			  const struct cpumask *allowed, unsigned int need)
{
	unsigned int nr = 0;
	int cpu;

	for_each_cpu(cpu, span) {
		if (cpumask_test_cpu(cpu, allowed))
			nr++;
	}
	sgs->nr_allowed = nr;
	sgs->fits = nr >= need;
}
