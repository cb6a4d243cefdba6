// fn-expect: int_heap_sift_down equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "min-heap-sift", the old side: restore a min-heap
 * below pos top-down, two comparisons a level, stopping as soon as neither
 * child is smaller. With equal keys that is 2 comparisons in all.
 * Written for this project in the shape of lib/min_heap's sift-down; not
 * kernel code. ops->less is the caller's: the harness binds a comparator
 * that counts its calls. Domain: 0 <= pos < heap->nr.
 */
#include <linux/kernel.h>

struct int_heap {
	int	nr;
	int	size;
	int	*data;
};

struct heap_ops {
	bool (*less)(const void *lhs, const void *rhs, void *args);
};

void int_heap_sift_down(struct int_heap *heap, int pos,
			const struct heap_ops *ops, void *args)
{
	int *data = heap->data;
	int n = heap->nr;

	for (;;) {
		int left = 2 * pos + 1, right = left + 1, smallest = pos;

		if (left >= n)
			break;
		if (ops->less(&data[left], &data[smallest], args))
			smallest = left;
		if (right < n && ops->less(&data[right], &data[smallest], args))
			smallest = right;
		if (smallest == pos)
			break;
		swap(data[pos], data[smallest]);
		pos = smallest;
	}
}
