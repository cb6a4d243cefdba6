// SPDX-License-Identifier: MIT
/*
 * diffsched test file: a v4.9-form cpudeadline.c whose own static helper is
 * declared and called but never defined: a link error in the file's own
 * code, which kernel-check must not blame on the shim.
 */
// expect: kernel.errors.link-own-undefined 2 - "declares cpudl_pick_slot\(\) static but never defines it" -- cpudl ${kfast}
#include "cpudeadline.h"

static int cpudl_pick_slot(struct cpudl *cp);

int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *later_mask)
{
	return cpudl_pick_slot(cp) >= 0;
}
void cpudl_set(struct cpudl *cp, int cpu, u64 dl) { }
void cpudl_clear(struct cpudl *cp, int cpu) { }
void cpudl_set_freecpu(struct cpudl *cp, int cpu) { }
void cpudl_clear_freecpu(struct cpudl *cp, int cpu) { }
int cpudl_init(struct cpudl *cp) { return 0; }
void cpudl_cleanup(struct cpudl *cp) { }
