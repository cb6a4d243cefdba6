/* SPDX-License-Identifier: MIT */
/*
 * kshim: the scheduler's topology levels (include/linux/sched/topology.h)
 * and the mutex that guards them, written for diffsched, as
 * kernel/sched/topology.c uses them. No CONFIG_SCHED_DEBUG: SD_INIT_NAME()
 * is empty and a level has no name. Levels are data the file builds
 * (default_topology[], sched_init_numa()); the shim gives only the types and
 * the package level's mask, cpu_cpu_mask(): the CPUs of the CPU's node, here
 * every possible CPU (kshim/numa.h). A mutex is single-threaded bookkeeping,
 * as raw_spinlock_t is: DEFINE_MUTEX() starts it unheld.
 */
#ifndef KSHIM_SCHED_TOPOLOGY_H
#define KSHIM_SCHED_TOPOLOGY_H

struct mutex { int held; };
#define DEFINE_MUTEX(m) struct mutex m = { 0 }
#define mutex_init(m) ((m)->held = 0)
#define mutex_lock(m) ((m)->held = 1)
#define mutex_unlock(m) ((m)->held = 0)

#define SDTL_OVERLAP 0x01
#define SD_INIT_NAME(type)

typedef const struct cpumask *(*sched_domain_mask_f)(int cpu);
typedef int (*sched_domain_flags_f)(void);

struct sd_data {
	void *sd;
	void *sds;
	void *sg;
	void *sgc;
};

struct sched_domain_topology_level {
	sched_domain_mask_f mask;
	sched_domain_flags_f sd_flags;
	int flags;
	int numa_level;
	struct sd_data data;
};

static inline const struct cpumask *cpu_cpu_mask(int cpu)
{
	return cpumask_of_node(cpu_to_node(cpu));
}

#endif /* KSHIM_SCHED_TOPOLOGY_H */
