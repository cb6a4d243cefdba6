/* SPDX-License-Identifier: MIT */
/*
 * kernel-check --in-kernel: force-included before a pick candidate, written
 * for diffsched. Kernels before v6.6 lack cpumask_first_and_and() (the host
 * passes -DKC_NEED_FIRST_AND_AND when the headers do not declare it): this
 * stand-in is built from the kernel's own cpumask_first_and() and
 * cpumask_next_and(), so every bit search is still the kernel's.
 */
#ifndef KC_KMOD_PICK_H
#define KC_KMOD_PICK_H
#include <linux/kernel.h>
#include <linux/cpumask.h>
#include <linux/sched.h>

#ifdef KC_NEED_FIRST_AND_AND
static inline unsigned int kc_cpumask_first_and_and(const struct cpumask *a, const struct cpumask *b,
						     const struct cpumask *c)
{
	unsigned int cpu = cpumask_first_and(a, b);

	while (cpu < nr_cpu_ids && !cpumask_test_cpu(cpu, c))
		cpu = cpumask_next_and(cpu, a, b);
	return cpu;
}
#define cpumask_first_and_and kc_cpumask_first_and_and
#endif
#endif
