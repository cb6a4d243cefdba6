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
#include <variant>

#include "cpudl/side.h"
#include "kernel/heapify.h"
#include "kernel/store_log.h"

namespace diffsched::cpudl {

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;  // clang-14 lacks aggregate CTAD

template <class Heapify>
class KernelModelSide : public Side {
 public:
  explicit KernelModelSide(std::string_view name) : name_(name) {}

  std::string_view name() const override { return name_; }

  void reset(unsigned nr_cpu_ids) override { kernel::cpudl_init(&cp_, nr_cpu_ids); }

  void apply(const Op& op, FindResult* result) override {
    std::visit(
        Overloaded{
            [&](const Set& o) { kernel::cpudl_set(&cp_, o.cpu, o.dl); },
            [&](const Clear& o) { kernel::cpudl_clear(&cp_, o.cpu); },
            [&](const ClearOnline& o) { kernel::cpudl_clear(&cp_, o.cpu, o.online); },
            [&](const SetFreecpu& o) { kernel::cpudl_set_freecpu(&cp_, o.cpu); },
            [&](const ClearFreecpu& o) { kernel::cpudl_clear_freecpu(&cp_, o.cpu); },
            // The heap code reads no CPU mask: rq_offline_dl() / rq_online_dl().
            [&](const CpuDown& o) {
              kernel::cpudl_clear(&cp_, o.cpu);
              kernel::cpudl_clear_freecpu(&cp_, o.cpu);
            },
            [&](const CpuUp& o) { kernel::cpudl_set_freecpu(&cp_, o.cpu); },
            [&](const Find& o) {
              result->with_mask = true;
              result->later_mask = Cpumask{};
              result->ret = kernel::cpudl_find(&cp_, o.dl, &o.affinity, &result->later_mask);
            },
            [&](const FindNomask& o) {
              result->with_mask = false;
              result->later_mask = Cpumask{};
              result->ret = kernel::cpudl_find(&cp_, o.dl, &o.affinity, nullptr);
            },
            [&](const FindCap& o) {
              result->with_mask = true;
              result->later_mask = Cpumask{};
              result->ret = kernel::cpudl_find_cap(
                  &cp_, o.dl, &o.affinity, &result->later_mask,
                  [this](int cpu) { return capacity_of(cpu); }, o.cpu, o.runtime, o.deadline);
            },
        },
        op);
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
