// fn-expect: update_group_allowed equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "weight-and", the new side: the count is one
 * cpumask_weight_and() (v6.0+), a popcount of the AND a word at a time.
 * Written for this project; not kernel code.
 */
#include <linux/cpumask.h>

struct sg_allowed_stats {
	unsigned int	nr_allowed;	/* CPUs of the group the task allows */
	bool		fits;		/* at least `need` of them */
};

void update_group_allowed(struct sg_allowed_stats *sgs, const struct cpumask *span,
			  const struct cpumask *allowed, unsigned int need)
{
	sgs->nr_allowed = cpumask_weight_and(span, allowed);
	sgs->fits = sgs->nr_allowed >= need;
}
