// KernelModelSide<Heapify>: the C++ kernel model of cpudl as a side, with
// the heapify strategy as a policy (kernel/heapify.h).
//
//   auto side = std::make_unique<KernelModelSide<kernel::HoleHeapify>>("optimized");
//
// Not final: tests derive mutants from it (a side with a planted bug).
#pragma once

#include <string_view>
#include <variant>

#include "cpudl/side.h"
#include "kernel/heapify.h"

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
    return HeapView{cp_.size, static_cast<unsigned>(cp_.elements.size()),
                    cp_.elements.data(), &cp_.free_cpus};
  }

  void restore(const HeapView& state) override {
    cp_.size = state.size;
    for (unsigned i = 0; i < state.nr_cpu_ids; ++i) {
      const auto& e = state.elements[i];
      cp_.elements[i] = typename kernel::cpudl<Heapify>::item{e.dl, e.cpu, e.idx};
    }
    cp_.free_cpus = *state.free_cpus;
  }

 protected:
  std::string_view name_;
  kernel::cpudl<Heapify> cp_;
};

}  // namespace diffsched::cpudl
