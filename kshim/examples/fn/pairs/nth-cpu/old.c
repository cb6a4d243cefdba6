// fn-expect: find_nth_near_cpu equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "nth-cpu", the old side: the n-th (from 0) CPU
 * of cpus in order of distance, where hop_masks[0..nr_hops) are nested
 * masks (hop_masks[h] holds the CPUs within h hops, and hop_masks[h - 1]):
 * the CPUs of hop 0 first, then those that hop 1 adds, and so on. A linear
 * walk over the hops; >= nr_cpu_ids when cpus has no n-th CPU in them.
 * Written for this project in the shape of sched_numa_find_nth_cpu() in
 * kernel/sched/topology.c; not kernel code. Domain: n < nr_cpu_ids,
 * nr_hops >= 1, the masks nested.
 */
#include <linux/cpumask.h>

unsigned int find_nth_near_cpu(const struct cpumask *cpus, unsigned int n,
			       const struct cpumask *const *hop_masks, int nr_hops)
{
	unsigned int w, prev = 0;
	int hop;

	for (hop = 0; hop < nr_hops; hop++) {
		w = cpumask_weight_and(cpus, hop_masks[hop]);
		if (n < w) {
			if (!hop)
				return cpumask_nth_and(n, cpus, hop_masks[0]);
			return cpumask_nth_and_andnot(n - prev, cpus, hop_masks[hop],
						      hop_masks[hop - 1]);
		}
		prev = w;
	}
	return nr_cpu_ids;
}
