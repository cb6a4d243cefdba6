// fn-expect: find_new_dst_cpu equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "first-and-and", the new side: the loop becomes
 * one search of the three masks with cpumask_first_and_and() (v6.11+), which
 * returns >= nr_cpu_ids when they have no CPU in common.
 * Written for this project; not kernel code.
 */
#include <linux/cpumask.h>

#define LBF_DST_PINNED	0x04

struct lb_env_lite {
	const struct cpumask	*dst_grpmask;	/* the destination group's CPUs */
	const struct cpumask	*cpus;		/* the CPUs still being balanced */
	int			new_dst_cpu;
	unsigned int		flags;
};

bool find_new_dst_cpu(struct lb_env_lite *env, const struct cpumask *allowed)
{
	unsigned int cpu;

	cpu = cpumask_first_and_and(env->dst_grpmask, env->cpus, allowed);
	if (cpu < nr_cpu_ids) {
		env->flags |= LBF_DST_PINNED;
		env->new_dst_cpu = cpu;
		return true;
	}
	return false;
}
