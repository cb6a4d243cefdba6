// SPDX-License-Identifier: MIT
/*
 * diffsched fn, extraction example: a scan over a cpumask with a static
 * helper, two file macros and two file types, next to a helper, a macro and
 * a type the scan never uses (extraction must leave those out).
 * Written for this project in the style of kernel/sched/fair.c; not kernel code.
 */
#include <linux/cpumask.h>

#define SCAN_LIMIT	8
#define SCAN_STEP(n)	((n) + SCAN_STRIDE)
#define SCAN_STRIDE	1
#define UNUSED_LIMIT	64

struct scan_stats {
	int visited;
	int found;
};

enum scan_mode {
	SCAN_FIRST,
	SCAN_LAST,
};

typedef int (*unused_cb_t)(int);

static inline bool cpu_is_candidate(int cpu, const struct cpumask *allowed)
{
	return cpumask_test_cpu(cpu, allowed);
}

static int unrelated_helper(int x)
{
	return x * UNUSED_LIMIT;
}

int scan_for_cpu(const struct cpumask *span, const struct cpumask *allowed,
		 enum scan_mode mode, struct scan_stats *stats)
{
	int cpu, best = nr_cpu_ids, n = 0;

	for_each_cpu(cpu, span) {
		if (n >= SCAN_LIMIT)
			break;
		n = SCAN_STEP(n);
		stats->visited++;
		if (!cpu_is_candidate(cpu, allowed))
			continue;
		best = cpu;
		if (mode == SCAN_FIRST)
			break;
	}
	if (best < nr_cpu_ids)
		stats->found++;
	return best;
}
