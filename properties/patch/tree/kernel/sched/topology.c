// SPDX-License-Identifier: MIT
/*
 * check-patch test tree: a file no diffsched check takes (written for this
 * project, not kernel code).
 */
#include <linux/cpumask.h>

static int span_weight(const struct cpumask *span)
{
	return cpumask_weight(span);
}

int sd_degenerate_span(const struct cpumask *span)
{
	return span_weight(span) == 1;
}
