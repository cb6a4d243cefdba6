// KernelModelSide<Heapify>: the C++ kernel model of cpudl as a side, with
// the heapify strategy as a policy (kernel/heapify.h).
//
//   auto side = std::make_unique<KernelModelSide<kernel::HoleHeapify>>("optimized");
//
// Not final: tests derive mutants from it (a side with a planted bug).
#pragma once

#include <cstddef>
#include <string_view>
#include <type_traits>

#include "subjects/cpudl/apply.h"
#include "subjects/cpudl/side.h"
#include "kernel/heapify.h"
#include "kernel/store_log.h"

namespace diffsched::cpudl {

template <class Heapify>
class KernelModelSide : public Side {
 public:
  explicit KernelModelSide(std::string_view name) : name_(name) {}

  std::string_view name() const override { return name_; }

  void reset(unsigned nr_cpu_ids) override { kernel::cpudl_init(&cp_, nr_cpu_ids); }

  void apply(const Op& op, FindResult* result) override {
    apply_op(&cp_, op, result, [this](int cpu) { return capacity_of(cpu); });
  }

  HeapView view() const override {
    // Logged<T> has the layout of T (static_asserts below).
    return HeapView{cp_.size, static_cast<unsigned>(cp_.elements.size()),
                    reinterpret_cast<const kernel::cpudl_item<kernel::Uncounted>*>(
                        cp_.elements.data()),
                    &cp_.free_cpus};
  }

  // Every element store goes through the Logging fields, whatever apply()
  // (or a derived test side's) does.
  bool logs_stores() const override { return true; }
  // cpudl_init() sizes the mask's writes to nr_cpu_ids; every later write is
  // a kernel::cpumask_*() call (a derived test side's too).
  bool free_tail_guarded() const override { return true; }

  void restore(const HeapView& state) override {
    cp_.size = state.size;
    for (unsigned i = 0; i < state.nr_cpu_ids; ++i) {
      const auto& e = state.elements[i];
      cp_.elements[i] = Item{e.dl, e.cpu, e.idx};
    }
    cp_.free_cpus = *state.free_cpus;
  }

 protected:
  std::string_view name_;
  using Heap = kernel::cpudl<Heapify, kernel::Logging>;
  using Item = typename Heap::item;
  using Plain = kernel::cpudl_item<kernel::Uncounted>;
  static_assert(sizeof(Item) == sizeof(Plain) && alignof(Item) == alignof(Plain));
  static_assert(offsetof(Item, dl) == offsetof(Plain, dl) &&
                offsetof(Item, cpu) == offsetof(Plain, cpu) &&
                offsetof(Item, idx) == offsetof(Plain, idx));
  static_assert(std::is_standard_layout_v<Item>);
  Heap cp_;
};

}  // namespace diffsched::cpudl
