// fn-expect: find_nth_near_cpu fault
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "nth-cpu", the new side: since the masks are
 * nested, the weights of cpus in them grow with the hop, so a binary search
 * finds the first hop that holds the n-th CPU in O(log nr_hops) weights.
 * When no hop holds it (cpus does not meet the masks, or has fewer than
 * n + 1 CPUs in them), the search ends at nr_hops and hop_masks[nr_hops] is
 * read, one past the end: the shape of CVE-2025-39895.
 * Written for this project; not kernel code. Domain: as the old side's.
 */
#include <linux/cpumask.h>

unsigned int find_nth_near_cpu(const struct cpumask *cpus, unsigned int n,
			       const struct cpumask *const *hop_masks, int nr_hops)
{
	int lo = 0, hi = nr_hops, mid;
	unsigned int prev;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (cpumask_weight_and(cpus, hop_masks[mid]) > n)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (!lo)
		return cpumask_nth_and(n, cpus, hop_masks[0]);
	prev = cpumask_weight_and(cpus, hop_masks[lo - 1]);
	return cpumask_nth_and_andnot(n - prev, cpus, hop_masks[lo], hop_masks[lo - 1]);
}
