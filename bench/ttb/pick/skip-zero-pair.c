// SPDX-License-Identifier: MIT
/*
 * PLANTED BUG (time-to-bug benchmark): a destination pick for sparse
 * scheduling-group masks that skips empty group words two at a time
 * ("a group's CPUs are contiguous: an empty word is followed by another").
 * Its mistake: the word after an empty group word is skipped without
 * looking at it.
 *
 * Written for this project in the style of kernel/sched/fair.c's
 * can_migrate_task() destination pick; not kernel code. Used by
 * scripts/ttb.py only. Returns the first CPU in all three masks, or
 * nr_cpu_ids when there is none.
 */
// ttb: pick-skip -- pick
#include <linux/cpumask.h>

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	const unsigned long *d = cpumask_bits(dst_grpmask);
	const unsigned long *c = cpumask_bits(cpus);
	const unsigned long *a = cpumask_bits(allowed);
	unsigned int words = BITS_TO_LONGS(nr_cpu_ids);
	unsigned int i;

	for (i = 0; i < words; i++) {
		unsigned long w;

		if (!d[i]) {
			i++;	/* and the next one: groups are contiguous */
			continue;
		}
		w = d[i] & c[i] & a[i];
		if (w)
			return (int)(i * BITS_PER_LONG + __builtin_ctzl(w));
	}
	return nr_cpu_ids;
}
