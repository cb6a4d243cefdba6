// fn-expect: update_group_allowed finding
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "weight-and", a broken new side: the count is
 * one call, but of the neighbouring cpumask_weight_andnot() (v6.6+), which
 * counts the group's CPUs that the task does not allow.
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
	sgs->nr_allowed = cpumask_weight_andnot(span, allowed);
	sgs->fits = sgs->nr_allowed >= need;
}
