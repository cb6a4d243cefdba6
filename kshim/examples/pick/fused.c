// SPDX-License-Identifier: MIT
/*
 * Pick, v6.15 form: cpumask_first_and_and().
 *
 * A diffsched test file in the style of kernel/sched/fair.c's
 * can_migrate_task() destination pick, for `diffsched kernel-check pick`.
 * Not kernel code: written for this project. The function returns the first
 * CPU in all three masks, or nr_cpu_ids when there is none.
 */
// expect: kernel.pick.fused.equivalent 0 - "verdict: EQUIVALENT" -- pick --time 2 ${kfast}
// expect: kernel.pick.fused-vs-reference-file 0 - "verdict: EQUIVALENT" -- pick --baseline ${kexamples}/pick/reference.c --time 2 ${kfast}
// expect: inkernel.pick.fused.same 0 - "verdict: SAME" -- pick --in-kernel --replay ${ikseeds}/pick/small.ops
#include <linux/cpumask.h>

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	return cpumask_first_and_and(dst_grpmask, cpus, allowed);
}
