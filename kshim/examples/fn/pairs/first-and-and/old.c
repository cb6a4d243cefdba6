// fn-expect: find_new_dst_cpu equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "first-and-and", the old side: a load balancer
 * whose task cannot run on the destination CPU looks for another CPU of the
 * destination group that is still being balanced and that the task allows,
 * with a for_each_cpu_and() loop that tests a third mask.
 * Written for this project in the shape of can_migrate_task() in
 * kernel/sched/fair.c; not kernel code.
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
	int cpu;

	for_each_cpu_and(cpu, env->dst_grpmask, env->cpus) {
		if (cpumask_test_cpu(cpu, allowed)) {
			env->flags |= LBF_DST_PINNED;
			env->new_dst_cpu = cpu;
			return true;
		}
	}
	return false;
}
