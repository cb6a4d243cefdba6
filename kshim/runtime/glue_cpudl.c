/* SPDX-License-Identifier: MIT */
/*
 * The table of a cpudeadline.c candidate (kcheck_abi.h), compiled beside it
 * with -DKCHECK_API=48|49|619 and the staged cpudeadline.h. It owns the one
 * struct cpudl and adapts the candidate's API form to the v4.9..v6.18
 * meaning of each entry point:
 *
 *   op               v4.8 (is_valid)           v4.9..v6.18             v6.19+ (online)
 *   set c dl         cpudl_set(c, dl, 1)       cpudl_set(c, dl)        cpudl_set(c, dl)
 *   clear c          cpudl_set(c, 0, 0)        cpudl_clear(c)          c in heap: cpudl_clear(c, true)
 *   clear_online c o clear c; o ? set_freecpu  clear c; o ? set_freecpu cpudl_clear(c, o)
 *                     : clear_freecpu           : clear_freecpu
 *   set_freecpu c    cpudl_set_freecpu(c)      cpudl_set_freecpu(c)    c not in heap: cpudl_clear(c, true)
 *   clear_freecpu c  cpudl_clear_freecpu(c)    cpudl_clear_freecpu(c)  c not in heap: cpudl_clear(c, false)
 *   find             CPU or -1 -> 1 or 0       0/1                     0/1
 *
 * (set_freecpu is only run for a CPU not in the heap: the harness skips it
 * otherwise, as the kernel's callers never do it.)
 */
#include "sched.h"

#include <kcheck_abi.h>

#ifndef KCHECK_API
#error "compile with -DKCHECK_API=48|49|619"
#endif
#ifndef KCHECK_HAS_FREECPU
#define KCHECK_HAS_FREECPU (KCHECK_API != KCHECK_API_V6_19)
#endif
#ifndef KCHECK_SOURCE
#define KCHECK_SOURCE "candidate"
#endif

void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
void kshim_reset_runtime(unsigned nr);
int kshim_take_warning(struct kcheck_warning *out);
void kshim_set_capacity(int asym, const unsigned long *caps, unsigned n);
void kshim_fail_alloc(long n);
int kshim_alloc_failed(void);

static struct cpudl cp;
static bool initialised;
static struct task_struct task;
static struct kcheck_item items[NR_CPUS]; /* when struct cpudl_item differs */

static int glue_init(void)
{
	int ret;

	if (initialised)
		cpudl_cleanup(&cp);
	initialised = false;
	ret = cpudl_init(&cp);
	initialised = ret == 0;
	/* A failed init leaves nothing for the caller to free (init_rootdomain()
	 * just fails), so forget the struct: what it still points to is leaked. */
	if (!initialised)
		memset(&cp, 0, sizeof(cp));
	return ret;
}

#if KCHECK_API == KCHECK_API_V4_8
static void glue_set(int cpu, unsigned long long dl) { cpudl_set(&cp, cpu, dl, 1); }
static void glue_clear(int cpu) { cpudl_set(&cp, cpu, 0, 0); }
#else
static void glue_set(int cpu, unsigned long long dl) { cpudl_set(&cp, cpu, dl); }
#if KCHECK_API == KCHECK_API_V6_19
static void glue_clear(int cpu)
{
	if (cp.elements[cpu].idx != IDX_INVALID)
		cpudl_clear(&cp, cpu, true);
}
#else
static void glue_clear(int cpu) { cpudl_clear(&cp, cpu); }
#endif
#endif

#if KCHECK_API == KCHECK_API_V6_19
static void glue_clear_online(int cpu, int online) { cpudl_clear(&cp, cpu, online); }
static void glue_set_freecpu(int cpu) { cpudl_clear(&cp, cpu, true); }
static void glue_clear_freecpu(int cpu)
{
	if (cp.elements[cpu].idx == IDX_INVALID)
		cpudl_clear(&cp, cpu, false);
}
#elif KCHECK_HAS_FREECPU
static void glue_set_freecpu(int cpu) { cpudl_set_freecpu(&cp, cpu); }
static void glue_clear_freecpu(int cpu) { cpudl_clear_freecpu(&cp, cpu); }
static void glue_clear_online(int cpu, int online)
{
	glue_clear(cpu);
	if (online)
		cpudl_set_freecpu(&cp, cpu);
	else
		cpudl_clear_freecpu(&cp, cpu);
}
#else
#define glue_set_freecpu NULL
#define glue_clear_freecpu NULL
#define glue_clear_online NULL
#endif

static int glue_find(unsigned long long dl, const unsigned long *affinity, unsigned long *later_mask,
		     unsigned task_cpu, unsigned long long dl_runtime, unsigned long long dl_deadline)
{
	int ret;

	task.dl.deadline = dl;
	task.dl.dl_runtime = dl_runtime;
	task.dl.dl_deadline = dl_deadline;
	task.dl.dl_period = dl_deadline;
	task.cpu = task_cpu;
	memcpy(task.cpus_mask.bits, affinity, sizeof(task.cpus_mask.bits));
	task.cpus_ptr = &task.cpus_mask;
	task.nr_cpus_allowed = (int)cpumask_weight(&task.cpus_mask);
	ret = cpudl_find(&cp, &task, (struct cpumask *)later_mask);
#if KCHECK_API == KCHECK_API_V4_8
	return ret == -1 ? 0 : ret >= 0 ? 1 : ret;
#else
	return ret;
#endif
}

static struct kcheck_view glue_view(void)
{
	struct kcheck_view v;
	unsigned i;

	v.size = cp.size;
	v.free_bits = cp.free_cpus->bits;
	if (sizeof(struct cpudl_item) == sizeof(struct kcheck_item) &&
	    __builtin_offsetof(struct cpudl_item, dl) == __builtin_offsetof(struct kcheck_item, dl) &&
	    __builtin_offsetof(struct cpudl_item, cpu) == __builtin_offsetof(struct kcheck_item, cpu) &&
	    __builtin_offsetof(struct cpudl_item, idx) == __builtin_offsetof(struct kcheck_item, idx)) {
		v.elements = (const struct kcheck_item *)cp.elements;
		return v;
	}
	for (i = 0; i < nr_cpu_ids; i++) {
		items[i].dl = cp.elements[i].dl;
		items[i].cpu = cp.elements[i].cpu;
		items[i].idx = cp.elements[i].idx;
	}
	v.elements = items;
	return v;
}

const struct kcheck_candidate kcheck_candidate = {
	.abi_version = KCHECK_ABI_VERSION,
	.api = KCHECK_API,
	.source = KCHECK_SOURCE,
	.function = "cpudl_*",
	.reset_runtime = kshim_reset_runtime,
	.take_warning = kshim_take_warning,
	.set_capacity = kshim_set_capacity,
	.fail_alloc = kshim_fail_alloc,
	.alloc_failed = kshim_alloc_failed,
	.init = glue_init,
	.set = glue_set,
	.clear = glue_clear,
	.clear_online = glue_clear_online,
	.set_freecpu = glue_set_freecpu,
	.clear_freecpu = glue_clear_freecpu,
	.find = glue_find,
	.view = glue_view,
	.pick = NULL,
};
