// fn-expect: sort_elems finding
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "sort-void-ties", broken: the pop loop stops with
 * two elements left in the heap, unordered (`n > 2` for `n > 1`), so two
 * elements with different keys can stay out of order: a finding at every
 * level. Written for this project; not kernel code.
 */
#include <linux/kernel.h>
#include <linux/sort.h>

static void swap_elem(void *a, void *b, size_t size, swap_func_t swap_func)
{
	char *x = a, *y = b, t;

	if (swap_func) {
		swap_func(a, b, (int)size);
		return;
	}
	while (size--) {
		t = *x;
		*x++ = *y;
		*y++ = t;
	}
}

/* Restore the max-heap of the first n elements below pos. O(log n). */
static void sift_elem(char *base, size_t pos, size_t n, size_t size,
		      cmp_func_t cmp_func, swap_func_t swap_func)
{
	size_t child;

	while ((child = 2 * pos + 1) < n) {
		if (child + 1 < n &&
		    cmp_func(base + (child + 1) * size, base + child * size) > 0)
			child++;
		if (cmp_func(base + child * size, base + pos * size) <= 0)
			break;
		swap_elem(base + pos * size, base + child * size, size, swap_func);
		pos = child;
	}
}

void sort_elems(void *base, size_t num, size_t size,
		cmp_func_t cmp_func, swap_func_t swap_func)
{
	char *b = base;
	size_t n;

	for (n = num / 2; n-- > 0; )
		sift_elem(b, n, num, size, cmp_func, swap_func);
	for (n = num; n > 2; n--) {
		swap_elem(b, b + (n - 1) * size, size, swap_func);
		sift_elem(b, 0, n - 1, size, cmp_func, swap_func);
	}
}
