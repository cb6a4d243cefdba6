#include "subjects/cpudl/perf.h"

#include <array>
#include <memory>
#include <variant>

#include <fmt/format.h>

#include "subjects/cpudl/apply.h"
#include "engine/finding.h"
#include "engine/runner.h"
#include "kernel/counters.h"
#include "kernel/heapify.h"

namespace diffsched::perf {

namespace {

Counts from(const kernel::AccessCounters& a) {
  Counts c;
  c.loads = a.loads;
  c.stores = a.stores;
  c.compares = a.compares;
  return c;
}

}  // namespace

// ---- cpudl -------------------------------------------------------------------

using SwapCounted = kernel::cpudl<kernel::SwapHeapify, kernel::Counting>;
using HoleCounted = kernel::cpudl<kernel::HoleHeapify, kernel::Counting>;

struct Evaluator<cpudl::Subject>::Heaps {
  SwapCounted swap;
  HoleCounted hole;
};

Evaluator<cpudl::Subject>::Evaluator()
    : lockstep_(std::make_unique<cpudl::Lockstep>()), heaps_(std::make_unique<Heaps>()) {}
Evaluator<cpudl::Subject>::~Evaluator() = default;

namespace {

// One op on a counted heap, as KernelModelSide applies it (subjects/cpudl/apply.h);
// returns its counts.
template <class CP>
Counts apply_counted(CP* cp, const cpudl::Op& op, const cpudl::Config& config) {
  kernel::access_counters() = {};
  cpudl::apply_op(cp, op, nullptr, [&](int cpu) { return config.capacity_of(cpu); });
  return from(kernel::access_counters());
}

}  // namespace

Evaluation Evaluator<cpudl::Subject>::run(std::span<const cpudl::Op> ops,
                                          const cpudl::Config& config, bool per_op) {
  Evaluation e;
  e.side_count = 2;
  e.sides.assign(2, Counts{});
  if (per_op) e.per_op.reserve(ops.size() * 2);
  LockstepRun<cpudl::Subject> run(*lockstep_, config, cpudl::Subject::kDefaultLevel);
  kernel::cpudl_init(&heaps_->swap, config.nr_cpu_ids);
  kernel::cpudl_init(&heaps_->hole, config.nr_cpu_ids);
  bool checking = true;
  for (const cpudl::Op& op : ops) {
    // After a finding the lockstep stops and so does the measuring: the cost
    // covers the ops up to and including the one that found it.
    if (!checking) break;
    checking = run.feed(op);
    const bool skip = checking && run.lockstep().last_skipped();
    Counts ref, opt;
    if (!skip) {
      ref = apply_counted(&heaps_->swap, op, config);
      opt = apply_counted(&heaps_->hole, op, config);
    }
    e.sides[0] += ref;
    e.sides[1] += opt;
    if (per_op) {
      e.per_op.push_back(ref);
      e.per_op.push_back(opt);
    }
  }
  run.finish();
  e.verdict = run.verdict();
  return e;
}

}  // namespace diffsched::perf
