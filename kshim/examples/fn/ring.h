/* SPDX-License-Identifier: MIT */
/*
 * diffsched fn, extraction example: header-style static inline functions
 * over a struct passed by pointer, in the style of include/linux/min_heap.h.
 * Written for this project; not kernel code.
 */
#ifndef FN_EXAMPLE_RING_H
#define FN_EXAMPLE_RING_H

#include <linux/types.h>

struct ring_slot {
	u64 key;
	int owner;
};

struct ring {
	u32 head, tail;
	u32 mask;
	struct ring_slot *slots;
};

static inline u32 ring_count(const struct ring *r)
{
	return (r->head - r->tail) & r->mask;
}

static inline bool ring_full(const struct ring *r)
{
	return ring_count(r) == r->mask;
}

static inline void ring_push(struct ring *r, u64 key, int owner)
{
	struct ring_slot *s = &r->slots[r->head & r->mask];

	s->key = key;
	s->owner = owner;
	r->head++;
}

#endif /* FN_EXAMPLE_RING_H */
