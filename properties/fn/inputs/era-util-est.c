// SPDX-License-Identifier: MIT
// Written for diffsched (properties/fn/fn-era.cmake): a task's estimated
// utilisation in the two shapes the kernel has had, a struct of the enqueued
// value and its average up to v6.7, one unsigned int from v6.8 (its flag
// bit UTIL_AVG_UNCHANGED in both). No kernel tree around it: fn builds at
// the newest era of the shim each function builds against.
#include "sched.h"

/* v6.7 and before. */
unsigned long task_util_est_struct(struct task_struct *p)
{
	return READ_ONCE(p->se.avg.util_est.enqueued) & ~UTIL_AVG_UNCHANGED;
}

/* v6.8 and after. */
unsigned long task_util_est_scalar(struct task_struct *p)
{
	return READ_ONCE(p->se.avg.util_est) & ~UTIL_AVG_UNCHANGED;
}

/* In no era: the shim has no such field. */
unsigned long task_util_est_nowhere(struct task_struct *p)
{
	return READ_ONCE(p->se.avg.util_est.weighted);
}
