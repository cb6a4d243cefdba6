// SPDX-License-Identifier: MIT
/*
 * kernel-check error example: a cpudeadline.c-like file in which three entry
 * points have signatures no supported form has: a proxy-execution
 * cpudl_find(cp, sched_ctx, exec_ctx, later_mask), an out-of-tree
 * cpudl_init(cp, cmp_dl) taking the deadline order, and a
 * cpudl_set_freecpu(cp, cpu, online). kernel-check must name all three in
 * one refusal (issue 22), not only the first. Written for diffsched; not
 * kernel code.
 */
// expect: kernel.errors.unsupported-signature.all-at-once 2 - "`cpudl_find` has an unsupported signature: .*\(4 parameters\).*; `cpudl_init` has an unsupported signature: .*\(2 parameters\).*; `cpudl_set_freecpu` has an unsupported signature: cpudl_set_freecpu\(struct cpudl \*cp, int cpu, bool online\) \(3 parameters\)" -- cpudl ${kfast}
#include "sched.h"

int cpudl_find(struct cpudl *cp, struct task_struct *sched_ctx,
	       struct task_struct *exec_ctx, struct cpumask *later_mask)
{
	return 0;
}

void cpudl_set(struct cpudl *cp, int cpu, u64 dl)
{
}

void cpudl_clear(struct cpudl *cp, int cpu)
{
}

void cpudl_set_freecpu(struct cpudl *cp, int cpu, bool online)
{
}

void cpudl_clear_freecpu(struct cpudl *cp, int cpu)
{
}

int cpudl_init(struct cpudl *cp, bool (*cmp_dl)(u64 a, u64 b))
{
	return 0;
}

void cpudl_cleanup(struct cpudl *cp)
{
}
