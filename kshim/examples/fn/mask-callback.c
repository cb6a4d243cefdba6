// SPDX-License-Identifier: MIT
/*
 * diffsched fn example: a level of the topology passed in with a mask
 * callback, as topology_span_sane(tl, cpu_map, cpu) took it before v6.16.
 * Two checks that the spans of cpu_map's CPUs at the level are equal or
 * disjoint, for `cpu` against every other CPU: span_sane_pairs() asks
 * "equal?" first, span_sane_meets() asks "do they meet?" first and reads
 * `cpu`'s span once. The callback is bound by a spec line to a function of
 * this file:
 *
 *   param tl.mask fn node_span        a span from the CPU's node: equivalent
 *   param tl.mask fn numa_level_span  reads level_curr, a file-scope variable
 *                                     nobody passes in: named, exit 2, until
 *                                     `global level_curr input` covers it
 *   param tl.mask fn level_weight     not a mask callback: exit 2, both types
 *
 * span_sane_subset() is a broken variant of the check (a finding).
 *
 * Written for this project in the shape of kernel/sched/topology.c; not
 * kernel code. Domain: the spans of the node table are inputs.
 */
#include <linux/cpumask.h>

#define NR_NODES	4
#define NR_LEVELS	2

/* node_spans[l][node]: the CPUs level l groups with the node's (at boot). */
static struct cpumask node_spans[NR_LEVELS][NR_NODES];
/* The level the domain builder is at: valid only inside its walk. */
static int level_curr;

static inline int node_of(int cpu)
{
	return cpu % NR_NODES;
}

/* A level that does not depend on where the builder is. */
static const struct cpumask *node_span(int cpu)
{
	return &node_spans[0][node_of(cpu)];
}

/* The NUMA levels' callback: which level is level_curr's business. */
static const struct cpumask *numa_level_span(int cpu)
{
	return &node_spans[level_curr][node_of(cpu)];
}

/* Not a mask callback: a binding to it is refused. */
static int level_weight(long cpu)
{
	return (int)(cpu & 7);
}

struct span_level {
	const struct cpumask *(*mask)(int cpu);
	int flags;
};

bool span_sane_pairs(struct span_level *tl, const struct cpumask *cpu_map, int cpu)
{
	int i;

	if (cpu < 0 || cpu >= nr_cpu_ids)
		return true;
	for_each_cpu(i, cpu_map) {
		if (i == cpu)
			continue;
		if (cpumask_equal(tl->mask(cpu), tl->mask(i)))
			continue;
		if (cpumask_intersects(tl->mask(cpu), tl->mask(i)))
			return false;
	}
	return true;
}

/*
 * The same answer with the tests the other way round: a span that meets
 * `cpu`'s must equal it. Equivalent to span_sane_pairs() for every table.
 */
bool span_sane_meets(struct span_level *tl, const struct cpumask *cpu_map, int cpu)
{
	const struct cpumask *mine;
	int i;

	if (cpu < 0 || cpu >= nr_cpu_ids)
		return true;
	mine = tl->mask(cpu);
	for_each_cpu(i, cpu_map) {
		if (i == cpu)
			continue;
		if (!cpumask_intersects(mine, tl->mask(i)))
			continue;
		if (!cpumask_equal(mine, tl->mask(i)))
			return false;
	}
	return true;
}

/*
 * Broken on purpose: "meets and is not inside mine" is not "meets and is not
 * equal" (a span strictly inside `cpu`'s passes). diffsched fn must find it.
 */
bool span_sane_subset(struct span_level *tl, const struct cpumask *cpu_map, int cpu)
{
	int i;

	if (cpu < 0 || cpu >= nr_cpu_ids)
		return true;
	for_each_cpu(i, cpu_map) {
		if (i == cpu)
			continue;
		if (cpumask_intersects(tl->mask(cpu), tl->mask(i)) &&
		    !cpumask_subset(tl->mask(i), tl->mask(cpu)))
			return false;
	}
	return true;
}

/* The builder: the only writer of level_curr. */
void span_levels_check(const struct cpumask *cpu_map)
{
	struct span_level tl = { numa_level_span, 0 };

	for (level_curr = 0; level_curr < NR_LEVELS; level_curr++)
		WARN_ON(!span_sane_pairs(&tl, cpu_map, cpumask_first(cpu_map)));
}
