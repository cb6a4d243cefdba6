/* SPDX-License-Identifier: MIT */
/*
 * kshim: what kernel/sched/sched.h gives kernel/sched/cpudeadline.c, written
 * for diffsched. The staged file's `#include "sched.h"` (v4.16+) lands here,
 * never in the user's tree; kernel-check also force-includes it, since
 * v5.18..v6.16 cpudeadline.c is built inside build_utility.c and includes
 * nothing itself. Like the kernel's sched.h it includes "cpudeadline.h": the
 * staged one (the user's neighbouring header, else the shim's for the API form).
 * fair.c includes it too, so a pick candidate may: see the end of the file.
 */
#ifndef KSHIM_SCHED_SCHED_H
#define KSHIM_SCHED_SCHED_H

#include <kshim/kshim.h>
/* struct rq, the domains, sched_feat(), schedstats, ... (fair.c, v6.1). */
#include <kshim/sched_fair.h>

/* v5.9 .. v6.5 name of the CPU's original capacity. */
#ifndef KSHIM_OWN_capacity_orig_of
static inline unsigned long capacity_orig_of(int cpu) { return arch_scale_cpu_capacity(cpu); }
#endif

/* v6.2+ wrapper of the static key (older files test the key directly). */
#ifndef KSHIM_OWN_sched_asym_cpucap_active
static inline bool sched_asym_cpucap_active(void)
{
	return static_branch_unlikely(&sched_asym_cpucapacity);
}
#endif

/* A -dl task fits a CPU if its runtime, scaled to the CPU's capacity, fits
 * in its relative deadline (v5.9+). */
#ifndef KSHIM_OWN_dl_task_fits_capacity
static inline bool dl_task_fits_capacity(struct task_struct *p, int cpu)
{
	unsigned long cap = arch_scale_cpu_capacity(cpu);

	return cap_scale(p->dl.dl_deadline, cap) >= p->dl.dl_runtime;
}
#endif

/* The NUMA topology's type (kernel/sched/topology.c sets it at boot). */
enum numa_topology_type {
	NUMA_DIRECT,
	NUMA_GLUELESS_MESH,
	NUMA_BACKPLANE,
};

/* The staged cpudeadline.h, for cpudl candidates. A pick candidate (a
 * function cut from kernel/sched/fair.c, which includes "sched.h" too) has
 * none staged and needs none. */
#if __has_include("cpudeadline.h")
#include "cpudeadline.h"
#endif

#endif /* KSHIM_SCHED_SCHED_H */
