// SPDX-License-Identifier: MIT
/*
 * diffsched test file: a v4.9-form cpudeadline.c that uses kernel API the
 * shim does not provide (an rbtree), to check the "shim lacks" summary.
 */
// expect: kernel.errors.shim-lacks 2 - "lacks: <linux/rbtree.h>" -- cpudl ${kfast}
#include <linux/rbtree.h>
#include "cpudeadline.h"

static struct rb_root_cached tree;

int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *later_mask)
{
	return rb_first_cached(&tree) != NULL;
}
void cpudl_set(struct cpudl *cp, int cpu, u64 dl) { }
void cpudl_clear(struct cpudl *cp, int cpu) { }
void cpudl_set_freecpu(struct cpudl *cp, int cpu) { }
void cpudl_clear_freecpu(struct cpudl *cp, int cpu) { }
int cpudl_init(struct cpudl *cp) { return 0; }
void cpudl_cleanup(struct cpudl *cp) { }
