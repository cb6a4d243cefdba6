// SPDX-License-Identifier: MIT
/*
 * diffsched fn, extraction example: parameters of every kind input
 * generation distinguishes: a struct by pointer (with a cpumask_var_t, an
 * array and a function pointer among its fields), an array with a length,
 * a typedef'd comparator, integers, bool and a cpumask. The pick calls
 * through the struct's function pointer, which extraction cannot follow.
 * Written for this project in the style of lib/sort.c and fair.c; not kernel code.
 */
#include <linux/cpumask.h>

#define ENV_F_IDLE	0x1

typedef int (*cmp_func_t)(const void *a, const void *b);

struct pick_env {
	int src_cpu;
	unsigned int flags;
	cpumask_var_t cpus;
	unsigned long weights[4];
	cmp_func_t cmp;
};

static size_t min_index(const unsigned long *load, size_t nr, cmp_func_t cmp)
{
	size_t i, best = 0;

	for (i = 1; i < nr; i++)
		if (cmp(&load[i], &load[best]) < 0)
			best = i;
	return best;
}

int env_pick(struct pick_env *env, const unsigned long *load, size_t nr, bool idle_only,
	     u8 level, const struct cpumask *allowed)
{
	size_t i = min_index(load, nr, env->cmp);

	if (idle_only && !(env->flags & ENV_F_IDLE))
		return -1;
	if (env->cmp(&env->weights[level & 3], &load[i]) > 0)
		return env->src_cpu;
	if (!cpumask_test_cpu((int)i, allowed) || !cpumask_test_cpu((int)i, env->cpus))
		return -1;
	return (int)i;
}
