// fn-expect: sort_cpu_loads equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "heapsort-ties", the old side: sort per-CPU
 * loads in increasing load with a heapsort: build a max-heap, then pop the
 * largest to the end, one at a time. Not stable, but deterministic: callers
 * may come to rely on the order it gives equal loads.
 * Written for this project in the shape of lib/sort.c; not kernel code.
 */
#include <linux/kernel.h>

struct cpu_load {
	unsigned long	load;
	int		cpu;
};

static int cmp_load(const struct cpu_load *a, const struct cpu_load *b)
{
	if (a->load == b->load)
		return 0;
	return a->load < b->load ? -1 : 1;
}

/* Restore the max-heap base[0..n) below pos. O(log n). */
static void sift_down(struct cpu_load *base, size_t pos, size_t n)
{
	size_t child;

	while ((child = 2 * pos + 1) < n) {
		if (child + 1 < n && cmp_load(&base[child + 1], &base[child]) > 0)
			child++;
		if (cmp_load(&base[child], &base[pos]) <= 0)
			break;
		swap(base[pos], base[child]);
		pos = child;
	}
}

void sort_cpu_loads(struct cpu_load *base, size_t num)
{
	size_t n;

	for (n = num / 2; n-- > 0; )
		sift_down(base, n, num);
	for (n = num; n > 1; n--) {
		swap(base[0], base[n - 1]);
		sift_down(base, 0, n - 1);
	}
}
