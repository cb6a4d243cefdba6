// fn-expect: group_balance_first equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "stub-calls", the old side: the balance CPU of
 * a group is the first CPU of its span that is also in its balance mask,
 * found one CPU at a time; the CPU found is noted. The group's masks and
 * the note are functions the kernel shim lacks: diffsched fn stubs them
 * (their results drawn from the input, each call recorded and compared).
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
	int cpu;

	for_each_cpu(cpu, span) {
		if (cpumask_test_cpu(cpu, mask)) {
			balance_group_note(sg, cpu);
			return cpu;
		}
	}
	return nr_cpu_ids;
}
