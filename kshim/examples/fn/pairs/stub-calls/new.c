// fn-expect: group_balance_first equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "stub-calls", the new side: the loop becomes
 * one cpumask_first_and(); the same external calls, in the same order, with
 * the same arguments (the old side is old.c).
 * Written for this project in the shape of group_balance_cpu() in
 * kernel/sched/topology.c (v4.12); not kernel code.
 */
#include <linux/cpumask.h>

struct balance_group {
	unsigned int	id;		/* the group's number in its domain */
	unsigned int	flags;
};

struct cpumask *balance_group_span(struct balance_group *sg);
struct cpumask *balance_group_mask(struct balance_group *sg);
void balance_group_note(struct balance_group *sg, int cpu);

int group_balance_first(struct balance_group *sg)
{
	const struct cpumask *span = balance_group_span(sg);
	const struct cpumask *mask = balance_group_mask(sg);
	unsigned int cpu = cpumask_first_and(span, mask);

	if (cpu >= nr_cpu_ids)
		return nr_cpu_ids;
	balance_group_note(sg, cpu);
	return cpu;
}
