// SPDX-License-Identifier: MIT
/*
 * cpudeadline.c, v6.19 API, swap-based heapify: correct.
 *
 * A diffsched test file written in the style of kernel/sched/cpudeadline.c
 * (v6.19+ API: cpudl_clear(cp, cpu, online), no free-CPU helpers), for
 * `diffsched kernel-check cpudl`. Not kernel code: written for this project
 * from the documented behaviour of the cpudl heap.
 *
 * Includes "sched.h" (v6.17+) and allocates with kzalloc_objs() (newest).
 */
// expect: kernel.cpudl.v6.19-swap.equivalent 0 - "verdict: EQUIVALENT" -- cpudl --time 2 ${kfast}
// expect: kernel.cpudl.race.random.v6.19-swap 0 - "no reader class only the candidate reaches .206 programs: 6 seeds, 200 random" -- cpudl --race --race-programs 200 --no-properties --time 0 --no-build
// expect: kernel.cpudl.race.fuzzing.v6.19-swap 0 - "fuzzing: no finding .[0-9]+ inputs in .*, [0-9]+ of them through the race analysis too" -- cpudl --race --no-properties --time 3 --no-build
#include "sched.h"

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

	/* the kernel's store order (three swap()s): the CPUs, the deadlines, the indexes */
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
 * Returns 1 if a CPU was found (in later_mask if given), 0 otherwise. With
 * asymmetric CPU capacities, free CPUs too small for the task are dropped
 * from later_mask; if none is left, the largest of them is kept.
 */
int cpudl_find(struct cpudl *cp, struct task_struct *p,
	       struct cpumask *later_mask)
{
	const struct sched_dl_entity *dl_se = &p->dl;

	if (later_mask &&
	    cpumask_and(later_mask, cp->free_cpus, p->cpus_ptr)) {
		unsigned long cap, max_cap = 0;
		int cpu, max_cpu = -1;

		if (!sched_asym_cpucap_active())
			return 1;

		for_each_cpu(cpu, later_mask) {
			if (!dl_task_fits_capacity(p, cpu)) {
				cpumask_clear_cpu(cpu, later_mask);

				cap = arch_scale_cpu_capacity(cpu);
				if (cap > max_cap ||
				    (cpu == task_cpu(p) && cap == max_cap)) {
					max_cap = cap;
					max_cpu = cpu;
				}
			}
		}

		if (cpumask_empty(later_mask))
			cpumask_set_cpu(max_cpu, later_mask);

		return 1;
	} else {
		int best_cpu = cpudl_maximum(cp);

		WARN_ON(best_cpu != -1 && !cpu_present(best_cpu));

		if (cpumask_test_cpu(best_cpu, p->cpus_ptr) &&
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
 * @online: whether the CPU's runqueue is online: it is then free, else not
 */
void cpudl_clear(struct cpudl *cp, int cpu, bool online)
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
	}

	if (likely(online))
		__cpumask_set_cpu(cpu, cp->free_cpus);
	else
		__cpumask_clear_cpu(cpu, cp->free_cpus);

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
		__cpumask_clear_cpu(cpu, cp->free_cpus);
	} else {
		cp->elements[old_idx].dl = dl;
		cpudl_heapify(cp, old_idx);
	}

	raw_spin_unlock_irqrestore(&cp->lock, flags);
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

	cp->elements = kzalloc_objs(*cp->elements, nr_cpu_ids);
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
