// perf's clock for pick (perf/clock.h): kernel/pick.cpp's out-of-line picks,
// blocks of calls over the input's ops.
#include <chrono>
#include <vector>

#include "kernel/pick.h"
#include "perf/clock.h"
#include "subjects/pick/lockstep.h"

namespace diffsched::perf {

namespace {

using Clock = std::chrono::steady_clock;

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

}  // namespace

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
  return summarise_clock(ref, opt);
}

}  // namespace diffsched::perf
