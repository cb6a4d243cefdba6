// A cpudl side: anything that implements the cpudl ops on a kernel-layout
// heap. The reference and optimized heaps are sides; so will be a user's
// cpudeadline.c compiled through the kernel shim.
//
//   std::unique_ptr<Side> s = make_reference_side();
//   s->reset(8);  s->apply(Set{3, 100}, nullptr);  HeapView v = s->view();
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "subjects/cpudl/ops.h"
#include "kernel/cpudeadline.h"

namespace diffsched::cpudl {

// Read-only view of a side's state in the kernel's layout (struct cpudl_item
// {u64 dl; int cpu; int idx;}), without counting.
struct HeapView {
  int size = 0;
  unsigned nr_cpu_ids = 0;
  const kernel::cpudl_item<kernel::Uncounted>* elements = nullptr;
  const Cpumask* free_cpus = nullptr;

  bool contains(int cpu) const { return elements[cpu].idx != kernel::IDX_INVALID; }
  u64 dl_of(int cpu) const { return elements[elements[cpu].idx].dl; }
};

// What cpudl_find() answered: its return value and, if a later_mask was
// passed (find, not find_nomask), the mask it left.
struct FindResult {
  int ret = 0;
  bool with_mask = false;
  Cpumask later_mask{};
};

class Side {
 public:
  virtual ~Side() = default;
  virtual std::string_view name() const = 0;
  // cpudl_init() for nr_cpu_ids CPUs (nr_cpu_ids must be the current one).
  virtual void reset(unsigned nr_cpu_ids) = 0;
  // Applies one op; for find ops fills *result (which must not be null then).
  virtual void apply(const Op& op, FindResult* result) = 0;
  virtual HeapView view() const = 0;
  // Overwrites the whole kernel-layout state (size, every element's dl, cpu
  // and idx, free_cpus) with `state`'s, as if ops had led there. Only the
  // exhaustive verifier (subjects/cpudl/verify_bfs.h) calls it: it stores states
  // compactly and restores them instead of replaying paths from cpudl_init().
  // `state.nr_cpu_ids` must be the one of the last reset(). O(nr_cpu_ids).
  virtual void restore(const HeapView& state) = 0;
  // The first warning the side raised since the last call (a kernel file's
  // WARN_ON() through the kshim, kernel-check), as "file:line: WARN_ON(cond)";
  // empty if none. Lockstep::step() turns it into a finding of the op.
  virtual std::string take_warning() { return {}; }
  // Whether take_warning() can ever return one; asked once per Lockstep, so
  // the built-in sides cost nothing per op.
  virtual bool can_warn() const { return false; }
  // Whether this side's cpudl_find() may narrow later_mask by CPU capacity
  // (a kernel file with asymmetric capacity on, kernel-check --capacity). The
  // model knows no capacities: for such a side it only checks that a find the
  // free CPUs decide answers 1 with a non-empty later_mask inside free & affinity.
  virtual bool capacity_aware() const { return false; }
  // Whether every store apply() makes to view().elements goes through
  // kernel::Logged fields (kernel/store_log.h): then the lockstep's
  // incremental checks read what an op wrote from the log it installs around
  // apply(), instead of diffing the state against a copy (O(nr_cpu_ids)).
  // The built-in sides (KernelModelSide) do; a kernel file through the shim
  // does not.
  virtual bool logs_stores() const { return false; }
  // Whether apply() writes free_cpus only through the shim's cpumask calls
  // (kernel/cpumask.h: they abort on a CPU at or beyond nr_cpu_ids and write
  // no word beyond it), so the mask's words past nr_cpu_ids stay zero by
  // construction: the incremental checks then leave those words to the full
  // check that closes every run. The built-in sides do; a kernel file does
  // not (its own bitmap code: a cpumask_setall() may fill them).
  virtual bool free_tail_guarded() const { return false; }
  // The run's CPU capacities (Config::capacity) for find_cap; Lockstep::reset()
  // sets them before reset().
  void set_capacity(const std::vector<std::uint16_t>& capacity) { config_.capacity = capacity; }

 protected:
  // arch_scale_cpu_capacity(cpu) of the run.
  unsigned long capacity_of(int cpu) const { return config_.capacity_of(cpu); }
  Config config_;
};

std::unique_ptr<Side> make_reference_side();  // SwapHeapify
std::unique_ptr<Side> make_optimized_side();  // HoleHeapify

}  // namespace diffsched::cpudl
