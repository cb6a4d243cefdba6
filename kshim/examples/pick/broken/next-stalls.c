// SPDX-License-Identifier: MIT
/*
 * BROKEN pick: steps with cpumask_next_and(cpu - 1, ...), which finds the same
 * CPU again, so the loop never ends once a candidate CPU is not allowed.
 *
 * A diffsched test file in the style of kernel/sched/fair.c's
 * can_migrate_task() destination pick, for `diffsched kernel-check pick`.
 * Not kernel code: written for this project. The function returns the first
 * CPU in all three masks, or nr_cpu_ids when there is none.
 *
 * Expected: a hang, reported as a finding (the harness's per-program alarm in
 * the property run, libFuzzer's -timeout in fuzzing) within bounded time.
 */
// expect: kernel.pick.broken.next-stalls.hang 1 replay "verdict: FINDING \(a hang" -- pick --hang-seconds 2 --time 10 ${kfast}
// expect: kernel.pick.broken.next-stalls.hang-by-fuzzing 1 replay "verdict: FINDING \(a hang" -- pick --no-properties --hang-seconds 2 --time 30 ${kfast}
#include <linux/cpumask.h>

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	unsigned int cpu;

	for (cpu = cpumask_first_and(dst_grpmask, cpus); cpu < nr_cpu_ids;
	     cpu = cpumask_next_and((int)cpu - 1, dst_grpmask, cpus)) {
		if (cpumask_test_cpu(cpu, allowed))
			return cpu;
	}
	return nr_cpu_ids;
}
