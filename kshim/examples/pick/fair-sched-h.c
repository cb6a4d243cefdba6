// SPDX-License-Identifier: MIT
/*
 * Pick, v6.13 form, with the includes of kernel/sched/fair.c of v4.16..v5.x:
 * "sched.h" first, then the scheduler's trace events, as a function cut out
 * of that file keeps them.
 *
 * A diffsched test file in the style of kernel/sched/fair.c's
 * can_migrate_task() destination pick, for `diffsched kernel-check pick`.
 * Not kernel code: written for this project. The function returns the first
 * CPU in all three masks, or nr_cpu_ids when there is none.
 */
// expect: kernel.pick.fair-sched-h.equivalent 0 - "verdict: EQUIVALENT" -- pick --time 2 ${kfast}
#include "sched.h"

#include <trace/events/sched.h>

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	int cpu, new_dst_cpu = nr_cpu_ids;

	/* Prevent to re-select dst_cpu via env's CPUs */
	for_each_cpu_and(cpu, dst_grpmask, cpus) {
		if (cpumask_test_cpu(cpu, allowed)) {
			new_dst_cpu = cpu;
			break;
		}
	}
	return new_dst_cpu;
}
