#include "perf/clock.h"

#include <chrono>
#include <memory>
#include <vector>

#include "cpudl/apply.h"
#include "kernel/cpudeadline.h"
#include "kernel/heapify.h"
#include "kernel/pick.h"

namespace diffsched::perf {

namespace {

using Clock = std::chrono::steady_clock;

template <class Heapify>
using Heap = kernel::cpudl<Heapify>;

// One pass: replays of the input, each on a fresh heap (initialised outside
// the timed region), until `budget` seconds were timed; returns ns per op.
// Every op kind is timed, through the lockstep's own apply_op() (cpudl/apply.h).
template <class Heapify, class CapacityOf>
double cpudl_pass(Heap<Heapify>* cp, std::span<const cpudl::Op> ops, unsigned cpus,
                  const CapacityOf& capacity_of, double budget) {
  std::chrono::nanoseconds timed{0};
  std::size_t done = 0;
  while (done == 0 || static_cast<double>(timed.count()) < budget * 1e9) {
    kernel::cpudl_init(cp, cpus);
    const auto t0 = Clock::now();
    for (const cpudl::Op& op : ops) cpudl::apply_op(cp, op, nullptr, capacity_of);
    timed += Clock::now() - t0;
    done += ops.size();
  }
  return static_cast<double>(timed.count()) / static_cast<double>(done);
}

// One pass of a pick: blocks of calls over the input's ops until `budget`
// seconds; returns ns per call. The result feeds a sink so no call is dropped.
double pick_pass(pick::PickFn fn, std::span<const pick::Op> ops, double budget) {
  constexpr std::size_t kBlock = 256;
  std::chrono::nanoseconds timed{0};
  std::size_t done = 0;
  unsigned sink = 0;
  while (done == 0 || static_cast<double>(timed.count()) < budget * 1e9) {
    const auto t0 = Clock::now();
    for (std::size_t i = 0; i < kBlock; ++i) {
      const auto& p = std::get<pick::Pick>(ops[i % ops.size()]);
      sink += fn(&p.dst, &p.cpus, &p.allowed);
    }
    timed += Clock::now() - t0;
    done += kBlock;
  }
  asm volatile("" : : "r"(sink));
  return static_cast<double>(timed.count()) / static_cast<double>(done);
}

ClockResult summarise(const std::vector<double>& ref, const std::vector<double>& side) {
  std::vector<double> ratios;
  for (std::size_t i = 0; i < ref.size(); ++i) ratios.push_back(side[i] / ref[i]);
  return {tools::summarize(ref), tools::summarize(side), tools::summarize(ratios)};
}

}  // namespace

template <>
ClockResult time_input<cpudl::Subject>(std::span<const cpudl::Op> ops,
                                       const cpudl::Config& config, std::size_t,
                                       const ClockOptions& o) {
  if (ops.empty()) return {};
  const unsigned cpus = config.nr_cpu_ids;
  const auto capacity_of = [&](int cpu) { return config.capacity_of(cpu); };
  kernel::NrCpuIdsScope scope(cpus);
  auto swap = std::make_unique<Heap<kernel::SwapHeapify>>();
  auto hole = std::make_unique<Heap<kernel::HoleHeapify>>();
  std::vector<double> ref, opt;
  for (unsigned rep = 0; rep < o.repetitions; ++rep) {
    // Alternate which side goes first.
    if (rep % 2 == 0) {
      ref.push_back(cpudl_pass(swap.get(), ops, cpus, capacity_of, o.seconds_per_rep));
      opt.push_back(cpudl_pass(hole.get(), ops, cpus, capacity_of, o.seconds_per_rep));
    } else {
      opt.push_back(cpudl_pass(hole.get(), ops, cpus, capacity_of, o.seconds_per_rep));
      ref.push_back(cpudl_pass(swap.get(), ops, cpus, capacity_of, o.seconds_per_rep));
    }
  }
  return summarise(ref, opt);
}

template <>
ClockResult time_input<pick::Subject>(std::span<const pick::Op> ops,
                                      const pick::Config& config, std::size_t side,
                                      const ClockOptions& o) {
  if (ops.empty()) return {};
  const unsigned cpus = config.nr_cpu_ids;
  kernel::NrCpuIdsScope scope(cpus);
  const pick::PickFn ref_fn = kernel::pick_reference;
  const pick::PickFn side_fn = side == 2 ? kernel::pick_fused : kernel::pick_optimized;
  std::vector<double> ref, opt;
  for (unsigned rep = 0; rep < o.repetitions; ++rep) {
    if (rep % 2 == 0) {
      ref.push_back(pick_pass(ref_fn, ops, o.seconds_per_rep));
      opt.push_back(pick_pass(side_fn, ops, o.seconds_per_rep));
    } else {
      opt.push_back(pick_pass(side_fn, ops, o.seconds_per_rep));
      ref.push_back(pick_pass(ref_fn, ops, o.seconds_per_rep));
    }
  }
  return summarise(ref, opt);
}

}  // namespace diffsched::perf
