// SPDX-License-Identifier: MIT
/*
 * A destination pick written against the cpumask API of v6.14 and before,
 * written for diffsched's tests: cpumask_next_wrap(n, mask, start, wrap)
 * takes 4 arguments there (v6.15 made it (n, mask)). It walks dst_grpmask
 * from CPU 0 to the end once and returns the first CPU of all three masks,
 * as can_migrate_task()'s loop does. kernel-check builds it only with
 * --kernel-version 6.14 or older (properties/kshim/CMakeLists.txt).
 */
// expect: kernel.era.next-wrap-v6.14.equivalent 0 - "verdict: EQUIVALENT" -- pick --kernel-version 6.14 --time 1 ${kfast}
// expect: kernel.era.next-wrap-v6.14.refused-at-6.19 2 - "cpumask_next_wrap\(\) takes \(n, mask, start, wrap\) up to v6.14.*the shim follows v6.19 .*--kernel-version" -- pick --time 1 ${kfast}
// expect: kernel.era.next-wrap-v6.14.refused-at-6.15 2 - "the shim follows v6.15 " -- pick --kernel-version 6.15 --time 1 ${kfast}
// expect: inkernel.era.next-wrap-v6.14.same 0 - "verdict: SAME" -- pick --in-kernel --nr-cpus 65 --runs 50
#include <linux/cpumask.h>

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	int cpu;

	for (cpu = cpumask_next_wrap(-1, dst_grpmask, 0, false); cpu < nr_cpu_ids;
	     cpu = cpumask_next_wrap(cpu, dst_grpmask, 0, true))
		if (cpumask_test_cpu(cpu, cpus) && cpumask_test_cpu(cpu, allowed))
			return cpu;
	return nr_cpu_ids;
}
