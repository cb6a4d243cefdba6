// fn-expect: level_span_sane equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "hidden-global", the old side: at one level of
 * the topology, the spans of any two CPUs of cpu_map must be equal or
 * disjoint. Compares every pair, O(n^2) masks, reading the level's span of
 * a CPU from the table with the level it is given.
 * Written for this project in the shape of topology_span_sane() in
 * kernel/sched/topology.c; not kernel code.
 * Domain: 0 <= level < NR_LEVELS.
 */
#include <linux/cpumask.h>

#define NR_LEVELS	4
#define NR_NODES	4

/* level_masks[l][node]: the CPUs level l groups with the node's (at boot). */
static struct cpumask level_masks[NR_LEVELS][NR_NODES];
/* The level that build_levels() is at: valid only inside its walk. */
static int sched_curr_level;

static inline int cpu_node(int cpu)
{
	return cpu % NR_NODES;
}

static const struct cpumask *level_mask(int level, int cpu)
{
	return &level_masks[level][cpu_node(cpu)];
}

/* The NUMA levels' callback: which level is sched_curr_level's business. */
static const struct cpumask *numa_level_mask(int cpu)
{
	return &level_masks[sched_curr_level][cpu_node(cpu)];
}

static const struct cpumask *smt_mask(int cpu)
{
	return &level_masks[0][cpu_node(cpu)];
}

struct topo_level {
	const struct cpumask *(*mask)(int cpu);
};

static struct topo_level topo_levels[NR_LEVELS] = {
	{ smt_mask }, { numa_level_mask }, { numa_level_mask }, { numa_level_mask },
};

bool level_span_sane(const struct cpumask *cpu_map, int level)
{
	int i, j;

	for_each_cpu(i, cpu_map) {
		for_each_cpu(j, cpu_map) {
			if (j <= i)
				continue;
			if (cpumask_equal(level_mask(level, i), level_mask(level, j)))
				continue;
			if (cpumask_intersects(level_mask(level, i), level_mask(level, j)))
				return false;
		}
	}
	return true;
}

void build_levels(const struct cpumask *cpu_map)
{
	for (sched_curr_level = 0; sched_curr_level < NR_LEVELS; sched_curr_level++)
		WARN_ON(!level_span_sane(cpu_map, sched_curr_level));
}
