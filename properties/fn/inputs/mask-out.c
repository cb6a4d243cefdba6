// SPDX-License-Identifier: MIT
/*
 * diffsched fn test input: output masks the call may leave as drawn. The
 * harness records a mask left as drawn as "=" instead of its words
 * (harness_gen.cpp), so these check that "=" means exactly what the words
 * would: mask_keep() and mask_rewrite() leave *m as drawn (one writes every
 * word back) and are equivalent; mask_drop_last() clears CPU nr_cpu_ids - 1
 * and differs from both when that CPU was set. Written for this project; not
 * kernel code.
 */
#include <linux/cpumask.h>

int mask_keep(struct cpumask *m, const struct cpumask *other)
{
	return cpumask_weight(m) + cpumask_weight(other);
}

int mask_rewrite(struct cpumask *m, const struct cpumask *other)
{
	cpumask_and(m, m, m);
	return cpumask_weight(m) + cpumask_weight(other);
}

int mask_drop_last(struct cpumask *m, const struct cpumask *other)
{
	int w = cpumask_weight(m) + cpumask_weight(other);

	cpumask_clear_cpu(nr_cpu_ids - 1, m);
	return w;
}
