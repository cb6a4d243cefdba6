/* SPDX-License-Identifier: MIT */
/*
 * kshim: the cpudl interface of v3.14 .. v3.18 (the one cpudl_set() with
 * is_valid; struct cpudl holds fixed arrays, the heap items without an index
 * and a separate cpu_to_idx[] map; no free-CPU helpers; cpudl_find() returns
 * a CPU or -1), written for diffsched from the documented interface. Staged
 * as cpudeadline.h when the candidate's own header is not given.
 */
#ifndef _LINUX_CPUDL_H
#define _LINUX_CPUDL_H

#include <linux/sched.h>

#define IDX_INVALID     -1

struct array_item {
	u64 dl;
	int cpu;
};

struct cpudl {
	raw_spinlock_t lock;
	int size;
	int cpu_to_idx[NR_CPUS];
	struct array_item elements[NR_CPUS];
	cpumask_var_t free_cpus;
};

int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *later_mask);
void cpudl_set(struct cpudl *cp, int cpu, u64 dl, int is_valid);
int cpudl_init(struct cpudl *cp);
void cpudl_cleanup(struct cpudl *cp);

#endif /* _LINUX_CPUDL_H */
