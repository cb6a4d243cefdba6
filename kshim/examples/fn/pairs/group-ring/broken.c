// fn-expect: find_spare_group finding
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "group-ring", a broken new side: walk the domain's
 * ring of groups and pick the one with the most capacity per CPU the task
 * allows; but it counts the group's CPUs with cpumask_weight() of its span:
 * the task's affinity is dropped, so a group the task allows none of is
 * picked, and the capacity per CPU is wrong (a finding).
 * Written for this project in the shape of find_idlest_group() in
 * kernel/sched/fair.c (v6.1) and its cpumask_weight_and() rewrite; not
 * kernel code. The spec makes sd->groups a ring of groups (`ring next 3`)
 * whose capacity data (sgc) is generated (`depth 3`).
 */
#include <linux/cpumask.h>

struct sched_group *find_spare_group(struct sched_domain *sd, struct task_struct *p, int this_cpu)
{
	struct sched_group *group = sd->groups, *best = NULL;
	unsigned long best_spare = 0;

	do {
		unsigned long spare;
		unsigned int allowed;

		allowed = cpumask_weight(sched_group_span(group));
		if (!allowed)
			continue;
		spare = group->sgc->capacity / allowed;
		if (cpumask_test_cpu(this_cpu, sched_group_span(group)))
			spare += sd->imbalance_pct;
		if (!best || spare > best_spare) {
			best = group;
			best_spare = spare;
		}
	} while (group = group->next, group != sd->groups);

	return best;
}
