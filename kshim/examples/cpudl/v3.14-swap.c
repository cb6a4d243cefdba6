// SPDX-License-Identifier: MIT
/*
 * cpudeadline.c, v3.14 API, swap-based heapify: correct.
 *
 * A diffsched test file written in the style of kernel/sched/cpudeadline.c of
 * v3.14 .. v3.18: struct cpudl maps CPUs to heap slots with an array
 * cpu_to_idx[] (the heap items have no index), the one cpudl_set(cp, cpu, dl,
 * is_valid), no free-CPU helpers (cpudl_init() marks every CPU free, only
 * cpudl_set() changes the mask), cpudl_find() returns a CPU or -1, its own
 * dl_time_before() and a cpudl_change_key() that picks the direction by the
 * old deadline. A new CPU is inserted with its real deadline (the v4.8-rc2
 * fix; the era's placeholder 0 is broken/v3.14-placeholder-zero.c). Not
 * kernel code: written for this project from the documented behaviour of the
 * cpudl heap.
 */
// expect: kernel.cpudl.v3.14-swap.equivalent 0 - "form of .*v3.14-swap.c: the v3.14 API form .*returns a CPU or -1" -- cpudl --time 2 ${kfast}
// expect: kernel.cpudl.v3.14-swap.hotplug-replay 0 - "equivalent at level deadline after 14 ops" -- cpudl --replay ${kregressions}/hotplug-down-with-dl-tasks.ops --no-build
// expect: inkernel.bad-input.v3.14 2 - "^diffsched: error: --in-kernel does not support the v3.14" -- cpudl --in-kernel
// expect: kernel.cpudl.race.v3.14-swap 1 - "FINDING cpudl:reader:stale:set .*equal-deadlines.ops" -- cpudl --race --no-properties --time 0 --no-build
// expect: kernel.cpudl.race.v3.14-swap.self 0 - "race: no reader class only the candidate reaches .*shared: .*stale at set" -- cpudl --baseline ${kexamples}/cpudl/v3.14-swap.c --race --no-properties --time 0 --no-build
// expect: kernel.cpudl.v3.14-swap.changes-hook 0 - "changes: hook" -- cpudl --changes hook --time 2 ${kfast}
#include <linux/gfp.h>
#include <linux/kernel.h>
#include "cpudeadline.h"

/* The era's own comparison (an int); the file's definition wins over the shim's. */
static inline int dl_time_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

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
 * Swaps the (dl, cpu) of two slots, whole items as the era did (a struct
 * copy: under kernel-check --race, a memcpy the harness logs field by field),
 * and fixes both CPUs' back-pointers.
 */
static void cpudl_exchange(struct cpudl *cp, int a, int b)
{
	int cpu_a = cp->elements[a].cpu, cpu_b = cp->elements[b].cpu;

	swap(cp->elements[a], cp->elements[b]);
	swap(cp->cpu_to_idx[cpu_a], cp->cpu_to_idx[cpu_b]);
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

/*
 * Gives slot idx the deadline new_dl: an earlier deadline than the old one
 * moves towards the leaves, a later one towards the root.
 */
static void cpudl_change_key(struct cpudl *cp, int idx, u64 new_dl)
{
	u64 old_dl = cp->elements[idx].dl;

	WARN_ON(idx == IDX_INVALID || !cpu_present(idx));

	cp->elements[idx].dl = new_dl;
	if (dl_time_before(new_dl, old_dl))
		cpudl_heapify_down(cp, idx);
	else
		cpudl_heapify_up(cp, idx);
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
		old_idx = cp->cpu_to_idx[cpu];
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
			cp->cpu_to_idx[new_cpu] = old_idx;
			cp->cpu_to_idx[cpu] = IDX_INVALID;
			cpudl_heapify(cp, old_idx);
			cpumask_set_cpu(cpu, cp->free_cpus);
		}

		goto out;
	}

	old_idx = cp->cpu_to_idx[cpu];
	if (old_idx == IDX_INVALID) {
		cp->size++;
		cp->elements[cp->size - 1].dl = dl;
		cp->elements[cp->size - 1].cpu = cpu;
		cp->cpu_to_idx[cpu] = cp->size - 1;
		cpudl_heapify_up(cp, cp->size - 1);
		cpumask_clear_cpu(cpu, cp->free_cpus);
	} else {
		cpudl_change_key(cp, old_idx, dl);
	}

out:
	raw_spin_unlock_irqrestore(&cp->lock, flags);
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
	for (i = 0; i < NR_CPUS; i++)
		cp->cpu_to_idx[i] = IDX_INVALID;
	if (!alloc_cpumask_var(&cp->free_cpus, GFP_KERNEL))
		return -ENOMEM;
	cpumask_setall(cp->free_cpus);

	return 0;
}

/*
 * cpudl_cleanup - clean up the cpudl structure
 * @cp: the cpudl max-heap context
 */
void cpudl_cleanup(struct cpudl *cp)
{
	/* Nothing, as in that era: the free_cpus mask is not freed. */
}
