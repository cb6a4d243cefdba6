// apply_op(): the one place a cpudl op becomes the kernel calls it stands for,
// on any heap with the kernel's cpudeadline API. The lockstep's kernel-model
// sides (subjects/cpudl/kernel_side.h), perf's counted walk (subjects/cpudl/perf_cost.cpp), perf's
// clock (subjects/cpudl/perf_clock.cpp) and kernel-check's C side (a candidate file behind
// src/subjects/cpudl/kcheck_harness.cpp's CandidateHeap) all call it, so an op
// added to cpudl::Op without a case here fails to compile in every one of
// them (std::visit finds no overload).
//
//   FindResult r;
//   cpudl::apply_op(&cp, Find{100, mask}, &r, [&](int cpu) { return config.capacity_of(cpu); });
//
// The kernel calls are unqualified: argument-dependent lookup picks the
// heap's own overloads (kernel:: for kernel::cpudl<Heapify, Fields>, the
// harness's for CandidateHeap). An op made of calls every heap has needs no
// other side; one that calls a new kernel function does not compile on a
// heap that lacks it.
//
// `result` may be null; a find op then answers into a local. Models the
// callers of v6.1's kernel/sched/cpudeadline.c API in kernel/sched/deadline.c
// (rq_online_dl()/rq_offline_dl() for cpu_up/cpu_down).
#pragma once

#include <variant>

#include "subjects/cpudl/side.h"
#include "kernel/cpudeadline.h"

namespace diffsched::cpudl {

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;  // clang-14 lacks aggregate CTAD

template <class CP, class CapacityOf>
void apply_op(CP* cp, const Op& op, FindResult* result, const CapacityOf& capacity_of) {
  // Only a find op answers, into a local if `result` is null: an update
  // pays for no FindResult (its later_mask is nr_cpu_ids bits to clear).
  const auto answer = [&](auto&& find) {
    if (result != nullptr) return find(result);
    FindResult local;
    find(&local);
  };
  std::visit(
      Overloaded{
          [&](const Set& o) { cpudl_set(cp, o.cpu, o.dl); },
          [&](const Clear& o) { cpudl_clear(cp, o.cpu); },
          [&](const ClearOnline& o) { cpudl_clear(cp, o.cpu, o.online); },
          [&](const SetFreecpu& o) { cpudl_set_freecpu(cp, o.cpu); },
          [&](const ClearFreecpu& o) { cpudl_clear_freecpu(cp, o.cpu); },
          // The heap code reads no CPU mask: the heap's part of hotplug.
          [&](const CpuDown& o) { rq_offline_dl(cp, o.cpu); },
          [&](const CpuUp& o) { rq_online_dl(cp, o.cpu); },
          [&](const Find& o) {
            answer([&](FindResult* r) {
              r->with_mask = true;
              r->later_mask = Cpumask{};
              r->ret = cpudl_find(cp, o.dl, &o.affinity, &r->later_mask);
            });
          },
          [&](const FindNomask& o) {
            answer([&](FindResult* r) {
              r->with_mask = false;
              r->later_mask = Cpumask{};
              r->ret = cpudl_find(cp, o.dl, &o.affinity, nullptr);
            });
          },
          [&](const FindCap& o) {
            answer([&](FindResult* r) {
              r->with_mask = true;
              r->later_mask = Cpumask{};
              r->ret = cpudl_find_cap(cp, o.dl, &o.affinity, &r->later_mask, capacity_of,
                                      o.cpu, o.runtime, o.deadline);
            });
          },
      },
      op);
}

}  // namespace diffsched::cpudl
