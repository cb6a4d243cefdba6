// SPDX-License-Identifier: MIT
/*
 * BROKEN: cpudeadline.c, v4.8 API, hole-based heapify_down compares the
 * right child with the saved item instead of the larger child.
 *
 * A diffsched test file written in the style of kernel/sched/cpudeadline.c
 * (v3.14 .. v4.8 API: cpudl_set(cp, cpu, dl, is_valid), cpudl_find() returns
 * a CPU or -1), for `diffsched kernel-check cpudl`. Not kernel code: written
 * for this project from the documented behaviour of the cpudl heap.
 *
 * Expected: heap-order invariant broken after a few ops.
 */
// expect: kernel.cpudl.broken.v4.8-hole-right-child 1 6 "heap-order" -- cpudl --time 10 ${kfast}
// expect: kernel.cpudl.broken.v4.8-hole-right-child.by-fuzzing 1 6 "fuzzing: finding after" -- cpudl --no-properties --time 30 ${kfast}
// expect: inkernel.cpudl.broken.v4.8-hole-right-child 1 8 "signature cpudl:invariant:heap-order:slot.dl" -- cpudl --in-kernel --nr-cpus 8 --runs 50
// expect: kernel.cpudl.broken.v4.8-hole-right-child.changes-hook 1 6 "heap-order" -- cpudl --changes hook --time 10 ${kfast}
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

/*
 * Hole-based heapify: the moving item is kept aside, the items it passes are
 * pulled into the hole, and it is stored once at the end.
 */
static void cpudl_heapify_down(struct cpudl *cp, int idx)
{
	int l, r, largest;
	int orig_cpu = cp->elements[idx].cpu;
	u64 orig_dl = cp->elements[idx].dl;

	if (left_child(idx) >= cp->size)
		return;

	for (;;) {
		u64 largest_dl;

		l = left_child(idx);
		r = right_child(idx);
		largest = idx;
		largest_dl = orig_dl;
		if (l < cp->size && dl_time_before(orig_dl, cp->elements[l].dl)) {
			largest = l;
			largest_dl = cp->elements[l].dl;
		}
		if (r < cp->size && dl_time_before(orig_dl, cp->elements[r].dl))
			largest = r;
		if (largest == idx)
			break;
		cp->elements[idx].cpu = cp->elements[largest].cpu;
		cp->elements[idx].dl = cp->elements[largest].dl;
		cp->elements[cp->elements[idx].cpu].idx = idx;
		idx = largest;
	}
	cp->elements[idx].cpu = orig_cpu;
	cp->elements[idx].dl = orig_dl;
	cp->elements[orig_cpu].idx = idx;
}

static void cpudl_heapify_up(struct cpudl *cp, int idx)
{
	int p;
	int orig_cpu = cp->elements[idx].cpu;
	u64 orig_dl = cp->elements[idx].dl;

	if (idx == 0)
		return;

	do {
		p = parent(idx);
		if (dl_time_before(orig_dl, cp->elements[p].dl))
			break;
		cp->elements[idx].cpu = cp->elements[p].cpu;
		cp->elements[idx].dl = cp->elements[p].dl;
		cp->elements[cp->elements[idx].cpu].idx = idx;
		idx = p;
	} while (idx != 0);
	cp->elements[idx].cpu = orig_cpu;
	cp->elements[idx].dl = orig_dl;
	cp->elements[orig_cpu].idx = idx;
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
 * Returns the CPU found, or -1.
 */
int cpudl_find(struct cpudl *cp, struct task_struct *p,
	       struct cpumask *later_mask)
{
	int best_cpu = -1;
	const struct sched_dl_entity *dl_se = &p->dl;

	if (later_mask &&
	    cpumask_and(later_mask, cp->free_cpus, tsk_cpus_allowed(p))) {
		best_cpu = cpumask_any(later_mask);
	} else if (cpumask_test_cpu(cpudl_maximum(cp), tsk_cpus_allowed(p)) &&
		   dl_time_before(dl_se->deadline, cp->elements[0].dl)) {
		best_cpu = cpudl_maximum(cp);
		if (later_mask)
			cpumask_set_cpu(best_cpu, later_mask);
	}

	WARN_ON(best_cpu != -1 && !cpu_present(best_cpu));
	return best_cpu;
}

/* Gives slot idx the deadline new_dl and restores heap order. */
static void cpudl_change_key(struct cpudl *cp, int idx, u64 new_dl)
{
	WARN_ON(idx == IDX_INVALID || !cpu_present(idx));

	cp->elements[idx].dl = new_dl;
	cpudl_heapify(cp, idx);
}

/*
 * cpudl_set - update the cpudl max-heap
 * @cp: the cpudl max-heap context
 * @cpu: the target CPU
 * @dl: the new earliest deadline for this CPU
 * @is_valid: 0 removes the CPU from the heap
 */
void cpudl_set(struct cpudl *cp, int cpu, u64 dl, int is_valid)
{
	int old_idx, new_cpu;
	unsigned long flags;

	WARN_ON(!cpu_present(cpu));

	raw_spin_lock_irqsave(&cp->lock, flags);

	if (!is_valid) {
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

		goto out;
	}

	old_idx = cp->elements[cpu].idx;
	if (old_idx == IDX_INVALID) {
		cp->size++;
		cp->elements[cp->size - 1].dl = dl;
		cp->elements[cp->size - 1].cpu = cpu;
		cp->elements[cpu].idx = cp->size - 1;
		cpudl_heapify_up(cp, cp->size - 1);
		cpumask_clear_cpu(cpu, cp->free_cpus);
	} else {
		cpudl_change_key(cp, old_idx, dl);
	}

out:
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

	memset(cp, 0, sizeof(*cp));
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
