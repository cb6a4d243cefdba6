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
