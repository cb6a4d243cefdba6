/* SPDX-License-Identifier: MIT */
/*
 * kshim: the cpudl interface of v4.9 .. v6.18 (cpudl_set()/cpudl_clear()
 * split, free-CPU helpers, cpudl_find() returns 0/1), written for diffsched
 * from the documented interface. Staged as cpudeadline.h when the
 * candidate's own header is not given.
 */
#ifndef _LINUX_CPUDL_H
#define _LINUX_CPUDL_H

#include <linux/sched.h>
#include <linux/sched/deadline.h>

#define IDX_INVALID     -1

struct cpudl_item {
	u64 dl;
	int cpu;
	int idx;
};

struct cpudl {
	raw_spinlock_t lock;
	int size;
	cpumask_var_t free_cpus;
	struct cpudl_item *elements;
};

int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *later_mask);
void cpudl_set(struct cpudl *cp, int cpu, u64 dl);
void cpudl_clear(struct cpudl *cp, int cpu);
int cpudl_init(struct cpudl *cp);
void cpudl_set_freecpu(struct cpudl *cp, int cpu);
void cpudl_clear_freecpu(struct cpudl *cp, int cpu);
void cpudl_cleanup(struct cpudl *cp);

#endif /* _LINUX_CPUDL_H */
