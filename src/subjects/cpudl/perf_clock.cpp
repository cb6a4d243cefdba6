// perf's clock for cpudl (perf/clock.h): the two heaps of kernel/heapify.h
// replay the input through the lockstep's own apply_op(), so every op kind is
// timed.
#include <chrono>
#include <memory>
#include <vector>

#include "kernel/cpudeadline.h"
#include "kernel/heapify.h"
#include "perf/clock.h"
#include "subjects/cpudl/lockstep.h"
#include "subjects/cpudl/apply.h"

namespace diffsched::perf {

namespace {

using Clock = std::chrono::steady_clock;

template <class Heapify>
using Heap = kernel::cpudl<Heapify>;

// One pass: replays of the input, each on a fresh heap (initialised outside
// the timed region), until `budget` seconds were timed; returns ns per op.
// Every op kind is timed, through the lockstep's own apply_op() (subjects/cpudl/apply.h).
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
  return summarise_clock(ref, opt);
}

}  // namespace diffsched::perf
