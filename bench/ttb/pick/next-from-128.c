// SPDX-License-Identifier: MIT
/*
 * PLANTED BUG (time-to-bug benchmark): a destination pick tuned for the
 * common machine of at most 128 CPUs: the first two words of the three
 * masks are ANDed inline, and only a larger machine goes on with
 * cpumask_next_and() over the group and the env's CPUs from CPU 128,
 * testing the task's affinity. Its mistake: cpumask_next_and(n, ...)
 * returns the first CPU after n, so starting it at 2 * BITS_PER_LONG never
 * looks at CPU 128, the first CPU of the third word.
 *
 * Written for this project in the style of kernel/sched/fair.c's
 * can_migrate_task() destination pick; not kernel code. Used by
 * scripts/ttb.py only. Returns the first CPU in all three masks, or
 * nr_cpu_ids when there is none.
 */
// ttb: third-word -- pick
#include <linux/cpumask.h>

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	const unsigned long *d = cpumask_bits(dst_grpmask);
	const unsigned long *c = cpumask_bits(cpus);
	const unsigned long *a = cpumask_bits(allowed);
	unsigned long w;
	unsigned int cpu;

	/* CPUs 0-63 */
	w = d[0] & c[0] & a[0];
	if (w)
		return (int)__ffs(w);
	if (nr_cpu_ids <= BITS_PER_LONG)
		return nr_cpu_ids;

	/* CPUs 64-127 */
	w = d[1] & c[1] & a[1];
	if (w)
		return (int)(BITS_PER_LONG + __ffs(w));
	if (nr_cpu_ids <= 2 * BITS_PER_LONG)
		return nr_cpu_ids;

	/* A larger machine: the rest, from CPU 128 on. */
	cpu = 2 * BITS_PER_LONG;
	while ((cpu = cpumask_next_and((int)cpu, dst_grpmask, cpus)) < nr_cpu_ids) {
		if (cpumask_test_cpu(cpu, allowed))
			return (int)cpu;
	}
	return nr_cpu_ids;
}
