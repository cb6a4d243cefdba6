// fn-expect: levels_disjoint hidden-global
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "boot-table", the new side: every level of a
 * table of CPU groupings is either equal or disjoint for any two CPUs of
 * cpu_map (O(n^2) per level). The table is reached through a file-scope
 * pointer whose initialiser is a default table, but boot code
 * (install_levels()) replaces it: the initialiser is not the value the
 * function sees, so the pointer is a global the caller must cover, not
 * constant data, though no function of the closure writes it (the shape of
 * sched_domain_topology in kernel/sched/topology.c, which
 * sched_init_numa() replaces). diffsched fn must name level_table.
 * Written for this project; not kernel code.
 */
#include <linux/cpumask.h>

struct level {
	const struct cpumask *(*span)(int cpu);
	int may_overlap;
};

static const struct cpumask *whole_span(int cpu)
{
	return cpu_possible_mask;
}

static struct level default_levels[] = {
	{ whole_span, 0 },
	{ NULL, 0 },
};

static struct level *level_table = default_levels;

void install_levels(struct level *levels)
{
	level_table = levels;
}

bool levels_disjoint(const struct cpumask *cpu_map)
{
	struct level *l;
	int cpu, other;

	for (l = level_table; l->span; l++) {
		if (l->may_overlap)
			continue;
		for_each_cpu(cpu, cpu_map) {
			other = cpu;
			for_each_cpu_from(other, cpu_map) {
				if (!cpumask_equal(l->span(cpu), l->span(other)) &&
				    cpumask_intersects(l->span(cpu), l->span(other)))
					return false;
			}
		}
	}
	return true;
}
