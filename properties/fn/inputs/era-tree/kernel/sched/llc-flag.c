// SPDX-License-Identifier: MIT
// Written for diffsched (properties/fn/fn-era.cmake): a domain flag's value
// depends on the era, as the kernel's list of <linux/sched/sd_flags.h> does
// (SD_ASYM_CPUCAPACITY_FULL came in v5.14 before SD_SHARE_PKG_RESOURCES, so
// the LLC flag is bit 7 in v5.10 and bit 8 in v6.1). This tree's Makefile
// says 5.10. The "new" side spells the v6.1 value out.
#include "sched.h"

int llc_flag(struct sched_domain *sd)
{
	return !!(sd->flags & SD_SHARE_PKG_RESOURCES);
}

int llc_flag_v61(struct sched_domain *sd)
{
	return !!(sd->flags & 0x0100);
}

/* Before v5.14 the run queue's lock is rq->lock; SIS_PROP is on before v6.0. */
int lock_held_prop(struct rq *rq)
{
	lockdep_assert_held(&rq->lock);
	return sched_feat(SIS_PROP) ? rq->nr_running : 0;
}
