// SPDX-License-Identifier: MIT
/*
 * PLANTED BUG (time-to-bug benchmark): a destination pick that ANDs the
 * three masks a word at a time, unrolled by four words, with a tail of two
 * words and one word. Its mistake: the two-word tail does not advance the
 * index, so with a word count of 3 mod 4 (e.g. 129..192 CPUs) the last word
 * is never looked at and the one before it is looked at twice.
 *
 * Written for this project in the style of kernel/sched/fair.c's
 * can_migrate_task() destination pick; not kernel code. Used by
 * scripts/ttb.py only. Returns the first CPU in all three masks, or
 * nr_cpu_ids when there is none.
 */
// ttb: pick-tail -- pick
#include <linux/cpumask.h>

#define FIRST_IN(w, i) ((int)((i) * BITS_PER_LONG + __builtin_ctzl(w)))

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	const unsigned long *d = cpumask_bits(dst_grpmask);
	const unsigned long *c = cpumask_bits(cpus);
	const unsigned long *a = cpumask_bits(allowed);
	unsigned int words = BITS_TO_LONGS(nr_cpu_ids);
	unsigned int i;
	unsigned long w;

	for (i = 0; i + 4 <= words; i += 4) {
		unsigned long w0 = d[i] & c[i] & a[i];
		unsigned long w1 = d[i + 1] & c[i + 1] & a[i + 1];
		unsigned long w2 = d[i + 2] & c[i + 2] & a[i + 2];
		unsigned long w3 = d[i + 3] & c[i + 3] & a[i + 3];

		if (!(w0 | w1 | w2 | w3))
			continue;
		if (w0)
			return FIRST_IN(w0, i);
		if (w1)
			return FIRST_IN(w1, i + 1);
		if (w2)
			return FIRST_IN(w2, i + 2);
		return FIRST_IN(w3, i + 3);
	}
	if (words & 2) {
		w = d[i] & c[i] & a[i];
		if (w)
			return FIRST_IN(w, i);
		w = d[i + 1] & c[i + 1] & a[i + 1];
		if (w)
			return FIRST_IN(w, i + 1);
	}
	if (words & 1) {
		w = d[i] & c[i] & a[i];
		if (w)
			return FIRST_IN(w, i);
	}
	return nr_cpu_ids;
}
