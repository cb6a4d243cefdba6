/* SPDX-License-Identifier: MIT */
/*
 * kshim runtime, linked into every candidate: nr_cpu_ids and the CPU masks,
 * the allocator, the WARN_ON record, lock bookkeeping and CPU capacities.
 * Each candidate has its own copy (they are loaded RTLD_LOCAL), so two
 * candidates in one harness do not share state.
 */
#include <kshim/kshim.h>
#include <kshim/sched_fair.h>
#include <kcheck_abi.h>

void *calloc(size_t n, size_t size);
void *malloc(size_t size);
void free(void *p);

unsigned int nr_cpu_ids = 1;
struct cpumask __cpu_possible_mask, __cpu_present_mask, __cpu_online_mask, __cpu_active_mask;
unsigned long kshim_cpu_capacity[NR_CPUS];
struct static_key_false sched_asym_cpucapacity;
struct static_key_false sched_cluster_active; /* sched_fair.h: off, never set */
extern unsigned int kshim_distribute_prev; /* bitmap.c: cpumask_any_distribute() */

/* kshim/sched_fair.h: the run queues, the LLC domains and the clock tick,
 * zeroed before every run; the classes are complete only here (a unit sees
 * them declared, so no generated pointer equals one of them). */
struct sched_class { int kshim_unused; };
const struct sched_class stop_sched_class, dl_sched_class, rt_sched_class, fair_sched_class,
	idle_sched_class;
DEFINE_PER_CPU(struct rq, runqueues);
DEFINE_PER_CPU(struct sched_domain *, sd_llc);
DEFINE_PER_CPU(int, sd_llc_size);
DEFINE_PER_CPU(int, sd_llc_id);
unsigned long volatile jiffies;

static void kshim_reset_sched(void)
{
	memset(runqueues, 0, sizeof(runqueues));
	memset(sd_llc, 0, sizeof(sd_llc));
	memset(sd_llc_size, 0, sizeof(sd_llc_size));
	memset(sd_llc_id, 0, sizeof(sd_llc_id));
	jiffies = 0;
}

static struct kcheck_warning warning;
static long alloc_count, fail_at;
static int failed;

void kshim_warn(const char *file, int line, const char *what)
{
	if (warning.count++ == 0) {
		warning.file = file;
		warning.line = line;
		warning.what = what;
	}
}

int kshim_take_warning(struct kcheck_warning *out)
{
	if (!warning.count)
		return 0;
	*out = warning;
	warning.count = 0;
	return 1;
}

/* The live allocations (at most KSHIM_TRACKED; more are not tracked), kept
 * complemented so that LeakSanitizer (--fail-alloc) does not see them as
 * references: a leak stays a leak. */
#define KSHIM_TRACKED 64
static unsigned long live[KSHIM_TRACKED];

void *kshim_alloc(size_t n, size_t size, bool zero)
{
	void *p;
	int i;

	if (fail_at && ++alloc_count == fail_at) {
		failed = 1;
		return NULL;
	}
	if (n && size > ~(size_t)0 / n)
		return NULL;
	/* A zero-size allocation is a valid pointer that owns no byte (ASan
	 * reports any access), as the kernel's ZERO_SIZE_PTR faults. */
	p = zero ? calloc(n, size) : malloc(n * size);
	for (i = 0; p && i < KSHIM_TRACKED; i++)
		if (!live[i]) {
			live[i] = ~(unsigned long)p;
			break;
		}
	return p;
}

void kfree(const void *p)
{
	int i;

	for (i = 0; p && i < KSHIM_TRACKED; i++)
		if (live[i] == ~(unsigned long)p) {
			live[i] = 0;
			break;
		}
	free((void *)p);
}

/* Frees what the file's code allocated and did not free: for the v3.14 form,
 * whose cpudl_cleanup() frees nothing (that era's root domain leaked its
 * free_cpus), so that a run of many programs does not grow without bound. */
void kshim_free_live(void)
{
	int i;

	for (i = 0; i < KSHIM_TRACKED; i++)
		if (live[i]) {
			free((void *)~live[i]);
			live[i] = 0;
		}
}

void kshim_lock(raw_spinlock_t *lock, const char *file, int line)
{
	if (lock->held)
		kshim_warn(file, line, "raw_spin_lock() of a lock already held (single-threaded: a deadlock)");
	lock->held = 1;
}

void kshim_unlock(raw_spinlock_t *lock, const char *file, int line)
{
	if (!lock->held)
		kshim_warn(file, line, "raw_spin_unlock() of a lock not held");
	lock->held = 0;
}

void kshim_reset_runtime(unsigned nr)
{
	unsigned c;

	nr_cpu_ids = nr;
	for (c = 0; c < BITS_TO_LONGS(NR_CPUS); c++)
		__cpu_possible_mask.bits[c] = 0;
	for (c = 0; c < nr; c++)
		__set_bit(c, __cpu_possible_mask.bits);
	__cpu_present_mask = __cpu_possible_mask;
	__cpu_online_mask = __cpu_possible_mask;
	__cpu_active_mask = __cpu_possible_mask;
	warning.count = 0;
	alloc_count = 0;
	kshim_distribute_prev = 0;
	kshim_reset_sched();
}

void kshim_set_capacity(int asym, const unsigned long *caps, unsigned n)
{
	unsigned c;

	sched_asym_cpucapacity.enabled = asym;
	for (c = 0; c < NR_CPUS; c++)
		kshim_cpu_capacity[c] = n ? caps[c % n] : SCHED_CAPACITY_SCALE;
}

void kshim_fail_alloc(long n)
{
	fail_at = n;
	alloc_count = 0;
	failed = 0;
}

int kshim_alloc_failed(void)
{
	return failed;
}
