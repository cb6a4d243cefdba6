// SPDX-License-Identifier: MIT
/*
 * diffsched fn test input: function pointers bound (`param PATH fn NAME`) to
 * functions whose types C accepts without a cast, though clang spells them
 * differently: a volatile pointer field, an enum parameter against the
 * unsigned int clang gives that enum, and a pointer without a prototype
 * (`int (*)()`, any parameters). The two checks count the CPUs of `map`
 * in the node span, weighted, one with a loop and one with cpumask_and().
 * Written for this project; not kernel code.
 */
#include <linux/cpumask.h>

enum span_kind { SPAN_NODE, SPAN_CORE };

static struct cpumask spans[2];

/* Takes the enum's integer type: compatible with `enum span_kind`. */
static const struct cpumask *kind_span(unsigned int kind)
{
	return &spans[kind & 1];
}

static int cpu_weight(int cpu)
{
	return (cpu & 3) + 1;
}

struct span_ops {
	const struct cpumask *(*volatile span)(enum span_kind kind);
	int (*weight)();
};

int span_weight_loop(struct span_ops *ops, const struct cpumask *map)
{
	int i, total = 0;

	for_each_cpu(i, map) {
		if (cpumask_test_cpu(i, ops->span(SPAN_NODE)))
			total += ops->weight(i);
	}
	return total;
}

int span_weight_and(struct span_ops *ops, const struct cpumask *map)
{
	struct cpumask both;
	int i, total = 0;

	cpumask_and(&both, map, ops->span(SPAN_NODE));
	for_each_cpu(i, &both)
		total += ops->weight(i);
	return total;
}
