// The SCHED_DEADLINE CPU max-heap of kernel/sched/cpudeadline.c.
//
//   cpudl<HoleHeapify> cp;
//   cpudl_init(&cp, 8);           // 8 CPUs, empty heap, no free CPU
//   cpudl_set(&cp, 3, 1000);      // CPU 3's earliest deadline is now 1000
//   cpudl_find(&cp, 500, &affinity, &later_mask);
//
// Models the v4.9+ API (cpudl_set/cpudl_clear split, merged with the seed
// series in v4.9) with cpudl_find() as of v4.15..v6.x (returns 0/1) on its
// non-capacity path, plus:
//   - cpudl_clear(cp, cpu, online): the v6.19 form, where the free mask
//     follows `online` whether or not the CPU was in the heap;
//   - cpudl_set(cp, cpu, dl, is_valid): the pre-v4.9 entry point, as a thin
//     adapter (is_valid ? set : clear), since the seed states its workload in it.
//
// One array serves two purposes, as in the kernel: elements[i].dl/.cpu is heap
// slot i (i < size), elements[cpu].idx is CPU cpu's slot or IDX_INVALID.
//
// Everything here is shared by both heap sides. The heapify strategy is the
// only difference and is a policy: SwapHeapify (reference, pre-patch
// cpudl_exchange) or HoleHeapify (optimized, the seed patch); see heapify.h.
#pragma once

#include <boost/container/static_vector.hpp>

#include "kernel/counters.h"
#include "kernel/cpumask.h"
#include "kernel/deadline.h"
#include "kernel/store_log.h"
#include "kernel/types.h"

namespace diffsched::kernel {

inline constexpr int IDX_INVALID = -1;

template <class Instr>
struct cpudl_item {
  typename Instr::template field<u64> dl;
  typename Instr::template field<int> cpu;
  typename Instr::template field<int> idx;
};

template <class Heapify, class Instr = Uncounted>
struct cpudl {
  using heapify_policy = Heapify;
  using instr_policy = Instr;
  using item = cpudl_item<Instr>;

  int size = 0;
  Cpumask free_cpus{};
  boost::container::static_vector<item, NR_CPUS> elements;
};

constexpr int parent(int i) { return (i - 1) >> 1; }
constexpr int left_child(int i) { return (i << 1) + 1; }
constexpr int right_child(int i) { return (i << 1) + 2; }

// log_free_cpus_store(cp, cpu): called before each store to cp->free_cpus;
// with the Logging policy it records the word's old value in the active
// StoreLog (store_log.h), so that an op's free-mask stores can be placed
// among its element stores. Nothing otherwise. O(1).
template <class CP>
void log_free_cpus_store(CP* cp, unsigned cpu) {
  if constexpr (requires { typename CP::instr_policy; }) {
    if constexpr (std::is_same_v<typename CP::instr_policy, Logging>) {
      if (StoreLog* log = active_store_log)
        log->add_free(cpu / BITS_PER_LONG, cp->free_cpus.bits[cpu / BITS_PER_LONG]);
    }
  }
}

// cpudl_heapify(cp, idx): restores heap order around slot idx after its key
// changed, moving it up if it is now later than its parent, else down.
// O(log size). Shared code (v4.9+).
template <class CP>
void cpudl_heapify(CP* cp, int idx) {
  if (idx > 0 && dl_time_before(cp->elements[parent(idx)].dl, cp->elements[idx].dl))
    CP::heapify_policy::cpudl_heapify_up(cp, idx);
  else
    CP::heapify_policy::cpudl_heapify_down(cp, idx);
}

// cpudl_maximum(cp): the CPU in slot 0. On an empty heap this is whatever slot
// 0 last held (0 after init): the kernel does not check size here.
template <class CP>
int cpudl_maximum(CP* cp) {
  return cp->elements[0].cpu;
}

// cpudl_init(cp, nr_cpus): empty heap of nr_cpus slots (kcalloc: all zero),
// every CPU's idx IDX_INVALID, free_cpus empty (zalloc_cpumask_var).
// Precondition: nr_cpus == nr_cpu_ids. O(nr_cpus).
template <class CP>
void cpudl_init(CP* cp, unsigned nr_cpus) {
  cp->size = 0;
  cp->elements.assign(nr_cpus, typename CP::item{0, 0, 0});
  for (unsigned i = 0; i < nr_cpus; ++i) cp->elements[i].idx = IDX_INVALID;
  cp->free_cpus = Cpumask{};
}

// cpudl_find(cp, task_dl, task_affinity, later_mask): can a task with deadline
// task_dl preempt some CPU? Returns 1 and fills later_mask (if given) with the
// free CPUs it may use, else with the heap's maximum CPU if that is allowed
// and runs a later deadline; returns 0 otherwise. The non-capacity path of
// v5.9+ (asymmetric CPU capacity off), identical to v4.15..v5.8. O(nr_cpus/64).
template <class CP>
int cpudl_find(CP* cp, u64 task_dl, const Cpumask* task_affinity,
               Cpumask* later_mask) {
  if (later_mask && cpumask_and(later_mask, &cp->free_cpus, task_affinity)) {
    return 1;
  } else {
    int best_cpu = cpudl_maximum(cp);

    if (cpumask_test_cpu(static_cast<unsigned>(best_cpu), task_affinity) &&
        dl_time_before(task_dl, cp->elements[0].dl)) {
      if (later_mask) cpumask_set_cpu(static_cast<unsigned>(best_cpu), later_mask);
      return 1;
    }
  }
  return 0;
}

// cpudl_find() with asymmetric CPU capacity on (sched_asym_cpucap_active(),
// v5.9+). capacity_of(cpu) is arch_scale_cpu_capacity(cpu); the fit test is
// v5.9..v5.19's dl_task_fits_capacity(): (dl_deadline * cap) >> 10 >= dl_runtime.
// On the free branch the CPUs the task does not fit leave later_mask; if
// none is left, the one of them with the largest capacity goes back in (on
// equal capacities the first in CPU order, unless the task's own CPU has it).
// Otherwise as cpudl_find(). Shared by both heap sides.
template <class CP, class CapacityOf>
int cpudl_find_cap(CP* cp, u64 task_dl, const Cpumask* task_affinity, Cpumask* later_mask,
                   CapacityOf&& capacity_of, int task_cpu, u64 dl_runtime, u64 dl_deadline) {
  if (!later_mask || !cpumask_and(later_mask, &cp->free_cpus, task_affinity))
    return cpudl_find(cp, task_dl, task_affinity, later_mask);
  unsigned long best_cap = 0;
  int best_cpu = -1;
  for (unsigned cpu = cpumask_first(later_mask); cpu < nr_cpu_ids;
       cpu = cpumask_next(static_cast<int>(cpu), later_mask)) {
    const unsigned long cap = capacity_of(static_cast<int>(cpu));
    if (((dl_deadline * cap) >> 10) >= dl_runtime) continue;  // fits
    cpumask_clear_cpu(cpu, later_mask);
    const bool own = static_cast<int>(cpu) == task_cpu;
    if (cap > best_cap || (own && cap == best_cap)) {
      best_cap = cap;
      best_cpu = static_cast<int>(cpu);
    }
  }
  if (cpumask_empty(later_mask) && best_cpu >= 0)
    cpumask_set_cpu(static_cast<unsigned>(best_cpu), later_mask);
  return 1;
}

namespace detail {

// The removal shared by cpudl_clear() forms: fill the hole with the last
// slot, shrink, and re-heapify (v4.9+). Returns whether cpu was in the heap.
template <class CP>
bool cpudl_remove(CP* cp, int cpu) {
  int old_idx = cp->elements[cpu].idx;
  if (old_idx == IDX_INVALID) {
    // Nothing to remove: e.g. rq_offline_dl() for a CPU without -dl tasks.
    return false;
  }
  int new_cpu = cp->elements[cp->size - 1].cpu;
  cp->elements[old_idx].dl = cp->elements[cp->size - 1].dl;
  cp->elements[old_idx].cpu = new_cpu;
  cp->size--;
  cp->elements[new_cpu].idx = old_idx;
  cp->elements[cpu].idx = IDX_INVALID;
  cpudl_heapify(cp, old_idx);
  return true;
}

}  // namespace detail

// cpudl_clear(cp, cpu): removes cpu from the heap and marks it free; nothing
// happens if it is not in the heap. v4.9 .. v6.18. O(log size).
template <class CP>
void cpudl_clear(CP* cp, int cpu) {
  if (detail::cpudl_remove(cp, cpu)) {
    log_free_cpus_store(cp, static_cast<unsigned>(cpu));
    cpumask_set_cpu(static_cast<unsigned>(cpu), &cp->free_cpus);
  }
}

// cpudl_clear(cp, cpu, online): v6.19+. Removes cpu if present, then marks it
// free only if its runqueue is online, else not free, in either case.
template <class CP>
void cpudl_clear(CP* cp, int cpu, bool online) {
  detail::cpudl_remove(cp, cpu);
  log_free_cpus_store(cp, static_cast<unsigned>(cpu));
  if (online)
    __cpumask_set_cpu(static_cast<unsigned>(cpu), &cp->free_cpus);
  else
    __cpumask_clear_cpu(static_cast<unsigned>(cpu), &cp->free_cpus);
}

// cpudl_set(cp, cpu, dl): inserts cpu with deadline dl (and marks it not
// free), or updates its deadline if present. v4.9+. O(log size).
template <class CP>
void cpudl_set(CP* cp, int cpu, u64 dl) {
  int old_idx = cp->elements[cpu].idx;
  if (old_idx == IDX_INVALID) {
    int new_idx = cp->size++;

    cp->elements[new_idx].dl = dl;
    cp->elements[new_idx].cpu = cpu;
    cp->elements[cpu].idx = new_idx;
    CP::heapify_policy::cpudl_heapify_up(cp, new_idx);
    log_free_cpus_store(cp, static_cast<unsigned>(cpu));
    cpumask_clear_cpu(static_cast<unsigned>(cpu), &cp->free_cpus);
  } else {
    cp->elements[old_idx].dl = dl;
    cpudl_heapify(cp, old_idx);
  }
}

// cpudl_set(cp, cpu, dl, is_valid): the pre-v4.9 signature (v3.14 .. v4.8),
// as an adapter onto the split API: is_valid == 0 removes the CPU.
template <class CP>
void cpudl_set(CP* cp, int cpu, u64 dl, int is_valid) {
  if (is_valid)
    cpudl_set(cp, cpu, dl);
  else
    cpudl_clear(cp, cpu);
}

// cpudl_set_freecpu / cpudl_clear_freecpu: v4.9 .. v6.18 (rq_online_dl and
// rq_offline_dl call them). Removed in v6.19 in favour of cpudl_clear(.., online).
template <class CP>
void cpudl_set_freecpu(CP* cp, int cpu) {
  log_free_cpus_store(cp, static_cast<unsigned>(cpu));
  cpumask_set_cpu(static_cast<unsigned>(cpu), &cp->free_cpus);
}
template <class CP>
void cpudl_clear_freecpu(CP* cp, int cpu) {
  log_free_cpus_store(cp, static_cast<unsigned>(cpu));
  cpumask_clear_cpu(static_cast<unsigned>(cpu), &cp->free_cpus);
}

// rq_offline_dl(cp, cpu) / rq_online_dl(cp, cpu): the heap's part of
// kernel/sched/deadline.c's rq_offline_dl(rq) / rq_online_dl(rq) for
// rq->cpu (v4.9 .. v6.18; cp is &rq->rd->cpudl), as CPU hotplug calls them:
// offline takes the CPU out of the heap and the free set; online, for a
// runqueue without -dl tasks, makes it free (with tasks it would also
// cpudl_set() its earliest deadline, which cpudl's ops say with `set`).
template <class CP>
void rq_offline_dl(CP* cp, int cpu) {
  cpudl_clear(cp, cpu);
  cpudl_clear_freecpu(cp, cpu);
}
template <class CP>
void rq_online_dl(CP* cp, int cpu) {
  cpudl_set_freecpu(cp, cpu);
}

}  // namespace diffsched::kernel
