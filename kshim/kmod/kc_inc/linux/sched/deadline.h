/* SPDX-License-Identifier: MIT */
/* kernel-check --in-kernel: some kernels' <linux/sched/deadline.h> (6.1)
 * has no include guard, and both "sched.h" and cpudeadline.h include it;
 * this guard, first on the include path, makes that harmless. */
#ifndef KC_LINUX_SCHED_DEADLINE_H
#define KC_LINUX_SCHED_DEADLINE_H
#include_next <linux/sched/deadline.h>
#endif
