// SPDX-License-Identifier: MIT
/*
 * BROKEN (for a lockless reader only, and only for CPUs 8 to 62):
 * cpudeadline.c, v4.9 API, swap-based heapify whose cpudl_exchange(), when
 * the CPU moving up into slot b (the parent) is one of CPUs 8..62, first
 * parks -1 in that slot's cpu (a "mid-range" path), then stores in the
 * kernel's order (both CPUs, both deadlines, both indexes). Under cp->lock the heap is the same
 * after every op (kernel-check without --race finds nothing); a lockless
 * cpudl_find() between the stores of a climb to the root reads root CPU -1,
 * out of range, which the kernel's order never shows.
 *
 * No checked-in seed program (corpus/seeds/cpudl) puts a CPU from 8 to 62
 * in the heap (they use CPUs 0..7 and 63..129), so `kernel-check --race`
 * over the seeds alone misses it; the random programs of its
 * --race-programs stage reach it, and so does its fuzzing stage, whose
 * inputs go through the race analysis too under --race.
 *
 * A diffsched test file written in the style of kernel/sched/cpudeadline.c
 * (v4.9 .. v6.18 API), for `diffsched kernel-check cpudl --race`. Not kernel
 * code: written for this project from the documented behaviour of the cpudl
 * heap.
 *
 * Expected: against v4.9-swap.c with --race and random programs, the reader
 * class impossible at set, only the candidate's (exit 1); with
 * --race-programs 0 (the seeds only), no finding (exit 0); with
 * --race-programs 0 and fuzzing, the finding comes from a fuzzing input.
 */
// expect: kernel.cpudl.race.random.mid-cpus 1 - "FINDING cpudl:reader:impossible:set in random program" -- cpudl --race --baseline ${kexamples}/cpudl/v4.9-swap.c --race-programs 200 --no-properties --time 0 --no-build
// expect: kernel.cpudl.race.random.mid-cpus.seeds-only 0 - "6 programs: 6 seeds, 0 random" -- cpudl --race --baseline ${kexamples}/cpudl/v4.9-swap.c --race-programs 0 --no-properties --time 0 --no-build
// expect: kernel.cpudl.race.fuzzing.mid-cpus 1 - "FINDING cpudl:reader:impossible:set in fuzzing input" -- cpudl --race --baseline ${kexamples}/cpudl/v4.9-swap.c --race-programs 0 --no-properties --time 120 --no-build
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include "cpudeadline.h"

static inline int parent(int i)
{
	return (i - 1) >> 1;
}

static inline int left_child(int i)
{
	return (i << 1) + 1;
}

static inline int right_child(int i)
{
	return (i << 1) + 2;
}

/* Swaps the (dl, cpu) of two slots and fixes both CPUs' back-pointers. */
static void cpudl_exchange(struct cpudl *cp, int a, int b)
{
	int cpu_a = cp->elements[a].cpu, cpu_b = cp->elements[b].cpu;
	u64 dl_a = cp->elements[a].dl;
	int idx_a = cp->elements[cpu_a].idx;

	if (cpu_a >= 8 && cpu_a < 63)
		cp->elements[b].cpu = -1;	/* mid-range CPUs: parked first */
	/* then the kernel's store order (three swap()s): the CPUs, the deadlines */
	cp->elements[a].cpu = cpu_b;
	cp->elements[b].cpu = cpu_a;
	cp->elements[a].dl = cp->elements[b].dl;
	cp->elements[b].dl = dl_a;
	cp->elements[cpu_a].idx = cp->elements[cpu_b].idx;
	cp->elements[cpu_b].idx = idx_a;
}

static void cpudl_heapify_down(struct cpudl *cp, int idx)
{
	int l, r, largest;

	for (;;) {
		l = left_child(idx);
		r = right_child(idx);
		largest = idx;
		if (l < cp->size && dl_time_before(cp->elements[largest].dl,
						   cp->elements[l].dl))
			largest = l;
		if (r < cp->size && dl_time_before(cp->elements[largest].dl,
						   cp->elements[r].dl))
			largest = r;
		if (largest == idx)
			break;
		cpudl_exchange(cp, largest, idx);
		idx = largest;
	}
}

static void cpudl_heapify_up(struct cpudl *cp, int idx)
{
	while (idx > 0 && dl_time_before(cp->elements[parent(idx)].dl,
					 cp->elements[idx].dl)) {
		cpudl_exchange(cp, idx, parent(idx));
		idx = parent(idx);
	}
}

static void cpudl_heapify(struct cpudl *cp, int idx)
{
	if (idx > 0 && dl_time_before(cp->elements[parent(idx)].dl,
				      cp->elements[idx].dl))
		cpudl_heapify_up(cp, idx);
	else
		cpudl_heapify_down(cp, idx);
}

static inline int cpudl_maximum(struct cpudl *cp)
{
	return cp->elements[0].cpu;
}

/*
 * cpudl_find - find the best (later-dl) CPU in the system
 * Returns 1 if a CPU was found (in later_mask if given), 0 otherwise.
 */
int cpudl_find(struct cpudl *cp, struct task_struct *p,
	       struct cpumask *later_mask)
{
	const struct sched_dl_entity *dl_se = &p->dl;

	if (later_mask &&
	    cpumask_and(later_mask, cp->free_cpus, &p->cpus_allowed)) {
		return 1;
	} else {
		int best_cpu = cpudl_maximum(cp);

		WARN_ON(best_cpu != -1 && !cpu_present(best_cpu));

		if (cpumask_test_cpu(best_cpu, &p->cpus_allowed) &&
		    dl_time_before(dl_se->deadline, cp->elements[0].dl)) {
			if (later_mask)
				cpumask_set_cpu(best_cpu, later_mask);

			return 1;
		}
	}
	return 0;
}

/*
 * cpudl_clear - remove a CPU from the cpudl max-heap
 * @cp: the cpudl max-heap context
 * @cpu: the target CPU
 */
void cpudl_clear(struct cpudl *cp, int cpu)
{
	int old_idx, new_cpu;
	unsigned long flags;

	WARN_ON(!cpu_present(cpu));

	raw_spin_lock_irqsave(&cp->lock, flags);

	old_idx = cp->elements[cpu].idx;
	if (old_idx == IDX_INVALID) {
		/*
		 * Nothing to remove: e.g. rq_offline_dl() for a CPU without
		 * -dl tasks.
		 */
	} else {
		new_cpu = cp->elements[cp->size - 1].cpu;
		cp->elements[old_idx].dl = cp->elements[cp->size - 1].dl;
		cp->elements[old_idx].cpu = new_cpu;
		cp->size--;
		cp->elements[new_cpu].idx = old_idx;
		cp->elements[cpu].idx = IDX_INVALID;
		cpudl_heapify(cp, old_idx);
		cpumask_set_cpu(cpu, cp->free_cpus);
	}

	raw_spin_unlock_irqrestore(&cp->lock, flags);
}

/*
 * cpudl_set - update the cpudl max-heap
 * @cp: the cpudl max-heap context
 * @cpu: the target CPU
 * @dl: the new earliest deadline for this CPU
 */
void cpudl_set(struct cpudl *cp, int cpu, u64 dl)
{
	int old_idx;
	unsigned long flags;

	WARN_ON(!cpu_present(cpu));

	raw_spin_lock_irqsave(&cp->lock, flags);

	old_idx = cp->elements[cpu].idx;
	if (old_idx == IDX_INVALID) {
		int new_idx = cp->size++;

		cp->elements[new_idx].dl = dl;
		cp->elements[new_idx].cpu = cpu;
		cp->elements[cpu].idx = new_idx;
		cpudl_heapify_up(cp, new_idx);
		cpumask_clear_cpu(cpu, cp->free_cpus);
	} else {
		cp->elements[old_idx].dl = dl;
		cpudl_heapify(cp, old_idx);
	}

	raw_spin_unlock_irqrestore(&cp->lock, flags);
}

/*
 * cpudl_set_freecpu - Set the cpudl.free_cpus
 * @cp: the cpudl max-heap context
 * @cpu: rd attached CPU
 */
void cpudl_set_freecpu(struct cpudl *cp, int cpu)
{
	cpumask_set_cpu(cpu, cp->free_cpus);
}

/*
 * cpudl_clear_freecpu - Clear the cpudl.free_cpus
 * @cp: the cpudl max-heap context
 * @cpu: rd attached CPU
 */
void cpudl_clear_freecpu(struct cpudl *cp, int cpu)
{
	cpumask_clear_cpu(cpu, cp->free_cpus);
}

/*
 * cpudl_init - initialize the cpudl structure
 * @cp: the cpudl max-heap context
 */
int cpudl_init(struct cpudl *cp)
{
	int i;

	raw_spin_lock_init(&cp->lock);
	cp->size = 0;

	cp->elements = kcalloc(nr_cpu_ids,
			      sizeof(struct cpudl_item),
			      GFP_KERNEL);
	if (!cp->elements)
		return -ENOMEM;

	if (!zalloc_cpumask_var(&cp->free_cpus, GFP_KERNEL)) {
		kfree(cp->elements);
		return -ENOMEM;
	}

	for_each_possible_cpu(i)
		cp->elements[i].idx = IDX_INVALID;

	return 0;
}

/*
 * cpudl_cleanup - clean up the cpudl structure
 * @cp: the cpudl max-heap context
 */
void cpudl_cleanup(struct cpudl *cp)
{
	free_cpumask_var(cp->free_cpus);
	kfree(cp->elements);
}
