// SPDX-License-Identifier: MIT
/*
 * PLANTED BUG (time-to-bug benchmark): a destination pick for large
 * machines that tests the three masks 512 CPUs at a time: a block of eight
 * words (one cache line of each mask) is ANDed, the eight results are ORed
 * together and a block without a common CPU is skipped with one test. The
 * last block, which may be partial, is left to a word-by-word tail. Its
 * mistake: the tail takes words % 8 words, so when the word count is a
 * multiple of eight (449..512 CPUs, 961..1024, ..., 8192) the last block,
 * which is then full, is never looked at.
 *
 * Written for this project in the style of kernel/sched/fair.c's
 * can_migrate_task() destination pick; not kernel code. Used by
 * scripts/ttb.py only. Returns the first CPU in all three masks, or
 * nr_cpu_ids when there is none.
 */
// ttb: block-8 -- pick
#include <linux/cpumask.h>

#define PICK_BLOCK	8	/* words: 64 bytes of each mask */

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	const unsigned long *d = cpumask_bits(dst_grpmask);
	const unsigned long *c = cpumask_bits(cpus);
	const unsigned long *a = cpumask_bits(allowed);
	unsigned int words = BITS_TO_LONGS(nr_cpu_ids);
	/* Whole blocks; the last one, maybe partial, goes to the tail. */
	unsigned int blocks = (words - 1) / PICK_BLOCK;
	unsigned int tail = words % PICK_BLOCK;
	unsigned int b, i, j;

	for (b = 0; b < blocks; b++) {
		unsigned long w[PICK_BLOCK], any = 0;

		i = b * PICK_BLOCK;
		for (j = 0; j < PICK_BLOCK; j++) {
			w[j] = d[i + j] & c[i + j] & a[i + j];
			any |= w[j];
		}
		if (!any)
			continue;
		for (j = 0; j < PICK_BLOCK; j++)
			if (w[j])
				return (int)((i + j) * BITS_PER_LONG + __ffs(w[j]));
	}
	for (i = blocks * PICK_BLOCK; i < blocks * PICK_BLOCK + tail; i++) {
		unsigned long w = d[i] & c[i] & a[i];

		if (w)
			return (int)(i * BITS_PER_LONG + __ffs(w));
	}
	return nr_cpu_ids;
}
