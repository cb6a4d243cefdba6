// SPDX-License-Identifier: MIT
/*
 * check-patch test tree: a file no diffsched check takes (written for this
 * project, not kernel code): sd_degenerate_span() reads its span through
 * sched_domain_span(), defined elsewhere, which diffsched fn cannot supply.
 */
#include <linux/cpumask.h>

struct sched_domain;
extern struct cpumask *sched_domain_span(struct sched_domain *sd);

static int span_weight(const struct cpumask *span)
{
	return cpumask_weight(span);
}

int sd_degenerate_span(struct sched_domain *sd)
{
	return span_weight(sched_domain_span(sd)) == 1;
}
