/* SPDX-License-Identifier: MIT */
/*
 * The table of a cpudeadline.c candidate (kcheck_abi.h), compiled beside it
 * with -DKCHECK_API=48|49|619 and the staged cpudeadline.h. It owns the one
 * struct cpudl and adapts the candidate's API form to the v4.9..v6.18
 * meaning of each entry point:
 *
 * v3.14 .. v3.18 (-DKCHECK_API=314) is the v4.8 column with the era's layout
 * (struct cpudl's cpu_to_idx[] map, items without an index, read as such by
 * the view) and without free-CPU helpers: that era's cpudl_init() marks every
 * CPU free and only cpudl_set() changes the mask, so the glue starts from the
 * tool's state (no CPU free) and gives set_freecpu/clear_freecpu (what
 * rq_online_dl()/rq_offline_dl() did from v3.19 on) as plain mask updates.
 *
 *   op               v4.8 (is_valid)           v4.9..v6.18             v6.19+ (online)
 *   set c dl         cpudl_set(c, dl, 1)       cpudl_set(c, dl)        cpudl_set(c, dl)
 *   clear c          cpudl_set(c, 0, 0)        cpudl_clear(c)          c in heap: cpudl_clear(c, true)
 *   clear_online c o clear c; o ? set_freecpu  clear c; o ? set_freecpu cpudl_clear(c, o)
 *                     : clear_freecpu           : clear_freecpu
 *   set_freecpu c    cpudl_set_freecpu(c)      cpudl_set_freecpu(c)    c not in heap: cpudl_clear(c, true)
 *   clear_freecpu c  cpudl_clear_freecpu(c)    cpudl_clear_freecpu(c)  c not in heap: cpudl_clear(c, false)
 *   find             0/1, or (best_cpu files, v3.14..v4.14 and backports,
 *                    -DKCHECK_FIND_RETURNS_CPU=1) a CPU or -1 -> 1 or 0, by meaning:
 *                    -1 is "none" (0); a CPU is 1 only if the API permits it
 *                    (with later_mask: a CPU later_mask holds; without: an
 *                    allowed CPU of the heap's maximum deadline), any other
 *                    value is a WARN_ON finding of the op. later_mask is
 *                    compared as it is, in both conventions.
 *
 *   cpu_down c       set_cpu_active(c, false); rq_offline_dl(); set_cpu_online(c, false)
 *                    rq_offline_dl() is clear_online c 0 above: cpudl_clear +
 *                    cpudl_clear_freecpu (v3.19 .. v6.18), cpudl_clear(c, false) (v6.19+)
 *   cpu_up c         set_cpu_online(c, true); set_cpu_active(c, true); rq_online_dl()
 *                    of a runqueue without -dl tasks: set_freecpu c above
 *                    (cpudl_set_freecpu; v6.19+: cpudl_clear(c, true))
 *
 * The hotplug order is the one of v6.19 (and of every kernel since v3.14 as
 * cpudl sees it): sched_cpu_deactivate() clears the active bit before
 * set_rq_offline(), the online bit goes last (takedown_cpu()); coming up,
 * the CPU is marked online when it starts and active in sched_cpu_activate(),
 * which then calls set_rq_online(). The -dl tasks of a CPU going down leave
 * between rq_offline_dl() and the online bit (their dequeues are the ops of
 * that window in the kernel); an op is one step, so cpu_down is the whole
 * path and no other op names a CPU that is down (the model skips such ops as
 * a break of the callers' contract, as it does set_freecpu of a heap member).
 *
 * (set_freecpu is only run for a CPU not in the heap: the harness skips it
 * otherwise, as the kernel's callers never do it.)
 */
#include "sched.h"

#include <kcheck_abi.h>

#ifndef KCHECK_API
#error "compile with -DKCHECK_API=314|48|49|619"
#endif
#ifndef KCHECK_HAS_FREECPU
#define KCHECK_HAS_FREECPU (KCHECK_API != KCHECK_API_V6_19 && KCHECK_API != KCHECK_API_V3_14)
#endif
/* The free mask is the glue's to keep as rq_online_dl()/rq_offline_dl() did
 * from v3.19 on: the v3.14 form, and v4.8/v4.9-form files without the
 * free-CPU helpers (-DKCHECK_HAS_FREECPU=0: v3.16 .. v3.18, and Android 3.18
 * trees that took v4.9's cpudl_set()/cpudl_clear() split but not v3.19's
 * helpers; their cpudl_init() marks every CPU free). */
#define KCHECK_GLUE_FREE_MASK                                                   \
	(KCHECK_API == KCHECK_API_V3_14 ||                                      \
	 ((KCHECK_API == KCHECK_API_V4_8 || KCHECK_API == KCHECK_API_V4_9) && !KCHECK_HAS_FREECPU))
#ifndef KCHECK_FIND_RETURNS_CPU
#define KCHECK_FIND_RETURNS_CPU 0
#endif
#ifndef KCHECK_SOURCE
#define KCHECK_SOURCE "candidate"
#endif
/* The task's CPU (kshim/kmod/sched.h: the kernel keeps it elsewhere). */
#ifndef KCHECK_SET_TASK_CPU
#define KCHECK_SET_TASK_CPU(t, c) ((t).cpu = (c))
#endif

void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
void kshim_reset_runtime(unsigned nr);
int kshim_take_warning(struct kcheck_warning *out);
void kshim_set_capacity(int asym, const unsigned long *caps, unsigned n);
void kshim_fail_alloc(long n);
int kshim_alloc_failed(void);
void kshim_free_live(void);

static struct cpudl cp;
static bool initialised;
static struct task_struct task;
static struct kcheck_item items[NR_CPUS]; /* when struct cpudl_item differs */
static struct cpumask view_free; /* the free mask as the view shows it */

/* Whether cpudl_init() marked every CPU below nr_cpu_ids free (the v3.14 ..
 * v3.18 init: cpumask_setall(free_cpus)); the bits past nr_cpu_ids are not
 * asked, as the kernel never reads them. O(nr_cpu_ids). */
static bool init_set_whole_mask(void)
{
	unsigned cpu;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (!cpumask_test_cpu(cpu, cp.free_cpus))
			return false;
	return nr_cpu_ids > 0;
}

static int glue_init(void)
{
	int ret;

	if (initialised) {
		cpudl_cleanup(&cp);
#if KCHECK_API == KCHECK_API_V3_14
		kshim_free_live(); /* that era's cleanup frees nothing */
#endif
	}
	initialised = false;
	ret = cpudl_init(&cp);
	initialised = ret == 0;
	/* A failed init leaves nothing for the caller to free (init_rootdomain()
	 * just fails), so forget the struct: what it still points to is leaked. */
	if (!initialised)
		memset(&cp, 0, sizeof(cp));
	else if (KCHECK_GLUE_FREE_MASK || init_set_whole_mask())
		/* The tool's initial state (see above), every bit: that era used
		 * alloc_cpumask_var(), which leaves the bits past nr_cpu_ids as
		 * they were (the kernel never reads them). A file with the
		 * free-CPU helpers whose init still marks every CPU free (a 3.18
		 * tree that took v3.19's helpers but kept the old init) starts
		 * from the same state: rq_online_dl() then sets the bit of every
		 * online CPU, which init had set already. Every allocated word,
		 * cpumask_size(): not sizeof(struct cpumask), which wrote 1 KiB
		 * into the guest's 8-byte allocation (6.1, 4 CPUs) and once
		 * crashed it at a later close(). */
		memset(cp.free_cpus, 0, cpumask_size());
	return ret;
}

#if KCHECK_API == KCHECK_API_V4_8 || KCHECK_API == KCHECK_API_V3_14
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
#elif KCHECK_GLUE_FREE_MASK
static void glue_set_freecpu(int cpu) { cpumask_set_cpu(cpu, cp.free_cpus); }
static void glue_clear_freecpu(int cpu) { cpumask_clear_cpu(cpu, cp.free_cpus); }
static void glue_clear_online(int cpu, int online)
{
	glue_clear(cpu);
	if (online)
		cpumask_set_cpu(cpu, cp.free_cpus);
	else
		cpumask_clear_cpu(cpu, cp.free_cpus);
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

#if KCHECK_API == KCHECK_API_V6_19 || KCHECK_GLUE_FREE_MASK || KCHECK_HAS_FREECPU
static void glue_cpu_down(int cpu)
{
	set_cpu_active(cpu, false);
	glue_clear_online(cpu, 0); /* rq_offline_dl() */
	set_cpu_online(cpu, false);
}

static void glue_cpu_up(int cpu)
{
	set_cpu_online(cpu, true);
	set_cpu_active(cpu, true);
	glue_set_freecpu(cpu); /* rq_online_dl(), no -dl task queued yet */
}
#else
#define glue_cpu_down NULL
#define glue_cpu_up NULL
#endif

static struct kcheck_view glue_view(void);

#if KCHECK_FIND_RETURNS_CPU
/* cpudl_find()'s CPU or -1, as 1 or 0 (see the table above). */
static int find_cpu_meaning(int ret, const unsigned long *affinity, const unsigned long *later_mask)
{
	const unsigned long bits = 8 * sizeof(unsigned long);
	struct kcheck_view v;
	int i;

	if (ret == -1)
		return 0;
	if (ret < 0 || (unsigned)ret >= nr_cpu_ids) {
		kshim_warn(KCHECK_SOURCE, 0, "cpudl_find() (returns a CPU or -1) returned a value that is "
			   "neither -1 nor a CPU below nr_cpu_ids");
		return ret < 0 ? 0 : 1;
	}
	if (later_mask) {
		if (!(later_mask[ret / bits] & (1UL << (ret % bits))))
			kshim_warn(KCHECK_SOURCE, 0, "cpudl_find() (returns a CPU or -1) returned a CPU "
				   "that later_mask does not hold");
		return 1;
	}
	/* No later_mask: only the heap's maximum is looked at. */
	v = glue_view();
	if (!(affinity[ret / bits] & (1UL << (ret % bits)))) {
		kshim_warn(KCHECK_SOURCE, 0, "cpudl_find() (returns a CPU or -1) returned a CPU "
			   "outside the task's affinity");
		return 1;
	}
	/* An empty heap: the root slot is stale (as in the kernel); the model
	 * judges that case. */
	if (v.size == 0)
		return 1;
	for (i = 0; i < v.size; i++)
		if (v.elements[i].cpu == ret && v.elements[i].dl == v.elements[0].dl)
			return 1;
	kshim_warn(KCHECK_SOURCE, 0, "cpudl_find() (returns a CPU or -1) returned a CPU that "
		   "does not hold the maximum deadline");
	return 1;
}
#endif

static int glue_find(unsigned long long dl, const unsigned long *affinity, unsigned long *later_mask,
		     unsigned task_cpu, unsigned long long dl_runtime, unsigned long long dl_deadline)
{
	int ret;

	task.dl.deadline = dl;
	task.dl.dl_runtime = dl_runtime;
	task.dl.dl_deadline = dl_deadline;
	task.dl.dl_period = dl_deadline;
	KCHECK_SET_TASK_CPU(task, task_cpu);
	memcpy(task.cpus_mask.bits, affinity, sizeof(task.cpus_mask.bits));
	task.cpus_ptr = &task.cpus_mask;
	task.nr_cpus_allowed = (int)cpumask_weight(&task.cpus_mask);
	/* later_mask as the caller leaves it: find_later_rq() of v3.16 .. v4.x
	 * filled it with the root domain's span & cpu_active_mask & the task's
	 * affinity, and the cpudl_find() of those kernels (and of the Android
	 * trees that kept it) ANDs free_cpus into it; every later form
	 * overwrites it first, so all forms get that input. */
	if (later_mask)
		cpumask_and((struct cpumask *)later_mask, cpu_active_mask, &task.cpus_mask);
	ret = cpudl_find(&cp, &task, (struct cpumask *)later_mask);
#if KCHECK_FIND_RETURNS_CPU
	return find_cpu_meaning(ret, affinity, later_mask);
#else
	return ret;
#endif
}

static struct kcheck_view glue_view(void)
{
	struct kcheck_view v = {0};
	unsigned i;

	v.size = cp.size;
	/* What the kernel can observe of the free mask: its nr_cpu_ids bits
	 * (every cpumask operation stops there; cpumask_setall() and
	 * alloc_cpumask_var() may leave the rest of the last word, or of the
	 * mask, set), so the bits past nr_cpu_ids are never compared. */
	for (i = 0; i < BITS_TO_LONGS(NR_CPUS); i++)
		view_free.bits[i] = i * BITS_PER_LONG >= nr_cpu_ids ? 0 : cp.free_cpus->bits[i];
	if (nr_cpu_ids % BITS_PER_LONG)
		view_free.bits[nr_cpu_ids / BITS_PER_LONG] &= (1UL << (nr_cpu_ids % BITS_PER_LONG)) - 1;
	v.free_bits = view_free.bits;
	v.free_words = cp.free_cpus->bits;
#if KCHECK_API == KCHECK_API_V3_14
	for (i = 0; i < nr_cpu_ids; i++) {
		items[i].dl = cp.elements[i].dl;
		items[i].cpu = cp.elements[i].cpu;
		items[i].idx = cp.cpu_to_idx[i];
	}
	v.elements = items;
	v.file_items = cp.elements;
	v.file_item_size = sizeof(cp.elements[0]);
	v.file_dl_offset = __builtin_offsetof(__typeof__(cp.elements[0]), dl);
	v.file_cpu_offset = __builtin_offsetof(__typeof__(cp.elements[0]), cpu);
	v.file_cpu_to_idx = cp.cpu_to_idx;
	return v;
#else
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
#endif
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
	.cpu_down = glue_cpu_down,
	.cpu_up = glue_cpu_up,
	.find = glue_find,
	.view = glue_view,
	.pick = NULL,
};
