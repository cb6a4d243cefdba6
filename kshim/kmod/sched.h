/* SPDX-License-Identifier: MIT */
/*
 * kernel-check --in-kernel: what kernel/sched/sched.h gives cpudeadline.c,
 * for a module (which cannot see kernel/sched/), written for diffsched. The
 * rest is the real kernel's headers. Staged as "sched.h" beside the
 * candidate and force-included, as the shim's kshim/sched/sched.h is.
 */
#ifndef KC_KMOD_SCHED_H
#define KC_KMOD_SCHED_H

#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/sched/deadline.h>  /* guarded: kc_inc/linux/sched/deadline.h */
#include <linux/sched/topology.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/gfp.h>
#include <linux/jump_label.h>
#include <linux/spinlock.h>

/* Older files name the task's affinity as their kernel did (v4.9:
 * tsk_cpus_allowed(p), v4.10..v5.2: p->cpus_allowed); this kernel keeps it
 * in p->cpus_mask (p->cpus_ptr points to it). */
#ifndef tsk_cpus_allowed
#define tsk_cpus_allowed(p) (&(p)->cpus_mask)
#endif
#define cpus_allowed cpus_mask

/* kernel/sched/topology.c's key is not exported: a module-local one, off
 * (no asymmetric capacity), as the shim's default. */
#define sched_asym_cpucapacity kc_sched_asym_cpucapacity
DECLARE_STATIC_KEY_FALSE(kc_sched_asym_cpucapacity);

/* ABI 3: the CPU hotplug state of a program. The candidate and the glue see
 * the module's own online and active masks (every CPU below nr_cpu_ids up
 * when a program starts, changed by its cpu_down/cpu_up ops), never the
 * running kernel's: taking a real CPU of the guest down is not the point. */
extern struct cpumask kc_cpu_online_mask, kc_cpu_active_mask;
#undef cpu_online_mask
#define cpu_online_mask ((const struct cpumask *)&kc_cpu_online_mask)
#undef cpu_active_mask
#define cpu_active_mask ((const struct cpumask *)&kc_cpu_active_mask)
#define cpu_online(cpu) cpumask_test_cpu((cpu), cpu_online_mask)
#define cpu_active(cpu) cpumask_test_cpu((cpu), cpu_active_mask)
static inline void kc_assign_cpu(struct cpumask *m, unsigned int cpu, bool on)
{
	if (on)
		cpumask_set_cpu(cpu, m);
	else
		cpumask_clear_cpu(cpu, m);
}
#define set_cpu_online(cpu, on) kc_assign_cpu(&kc_cpu_online_mask, (cpu), (on))
#define set_cpu_active(cpu, on) kc_assign_cpu(&kc_cpu_active_mask, (cpu), (on))

/* CPU capacities (find_cap): the module's own, set per find by the driver
 * (kc_module.c: kshim_set_capacity). arch_scale_cpu_capacity(cpu) (v5.4+)
 * and arch_scale_cpu_capacity(sd, cpu) (v4.10 .. v5.3): the last argument
 * is the CPU. */
extern unsigned long kc_cpu_capacity[NR_CPUS];
#define KC_LAST_OF_1_OR_2(a, ...) KC_LAST_ARG(a, ##__VA_ARGS__, a)
#define KC_LAST_ARG(a, b, ...) b
#define arch_scale_cpu_capacity(...) (kc_cpu_capacity[KC_LAST_OF_1_OR_2(__VA_ARGS__)])

#ifndef cap_scale
#define cap_scale(v, s) ((v) * (s) >> SCHED_CAPACITY_SHIFT)
#endif

#ifndef KSHIM_OWN_capacity_orig_of
#define capacity_orig_of kc_capacity_orig_of
static inline unsigned long capacity_orig_of(int cpu) { return arch_scale_cpu_capacity(cpu); }
#endif

#ifndef KSHIM_OWN_sched_asym_cpucap_active
#define sched_asym_cpucap_active kc_sched_asym_cpucap_active
static inline bool sched_asym_cpucap_active(void)
{
	return static_branch_unlikely(&sched_asym_cpucapacity);
}
#endif

#ifndef KSHIM_OWN_dl_task_fits_capacity
#define dl_task_fits_capacity kc_dl_task_fits_capacity
static inline bool dl_task_fits_capacity(struct task_struct *p, int cpu)
{
	unsigned long cap = arch_scale_cpu_capacity(cpu);

	return cap_scale(p->dl.dl_deadline, cap) >= p->dl.dl_runtime;
}
#endif

/* The typed allocators of the newest kernels, kzalloc_objs(VAR, COUNT[, GFP]),
 * for kernels without them (6.1): kcalloc() of COUNT objects like VAR. */
#ifndef kzalloc_objs
#define kc_objs_gfp(VAR, COUNT, GFP, ...) (GFP)
#define kzalloc_objs(VAR, COUNT, ...) \
	((__typeof__(VAR) *)kcalloc((COUNT), sizeof(VAR), kc_objs_gfp(VAR, COUNT, ##__VA_ARGS__, GFP_KERNEL)))
#define kmalloc_objs(VAR, COUNT, ...) \
	((__typeof__(VAR) *)kmalloc_array((COUNT), sizeof(VAR), kc_objs_gfp(VAR, COUNT, ##__VA_ARGS__, GFP_KERNEL)))
#define kcalloc_objs kzalloc_objs
#endif

/* The glue sets the task's CPU where the kernel keeps it. */
#ifdef CONFIG_THREAD_INFO_IN_TASK
#define KCHECK_SET_TASK_CPU(t, c) (task_thread_info(&(t))->cpu = (c))
#endif

/* The glue's WARN for a find result it cannot interpret (kc_module.c). */
void kshim_warn(const char *file, int line, const char *cond);

#if __has_include("cpudeadline.h")
#include "cpudeadline.h"
#endif

#endif
