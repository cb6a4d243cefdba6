// SPDX-License-Identifier: MIT
/* diffsched test file: a v4.9-form cpudeadline.c with a syntax error. */
// expect: kernel.errors.syntax-error 2 - "expected ';'.*|does not build" -- cpudl ${kfast}
#include "cpudeadline.h"

int cpudl_find(struct cpudl *cp, struct task_struct *p, struct cpumask *later_mask)
{
	return 0
}
void cpudl_set(struct cpudl *cp, int cpu, u64 dl) { }
void cpudl_clear(struct cpudl *cp, int cpu) { }
void cpudl_set_freecpu(struct cpudl *cp, int cpu) { }
void cpudl_clear_freecpu(struct cpudl *cp, int cpu) { }
int cpudl_init(struct cpudl *cp) { return 0; }
void cpudl_cleanup(struct cpudl *cp) { }
