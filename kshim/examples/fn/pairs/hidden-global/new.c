// fn-expect: level_span_sane hidden-global
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "hidden-global", the new side: one pass, O(n)
 * masks. A span seen before (by its first CPU) must be the same span again;
 * a new one must not meet the CPUs covered so far. It reads the spans
 * through the level's callback, as the domain builder does; but the NUMA
 * levels' callback reads sched_curr_level, not the level it is given, so
 * the result depends on a file-scope variable nobody passed in (the shape
 * of topology_span_sane()'s v6.16-rc1 rework). diffsched fn must name
 * sched_curr_level as read and not covered.
 * Written for this project; not kernel code. Domain: 0 <= level < NR_LEVELS.
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
	const struct topo_level *tl = &topo_levels[level];
	cpumask_var_t covered, seen;
	bool sane = true;
	int cpu;

	if (!zalloc_cpumask_var(&covered, GFP_KERNEL))
		return false;
	if (!zalloc_cpumask_var(&seen, GFP_KERNEL)) {
		free_cpumask_var(covered);
		return false;
	}
	for_each_cpu(cpu, cpu_map) {
		const struct cpumask *span = tl->mask(cpu);
		unsigned int id = cpumask_first(span);

		if (id < nr_cpu_ids && cpumask_test_cpu(id, seen)) {
			if (!cpumask_equal(span, tl->mask(id))) {
				sane = false;
				break;
			}
			continue;
		}
		if (cpumask_intersects(span, covered)) {
			sane = false;
			break;
		}
		cpumask_or(covered, covered, span);
		if (id < nr_cpu_ids)
			cpumask_set_cpu(id, seen);
	}
	free_cpumask_var(seen);
	free_cpumask_var(covered);
	return sane;
}

void build_levels(const struct cpumask *cpu_map)
{
	for (sched_curr_level = 0; sched_curr_level < NR_LEVELS; sched_curr_level++)
		WARN_ON(!level_span_sane(cpu_map, sched_curr_level));
}
