// fn-expect: sort_cpu_loads sorted-only sorted
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "heapsort-ties", the new side: the heapsort pops
 * two elements a round while the heap has four or more: the root, and the
 * larger of its children, which is the second largest. Fewer sift-downs and
 * the same sorted loads, but equal loads come out in another order of their
 * CPUs: equivalent at `sorted` (key: load), divergent at `exact`, as
 * lib/sort.c's double pop of 2024 was. Written for this project; not kernel
 * code.
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
	for (n = num; n > 3; n -= 2) {
		size_t c = cmp_load(&base[2], &base[1]) > 0 ? 2 : 1;

		swap(base[0], base[n - 1]);
		swap(base[c], base[n - 2]);
		sift_down(base, c, n - 2);
		sift_down(base, 0, n - 2);
	}
	for (; n > 1; n--) {
		swap(base[0], base[n - 1]);
		sift_down(base, 0, n - 1);
	}
}
