// SPDX-License-Identifier: MIT
/*
 * kernel-check --in-kernel: the shim runtime's entry points that the glue of
 * the candidate's API form (kshim/runtime/glue_*.c) calls, for the real
 * kernel (written for diffsched). Linked by both module front ends,
 * kc_module.c and kc_ktap.c (kc_runtime.h).
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/jump_label.h>
#include <linux/sched.h>

#include <kcheck_abi.h>
#include "kc_runtime.h"

/* sched.h's stand-in for kernel/sched/topology.c's sched_asym_cpucapacity:
 * off (no asymmetric capacity), as the shim's default. */
DEFINE_STATIC_KEY_FALSE(kc_sched_asym_cpucapacity);

/* The shim runtime's entry points the glue calls, for the real kernel:
 * nr_cpu_ids is the booted one (the driver checks the program's against
 * it), warnings are real WARN()s on the console, nothing fails on purpose. */
struct cpumask kc_cpu_online_mask, kc_cpu_active_mask;  /* sched.h: the program's */
unsigned long kc_cpu_capacity[NR_CPUS];

void kshim_reset_runtime(unsigned nr)
{
	unsigned int cpu;

	cpumask_clear(&kc_cpu_online_mask);
	for (cpu = 0; cpu < nr && cpu < nr_cpu_ids; cpu++)
		cpumask_set_cpu(cpu, &kc_cpu_online_mask);
	cpumask_copy(&kc_cpu_active_mask, &kc_cpu_online_mask);
}
int kshim_take_warning(struct kcheck_warning *out) { return 0; }
void kshim_set_capacity(int asym, const unsigned long *caps, unsigned n)
{
	unsigned int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		kc_cpu_capacity[cpu] = n ? caps[cpu % n] : SCHED_CAPACITY_SCALE;
	if (asym)
		static_branch_enable(&kc_sched_asym_cpucapacity);
	else
		static_branch_disable(&kc_sched_asym_cpucapacity);
}
void kshim_fail_alloc(long n) { }
int kshim_alloc_failed(void) { return 0; }
void kshim_free_live(void) { }
void kshim_warn(const char *file, int line, const char *cond)
{
	WARN(1, "%s:%d: %s\n", file, line, cond);
}

unsigned int kc_mark_present(void)
{
	unsigned int cpu, marked = 0;

	for_each_possible_cpu(cpu)
		if (!cpu_present(cpu)) {
			set_cpu_present(cpu, true);
			marked++;
		}
	return marked;
}
