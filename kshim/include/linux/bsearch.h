/* SPDX-License-Identifier: MIT */
/*
 * kshim: <linux/bsearch.h>, written for diffsched: bsearch() with the
 * kernel's contract (lib/bsearch.c): base holds num elements of size bytes
 * in the order cmp(key, element) agrees with (< 0: the key is before it);
 * the result is an element cmp() calls equal, or NULL when none is. cmp()
 * is called only on elements inside base, one halving step at a time, so
 * a cmp() that reads a neighbour of the element it is given is the
 * caller's business, as in the kernel.
 */
#ifndef KSHIM_LINUX_BSEARCH_H
#define KSHIM_LINUX_BSEARCH_H
#include <kshim/kshim.h>

static inline void *kshim_bsearch(const void *key, const void *base, size_t num, size_t size,
				  int (*cmp)(const void *key, const void *elt))
{
	const char *lo = (const char *)base;

	while (num > 0) {
		const char *mid = lo + (num / 2) * size;
		int c = cmp(key, mid);

		if (c == 0)
			return (void *)mid;
		if (c > 0) {
			lo = mid + size;
			num -= num / 2 + 1;
		} else {
			num /= 2;
		}
	}
	return NULL;
}
#define bsearch(key, base, num, size, cmp) kshim_bsearch((key), (base), (num), (size), (cmp))
#define __inline_bsearch(key, base, num, size, cmp) kshim_bsearch((key), (base), (num), (size), (cmp))
#endif
