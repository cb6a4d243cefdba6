// fn-expect: levels_disjoint equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "boot-table", the old side: the same check as
 * new.c, but no function of the file replaces the table, so the pointer's
 * initialiser is the only value the function can see: constant data, which
 * needs no spec (the pair's reference, equivalent against itself). new.c
 * adds the boot code that replaces it, and then the pointer is a hidden
 * global that diffsched fn must name.
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
