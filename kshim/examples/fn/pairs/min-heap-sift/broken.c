// fn-expect: int_heap_sift_down finding
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "min-heap-sift", a broken new side: the
 * bottom-up sift-down without the case of a last node that has a left child
 * only. With an even heap->nr the walk can stop above that child and leave
 * it smaller than its new parent: not a heap any more.
 * Written for this project; not kernel code. Domain: 0 <= pos < heap->nr.
 */
#include <linux/kernel.h>

#define parent(i)	(((i) - 1) / 2)

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
	int i, j;

	/* The path of smaller children, down to a node without two children. */
	for (i = pos; 2 * i + 2 < n; ) {
		i = 2 * i + 1;
		if (ops->less(&data[i + 1], &data[i], args))
			i++;
	}
	/* Back up while the sifted element is smaller than the path's. */
	while (i != pos && ops->less(&data[pos], &data[i], args))
		i = parent(i);
	/* Each element of the path moves up a level; the sifted one lands at i. */
	for (j = i; i != pos; ) {
		i = parent(i);
		swap(data[i], data[j]);
	}
}
