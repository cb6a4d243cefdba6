// fn-expect: group_balance_first finding
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "stub-calls", a broken new side: the same
 * result as old.c on every input, but the note is made even when no CPU is
 * found (with nr_cpu_ids): the sequence of external calls differs, which is
 * a finding on the row `calls`.
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
		cpu = nr_cpu_ids;
	balance_group_note(sg, cpu);
	return cpu;
}
