// SPDX-License-Identifier: MIT
/*
 * diffsched test file: a v4.9-form cpudeadline.c that declares and calls a
 * kernel function the shim does not define (as a file cut from the kernel may
 * declare what another kernel file defines): it compiles, and fails to link.
 * kernel-check must say the shim lacks it, not blame the file.
 */
// expect: kernel.errors.link-shim-lacks 2 - "does not link against the kernel shim: the kernel shim \(kshim/\) lacks: cpu_util_cfs_boost\(\)" -- cpudl ${kfast}
#include "cpudeadline.h"

unsigned long cpu_util_cfs_boost(int cpu);

int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *later_mask)
{
	return cpu_util_cfs_boost(0) != 0;
}
void cpudl_set(struct cpudl *cp, int cpu, u64 dl) { }
void cpudl_clear(struct cpudl *cp, int cpu) { }
void cpudl_set_freecpu(struct cpudl *cp, int cpu) { }
void cpudl_clear_freecpu(struct cpudl *cp, int cpu) { }
int cpudl_init(struct cpudl *cp) { return 0; }
void cpudl_cleanup(struct cpudl *cp) { }
