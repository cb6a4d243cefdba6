// SPDX-License-Identifier: MIT
/*
 * diffsched fn, extraction example: a function that calls kernel API the
 * shim lacks (a function the file declares, whose results a harness must
 * draw from the input: a stub) next to API the shim has.
 * Written for this project in the style of kernel/sched/fair.c; not kernel code.
 */
#include <linux/cpumask.h>

/* The energy model's performance domain (include/linux/energy_model.h):
 * declared only, here and to the shim. */
struct em_perf_domain;

/* Defined elsewhere in the kernel; the shim has neither. */
extern unsigned long group_capacity_hint(struct em_perf_domain *pd, int cpu);
extern int sched_balance_pass;

unsigned long capacity_sum(struct em_perf_domain *pd, const struct cpumask *cpus)
{
	unsigned long sum = 0;
	int cpu;

	for_each_cpu(cpu, cpus)
		sum += min(arch_scale_cpu_capacity(cpu), group_capacity_hint(pd, cpu));
	return sum >> sched_balance_pass;
}
