// fn-expect: find_new_dst_cpu finding
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "first-and-and", a broken new side: the loop
 * becomes one cpumask_first_and_and() as in new.c, but the bound test admits
 * nr_cpu_ids itself, so three masks with no CPU in common "find" CPU
 * nr_cpu_ids, set LBF_DST_PINNED and return true.
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
	if (cpu <= nr_cpu_ids) {
		env->flags |= LBF_DST_PINNED;
		env->new_dst_cpu = cpu;
		return true;
	}
	return false;
}
